/** Runs cells through a real @jupyterlab/services kernel connection and collects what came back. */
import type { Kernel, KernelMessage } from '@jupyterlab/services';

export interface CellRun {
  reply: KernelMessage.IExecuteReplyMsg['content'];
  iopub: KernelMessage.IIOPubMessage[];
  /** Concatenated stream text by stream name. */
  stdout: string;
  stderr: string;
  result: Record<string, unknown> | undefined;
  error: KernelMessage.IErrorMsg['content'] | undefined;
  displays: KernelMessage.IIOPubMessage[];
}

export async function runCell(
  kernel: Kernel.IKernelConnection,
  code: string,
  options: { onStdin?: (msg: KernelMessage.IStdinMessage) => void; onIOPub?: (msg: KernelMessage.IIOPubMessage) => void } = {},
): Promise<CellRun> {
  const future = kernel.requestExecute({ code, allow_stdin: true, stop_on_error: false });
  const iopub: KernelMessage.IIOPubMessage[] = [];
  future.onIOPub = (msg) => {
    iopub.push(msg);
    options.onIOPub?.(msg);
  };
  if (options.onStdin) future.onStdin = options.onStdin;
  const reply = await future.done;
  const streams = (name: string): string =>
    iopub
      .filter((m) => m.header.msg_type === 'stream' && (m.content as { name: string }).name === name)
      .map((m) => (m.content as { text: string }).text)
      .join('');
  const result = iopub.find((m) => m.header.msg_type === 'execute_result');
  const error = iopub.find((m) => m.header.msg_type === 'error');
  return {
    reply: reply.content,
    iopub,
    stdout: streams('stdout'),
    stderr: streams('stderr'),
    result: result ? ((result.content as { data: Record<string, unknown> }).data) : undefined,
    error: error ? (error.content as KernelMessage.IErrorMsg['content']) : undefined,
    displays: iopub.filter((m) => m.header.msg_type === 'display_data' || m.header.msg_type === 'update_display_data'),
  };
}

/** Runs a cell that must succeed: its result's text/plain and its stdout; a cell error fails with the cell named. */
export async function runCellOk(kernel: Kernel.IKernelConnection, code: string): Promise<{ value: unknown; stdout: string }> {
  const run = await runCell(kernel, code);
  if (run.error) throw new Error(`cell ${JSON.stringify(code)} failed: ${run.error.ename}: ${run.error.evalue}`);
  return { value: run.result?.['text/plain'], stdout: run.stdout };
}
