/**
 * Runs cells on the session's kernel one at a time (run all / above / below queue behind each other),
 * routes iopub to the cell's outputs and update_display_data to every output with that display id, and
 * brokers stdin: an input_request is answered by the approval buttons or by a plain input box.
 */
import type { Kernel, KernelMessage } from '@jupyterlab/services';
import { ApprovalPayloadSchema, type ApprovalAnswer } from '../../shared/ui-types.js';
import type { CellView } from './cell-view.js';
import { button, h } from './dom.js';
import type { MimeBundle } from './notebook-model.js';
import { renderApproval } from './outputs/approval-view.js';

interface PendingInput {
  future: Kernel.IShellFuture<KernelMessage.IExecuteRequestMsg, KernelMessage.IExecuteReplyMsg>;
  header: KernelMessage.IInputRequestMsg['header'];
}

export interface RunnerHost {
  kernel(): Kernel.IKernelConnection | null;
  cells(): CellView[];
  changed(): void;
  notify(message: string): void;
}

export class Runner {
  private queue: CellView[] = [];
  private current: CellView | undefined;
  private pending = new Map<string, PendingInput>();
  private answers = new Map<string, string[]>();
  private ticker: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly host: RunnerHost) {}

  get busy(): boolean {
    return this.current !== undefined || this.queue.length > 0;
  }

  /** Queues code cells (markdown cells just render) and starts the queue if idle. */
  enqueue(cells: CellView[]): void {
    for (const cell of cells) {
      if (cell.model.cellType !== 'code') {
        cell.leaveEdit();
        continue;
      }
      if (cell === this.current || this.queue.includes(cell)) continue;
      cell.setRunState('queued');
      this.queue.push(cell);
    }
    this.startTicker();
    if (!this.current) void this.drain();
  }

  /** Drops queued (not yet started) cells, e.g. after an error, interrupt or restart. */
  clearQueue(): void {
    for (const cell of this.queue) cell.setRunState('idle');
    this.queue = [];
  }

  /** The answer to the cell's pending input_request, or queued until the request arrives. */
  answer(cellId: string, value: string): void {
    const pending = this.pending.get(cellId);
    if (pending) {
      this.pending.delete(cellId);
      pending.future.sendInputReply({ status: 'ok', value }, pending.header);
      const cell = this.host.cells().find((c) => c.model.id === cellId);
      cell?.stdinHost.replaceChildren();
      return;
    }
    this.answers.set(cellId, [...(this.answers.get(cellId) ?? []), value]);
  }

  answerApproval(cellId: string, answer: ApprovalAnswer): void {
    this.answer(cellId, JSON.stringify(answer));
  }

  private async drain(): Promise<void> {
    while (this.queue.length) {
      const cell = this.queue.shift()!;
      this.current = cell;
      const ok = await this.execute(cell);
      this.current = undefined;
      if (!ok) this.clearQueue();
    }
    this.stopTicker();
  }

  private async execute(cell: CellView): Promise<boolean> {
    const kernel = this.host.kernel();
    if (!kernel) {
      cell.setRunState('idle');
      this.host.notify('No kernel: cannot run the cell.');
      return false;
    }
    cell.outputs.clear();
    cell.stdinHost.replaceChildren();
    this.answers.delete(cell.model.id);
    cell.setRunState('running');
    const future = kernel.requestExecute({ code: cell.source, silent: false, store_history: true, allow_stdin: true, stop_on_error: true });
    future.onIOPub = (msg) => this.onIOPub(cell, msg);
    future.onStdin = (msg) => {
      if (msg.header.msg_type === 'input_request') this.onInputRequest(cell, future, msg as KernelMessage.IInputRequestMsg);
    };
    try {
      const reply = await future.done;
      const content = reply.content;
      cell.setExecutionCount(typeof content.execution_count === 'number' ? content.execution_count : null);
      return content.status === 'ok';
    } catch {
      // Restart or shutdown disposed the future before its reply.
      return false;
    } finally {
      this.pending.delete(cell.model.id);
      cell.stdinHost.replaceChildren();
      cell.setRunState('idle');
      this.host.changed();
    }
  }

  private onIOPub(cell: CellView, msg: KernelMessage.IIOPubMessage): void {
    const type = msg.header.msg_type;
    if (type === 'execute_input') {
      const count = (msg.content as { execution_count?: unknown }).execution_count;
      if (typeof count === 'number') cell.model.executionCount = count;
      return;
    }
    if (type === 'update_display_data') {
      const content = msg.content as { data?: MimeBundle; metadata?: Record<string, unknown>; transient?: { display_id?: unknown } };
      const id = content.transient?.display_id;
      if (typeof id !== 'string') return;
      // Jupyter semantics: every output with this display id is updated, in any cell.
      for (const view of this.host.cells()) view.outputs.updateDisplay(id, content.data ?? {}, content.metadata ?? {});
      return;
    }
    cell.outputs.handle(msg);
  }

  private onInputRequest(cell: CellView, future: PendingInput['future'], msg: KernelMessage.IInputRequestMsg): void {
    const queued = this.answers.get(cell.model.id);
    if (queued?.length) {
      const value = queued.shift()!;
      future.sendInputReply({ status: 'ok', value }, msg.header);
      return;
    }
    this.pending.set(cell.model.id, { future, header: msg.header });
    const { prompt, password } = msg.content;
    let approval: unknown;
    try {
      approval = JSON.parse(prompt);
    } catch {
      approval = undefined;
    }
    const parsed = ApprovalPayloadSchema.safeParse(approval);
    if (parsed.success) {
      cell.stdinHost.replaceChildren(renderApproval(parsed.data, (_id, answer) => this.answerApproval(cell.model.id, answer)));
      return;
    }
    // An approval display already on screen answers this request; no second prompt.
    if (cell.outputs.element.querySelector('.nh-approval:not([data-answered])')) return;
    const input = h('input', { type: password ? 'password' : 'text', class: 'stdin-input', 'aria-label': prompt || 'input' });
    const submit = (): void => this.answer(cell.model.id, input.value);
    input.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter') submit();
      ev.stopPropagation();
    });
    cell.stdinHost.replaceChildren(h('label', { class: 'stdin-prompt' }, prompt, input), button('Send', submit, { class: 'btn' }));
    input.focus();
  }

  private startTicker(): void {
    this.ticker ??= setInterval(() => {
      this.current?.tick();
    }, 100);
  }

  private stopTicker(): void {
    if (this.ticker !== undefined) clearInterval(this.ticker);
    this.ticker = undefined;
  }
}
