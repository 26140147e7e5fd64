/**
 * Runs cells on the session's kernel. Run all / above / below send every cell's execute request at once, as
 * JupyterLab does: the kernel runs them in order and, with stop_on_error, answers the rest 'aborted' after an
 * error, so no round trip separates two cells. Routes iopub to the cell's outputs and update_display_data to
 * every output with that display id, and brokers stdin: an input_request is answered by the approval buttons
 * or by a plain input box.
 */
import type { Kernel, KernelMessage } from '@jupyterlab/services';
import { EXECUTE_BATCH_METADATA } from '../../shared/rest.js';
import type { ApprovalAnswer } from '../../shared/ui-types.js';
import type { CellView } from './cell-view.js';
import { button, h, randomHex } from './dom.js';
import type { MimeBundle } from './notebook-model.js';
import { renderApproval } from './outputs/approval-view.js';
import { loadRenderers, type Renderers } from './outputs/render-loader.js';

/** How long a run waits before it loads the renderers chunk (if nothing needed it earlier). */
const RENDERERS_DURING_RUN_MS = 150;

type ExecuteFuture = Kernel.IShellFuture<KernelMessage.IExecuteRequestMsg, KernelMessage.IExecuteReplyMsg>;

interface PendingInput {
  future: ExecuteFuture;
  header: KernelMessage.IInputRequestMsg['header'];
  /** The approval this request asks for (its prompt is the kernel's approval payload), if it is one. */
  approvalId: string | undefined;
}

/** An answer given before its request arrived; an approval answer names the approval it answers. */
interface QueuedAnswer {
  value: string;
  approvalId: string | undefined;
}

/**
 * The approval an input_request asks for, named by the kernel in the request's metadata (stdin channel). An
 * approval card among a cell's outputs is display data, which code in the cell could draw or replace: a card
 * answers only the request that names it.
 */
function approvalIdOf(msg: KernelMessage.IInputRequestMsg): string | undefined {
  const id = (msg.metadata as Record<string, unknown> | undefined)?.['nighthawk_approval'];
  return typeof id === 'string' ? id : undefined;
}

export interface RunnerHost {
  kernel(): Kernel.IKernelConnection | null;
  cells(): CellView[];
  changed(): void;
  notify(message: string): void;
}

export class Runner {
  /** Cells whose execute request is in the kernel and not yet answered, in the order they were sent. */
  private readonly inFlight = new Map<CellView, ExecuteFuture>();
  /** The cell the kernel reported executing (its execute_input arrived). */
  private current: CellView | undefined;
  private pending = new Map<string, PendingInput>();
  private answers = new Map<string, QueuedAnswer[]>();
  private ticker: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly host: RunnerHost) {}

  get busy(): boolean {
    return this.inFlight.size > 0;
  }

  /**
   * Sends each code cell's execute request now (markdown cells just render); the kernel queues them. Two or more
   * go as one batch (EXECUTE_BATCH_METADATA): when one fails, the kernel aborts the rest even if they reach it
   * after the failure, as the requests of a long run all do.
   */
  enqueue(cells: CellView[]): void {
    const code = cells.filter((c) => c.model.cellType === 'code' && !this.inFlight.has(c));
    const batch = code.length > 1 ? randomHex(16) : undefined;
    for (const cell of cells) {
      if (cell.model.cellType !== 'code') {
        cell.leaveEdit();
        continue;
      }
      if (this.inFlight.has(cell)) continue;
      const kernel = this.host.kernel();
      if (!kernel) {
        this.host.notify('No kernel: cannot run the cell.');
        return;
      }
      this.send(kernel, cell, batch);
    }
  }

  /**
   * After an interrupt or restart: cells already sent are the kernel's to abort (an interrupted cell is an
   * error, and stop_on_error aborts what was queued behind it; a restart drops them), so nothing is recalled
   * here. Kept for callers that clear a queue.
   */
  clearQueue(): void {}

  /**
   * The answer to the cell's pending input_request, or queued until the request arrives. An approval answer
   * (`approvalId`) goes only to the request for that approval; to any other it is dropped.
   */
  answer(cellId: string, value: string, approvalId?: string): void {
    const pending = this.pending.get(cellId);
    if (pending) {
      if (approvalId !== undefined && pending.approvalId !== undefined && pending.approvalId !== approvalId) return;
      this.pending.delete(cellId);
      pending.future.sendInputReply({ status: 'ok', value }, pending.header);
      const cell = this.host.cells().find((c) => c.model.id === cellId);
      cell?.stdinHost.replaceChildren();
      return;
    }
    this.answers.set(cellId, [...(this.answers.get(cellId) ?? []), { value, approvalId }]);
  }

  answerApproval(cellId: string, requestId: string, answer: ApprovalAnswer): void {
    this.answer(cellId, JSON.stringify(answer), requestId);
  }

  private send(kernel: Kernel.IKernelConnection, cell: CellView, batch: string | undefined): void {
    // Sent before the cell is redrawn, so a batch's requests leave close together (replies come in later tasks).
    const content = { code: cell.source, silent: false, store_history: true, allow_stdin: true, stop_on_error: true };
    const future = kernel.requestExecute(content, true, batch === undefined ? undefined : { [EXECUTE_BATCH_METADATA]: batch });
    cell.outputs.clear();
    cell.stdinHost.replaceChildren();
    this.answers.delete(cell.model.id);
    cell.setRunState('queued');
    // Results render through the renderers chunk. A cell still running after RENDERERS_DURING_RUN_MS loads it
    // while the kernel works; a quick cell's result is drawn as plain text first (the chunk's ~40 ms of script,
    // evaluated at once, would hold up the very reply frames the person waits for) and redrawn once it arrives.
    const renderersSoon = setTimeout(() => void loadRenderers(), RENDERERS_DURING_RUN_MS);
    this.inFlight.set(cell, future);
    this.startTicker();
    future.onIOPub = (msg) => this.onIOPub(cell, msg);
    future.onStdin = (msg) => {
      if (msg.header.msg_type === 'input_request') this.onInputRequest(cell, future, msg as KernelMessage.IInputRequestMsg);
    };
    future.done.then(
      (reply) => {
        const content = reply.content;
        // An aborted request never ran: the cell keeps the count it had.
        if (content.status !== 'aborted') cell.setExecutionCount(typeof content.execution_count === 'number' ? content.execution_count : null);
      },
      () => {
        // Restart or shutdown disposed the future before its reply.
      },
    ).finally(() => {
      clearTimeout(renderersSoon);
      this.settle(cell, future);
    });
  }

  private settle(cell: CellView, future: ExecuteFuture): void {
    if (this.inFlight.get(cell) !== future) return;
    this.inFlight.delete(cell);
    if (this.current === cell) this.current = undefined;
    this.pending.delete(cell.model.id);
    cell.stdinHost.replaceChildren();
    cell.setRunState('idle');
    this.host.changed();
    if (this.inFlight.size === 0) this.stopTicker();
  }

  private onIOPub(cell: CellView, msg: KernelMessage.IIOPubMessage): void {
    const type = msg.header.msg_type;
    if (type === 'execute_input') {
      const count = (msg.content as { execution_count?: unknown }).execution_count;
      if (typeof count === 'number') cell.model.executionCount = count;
      this.current = cell;
      cell.setRunState('running');
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
    const approvalId = approvalIdOf(msg);
    const queued = this.answers.get(cell.model.id);
    if (queued?.length) {
      const next = queued.shift()!;
      if (next.approvalId === undefined || approvalId === undefined || next.approvalId === approvalId) {
        future.sendInputReply({ status: 'ok', value: next.value }, msg.header);
        return;
      }
    }
    this.pending.set(cell.model.id, { future, header: msg.header, approvalId });
    // The approval schema comes with the renderers; an approval display of this cell is drawn rich by then.
    void Promise.all([loadRenderers(), cell.outputs.whenRendered()]).then(([{ ApprovalPayloadSchema }]) => {
      if (this.pending.get(cell.model.id)?.header !== msg.header) return; // answered meanwhile
      this.showInputPrompt(cell, msg, ApprovalPayloadSchema);
    });
  }

  private showInputPrompt(cell: CellView, msg: KernelMessage.IInputRequestMsg, ApprovalPayloadSchema: Renderers['ApprovalPayloadSchema']): void {
    const { prompt, password } = msg.content;
    let approval: unknown;
    try {
      approval = JSON.parse(prompt);
    } catch {
      approval = undefined;
    }
    const parsed = ApprovalPayloadSchema.safeParse(approval);
    if (parsed.success) {
      cell.stdinHost.replaceChildren(renderApproval(parsed.data, (requestId, answer) => this.answerApproval(cell.model.id, requestId, answer)));
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
