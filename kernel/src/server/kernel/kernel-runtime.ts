/**
 * The kernel side of the Jupyter protocol, transport-free: it takes validated client messages and emits
 * kernel messages. Executions are serialised; console and process output during a cell become `stream`
 * messages; the host sees every cell before it runs and may display data or ask for input meanwhile.
 */
import type { ClientMessage, ErrorContent, JsonObject, KernelMessage, MessageHeader, MimeBundle, ParentHeader } from '../../../../shared/index.js';
import { EXECUTE_BATCH_METADATA, RequestContentSchemas, PROTOCOL_VERSION } from '../../../../shared/index.js';
import type { CellCompiler, CellOutcome } from './cell-compiler.js';
import { redactValue, registerEnvSecret } from '../../core/index.js';
import { notOperatorCode, refuseInteriorControl } from '../../harness/index.js';
import { InputRequestError } from './errors.js';
import type { CellResult, CellScope, CellSubmission, DisplayOptions, InputOptions, KernelChannel, KernelHost } from './kernel-host.js';
import { makeMessage, replyType } from './kernel-messages.js';
import { installCellOutputBridge } from './cell-output-bridge.js';
import { isCompleteSource } from './cell-complete.js';
import { interruptedOutcome } from './cell-errors.js';
import { watchdogTerminations } from './kernel-work.js';

// The configured provider key is redacted from every message the kernel sends.
registerEnvSecret('OPENAI_API_KEY');

export type Send = (msg: KernelMessage<object>, route: string | null) => void;

interface Running {
  parent: MessageHeader;
  route: string;
  allowStdin: boolean;
  /** Interrupted for a client that stopped waiting for it: its error does not abort what that client sent since. */
  keepQueue?: boolean;
  /**
   * Interrupted before the compiler started it (while the host admitted it): the compiler ignores an interrupt
   * when no cell of its own runs, so the cell is ended here instead of being started.
   */
  interrupted?: boolean;
  /** The watchdog's terminations when the cell started (kernel-work.ts). */
  terminations: number;
  /**
   * Ends the cell without its own continuation. A termination since the cell started may have dropped it (with
   * every other queued microtask), and then the cell's promise never settles: interrupt() ends the cell here.
   */
  abandon(outcome: CellOutcome): void;
}

interface PendingInput {
  resolve(value: string): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

export const KERNEL_INFO = {
  status: 'ok',
  protocol_version: PROTOCOL_VERSION,
  implementation: 'nighthawk',
  implementation_version: '0.1.0',
  language_info: {
    name: 'typescript',
    version: '5.0',
    mimetype: 'text/typescript',
    file_extension: '.ts',
    codemirror_mode: { name: 'javascript', typescript: true },
  },
  banner: 'Nighthawk TS kernel (TypeScript cells over tslab)',
  help_links: [],
} as const;

/** The comm target of live diagnostics (see KernelRuntime.comm). */
export const DIAGNOSTICS_TARGET = 'nighthawk.diagnostics';

/** An execute request as its client sent it: who, in which batch, when by the client's clock, and when it got here. */
interface SentRequest {
  session: string;
  batch: string | undefined;
  /** Its header's date (milliseconds), when it has a readable one. */
  createdAt: number | undefined;
  arrivedAt: number;
}

function sentRequest(header: MessageHeader, batch: unknown): SentRequest {
  const createdAt = Date.parse(header.date ?? '');
  return { session: header.session, batch: typeof batch === 'string' ? batch : undefined, createdAt: Number.isFinite(createdAt) ? createdAt : undefined, arrivedAt: performance.now() };
}

interface Failure {
  session: string;
  batch: string | undefined;
  /** The earliest its client could have seen the failure, on the client's clock: its date plus its time here. */
  visibleAfter: number | undefined;
}

function failureOf(sent: SentRequest): Failure {
  return { session: sent.session, batch: sent.batch, visibleAfter: sent.createdAt === undefined ? undefined : sent.createdAt + (performance.now() - sent.arrivedAt) };
}

export class KernelRuntime implements KernelChannel {
  readonly session: string;
  private executionCount = 0;
  private queue: Promise<void> = Promise.resolve();
  /** Open comms to DIAGNOSTICS_TARGET. */
  private readonly comms = new Set<string>();
  private started = true;
  private startError: Error | undefined;
  /** Bumped on an error with stop_on_error: executions queued before it are aborted. */
  private abortGeneration = 0;
  /** The last stop_on_error failure, for the requests sent behind it that reach this kernel only after it (queuedBehind). */
  private lastFailure: Failure | undefined;
  private running: Running | undefined;
  private lastParent: ParentHeader = {};
  private pendingInput: PendingInput | undefined;
  private host: KernelHost | undefined;

  constructor(
    private readonly compiler: CellCompiler,
    private readonly send: Send,
    session: string,
    private readonly onExecuting: (msgId: string) => void = () => {},
  ) {
    this.session = session;
  }

  /** Requests queued or running (executions, diagnostics, replies that wait their turn). */
  private work = 0;
  /** When the last request ended (performance.now()). */
  private idleAt = performance.now();

  private enqueue(task: () => void | Promise<void>): void {
    this.work++;
    this.queue = this.queue.then(task).finally(() => {
      if (--this.work === 0) this.idleAt = performance.now();
    });
  }

  /** Nothing queued or running: background work (building the compiler's program) delays no one now. */
  get idle(): boolean {
    return this.work === 0;
  }

  /** How long nothing has been queued or running, in ms (0 while something is). */
  get idleForMs(): number {
    return this.work === 0 ? performance.now() - this.idleAt : 0;
  }

  setHost(host: KernelHost): void {
    this.host = host;
  }

  /**
   * Holds every queued request until `ready` (the compiler and host have loaded). kernel_info is
   * answered at once meanwhile: it needs neither, and clients wait for it before anything else.
   */
  startWhen(ready: Promise<void>): void {
    this.started = false;
    // A failed load leaves the kernel answering every request with that error instead of hanging.
    const gate = ready.then(
      () => {
        this.started = true;
      },
      (cause: unknown) => {
        this.started = true;
        this.startError = Object.assign(new Error(`the kernel could not load its compiler or host: ${cause instanceof Error ? cause.message : String(cause)}`), { name: 'KernelStartError' });
      },
    );
    this.enqueue(() => gate);
  }

  /** Routes process.stdout/stderr writes (including console) to `stream` messages, and cells' display calls. */
  captureOutput(): void {
    for (const name of ['stdout', 'stderr'] as const) {
      const stream = process[name];
      stream.write = ((chunk: string | Uint8Array, encoding?: unknown, callback?: unknown): boolean => {
        const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
        this.iopub('stream', { name, text }, this.running?.parent ?? this.lastParent);
        const done = typeof encoding === 'function' ? encoding : callback;
        if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
        return true;
      }) as typeof stream.write;
    }
    // tslab's display API (`import * as tslab from "tslab"`) and console.clear() (a clear_output) in cells.
    installCellOutputBridge({
      display: (bundle, options) => this.display(bundle, options),
      clearOutput: (wait) => this.iopub('clear_output', { wait }, this.running?.parent ?? this.lastParent),
    });
  }

  handle(msg: ClientMessage, route: string): void {
    // Messages come from the frontend through the event loop, never from inside a run: a handler a model reached
    // (the kernel's `message` listener left on a timer) may not answer an approval or run a cell as the operator.
    if (notOperatorCode()) {
      refuseInteriorControl(`kernel message ${String(msg.header?.msg_type)}`);
      return;
    }
    const parent = msg.header;
    const type = parent.msg_type;
    if (type === 'input_reply') {
      const parsed = RequestContentSchemas.input_reply.safeParse(msg.content);
      const pending = this.pendingInput;
      if (pending && parsed.success) {
        this.pendingInput = undefined;
        clearTimeout(pending.timer);
        pending.resolve(parsed.data.value);
      }
      return;
    }
    if (type === 'execute_request') {
      const content = RequestContentSchemas.execute_request.parse(msg.content);
      const sent = sentRequest(parent, msg.metadata?.[EXECUTE_BATCH_METADATA]);
      const stopOnError = content.stop_on_error !== false;
      // A request sent behind a failure that arrives after it is aborted like one that was queued behind it.
      const generation = stopOnError && this.queuedBehind(sent) ? this.abortGeneration - 1 : this.abortGeneration;
      const silent = content.silent === true;
      const counts = !silent && content.store_history !== false;
      this.enqueue(() =>
        this.execute(parent, route, content.code, {
          generation,
          counts,
          silent,
          stopOnError,
          allowStdin: content.allow_stdin !== false,
          cellId: typeof msg.metadata?.['cellId'] === 'string' ? msg.metadata['cellId'] : undefined,
          sent,
        }),
      );
      return;
    }
    if (type === 'comm_open' || type === 'comm_msg' || type === 'comm_close') {
      // In order with executions (a check sees the declarations of every cell submitted before it), and framed
      // busy/idle as every shell message is: a client's request is done only at its idle (@jupyterlab/services
      // keeps each comm message's future, and the server each message as in flight, until then).
      this.enqueue(() =>
        this.framed(parent, () => {
          try {
            this.comm(type, msg.content, parent);
          } catch {
            // A malformed comm message is dropped; a throw here would stall every request queued after it.
          }
        }),
      );
      return;
    }
    // Other shell requests are answered in order with executions, so a reply never overtakes a cell.
    const channel = msg.channel === 'control' ? 'control' : 'shell';
    // is_complete needs no compiler or state, and terminal frontends give it one second: never queued.
    if ((!this.started && type === 'kernel_info_request') || type === 'is_complete_request') {
      this.answer(parent, route, type, msg.content, channel);
      return;
    }
    this.enqueue(() => this.answer(parent, route, type, msg.content, channel));
  }

  /**
   * The one comm target, DIAGNOSTICS_TARGET: a frontend sends `{ request_id, code }` and gets back
   * `{ request_id, diagnostics }` (live type errors as you type, checked against the session's
   * declarations, nothing run). Other targets are closed at once, as Jupyter kernels do; comm messages
   * have no shell reply in the protocol.
   */
  private comm(type: string, content: JsonObject, parent: MessageHeader): void {
    const commId = typeof content.comm_id === 'string' ? content.comm_id : undefined;
    if (!commId) return;
    if (type === 'comm_open') {
      if (content.target_name === DIAGNOSTICS_TARGET && this.compiler.diagnose) this.comms.add(commId);
      else this.iopub('comm_close', { comm_id: commId, data: {} }, parent);
      return;
    }
    if (type === 'comm_close') {
      this.comms.delete(commId);
      return;
    }
    if (!this.comms.has(commId)) return;
    const data = (content.data ?? {}) as JsonObject;
    const code = typeof data.code === 'string' && data.code.length <= 1_000_000 ? data.code : undefined;
    if (code === undefined) return;
    if (!this.started || this.startError) return;
    let diagnostics: JsonObject[] = [];
    try {
      diagnostics = (this.compiler.diagnose?.(code) ?? []).map((d) => ({ ...d }));
    } catch {
      // A checker failure must never break the kernel; the editor simply shows nothing.
    }
    this.iopub('comm_msg', { comm_id: commId, data: { request_id: data.request_id ?? null, diagnostics } }, parent);
  }

  /** Busy, the work, idle, on iopub for the request `parent`: a client's request is done only at its idle. */
  private framed(parent: MessageHeader, work: () => void): void {
    this.iopub('status', { execution_state: 'busy' }, parent);
    work();
    this.iopub('status', { execution_state: 'idle' }, parent);
  }

  private answer(parent: MessageHeader, route: string, type: string, content: JsonObject, channel: 'shell' | 'control'): void {
    this.framed(parent, () => {
      try {
        if (this.startError && type !== 'kernel_info_request') throw this.startError;
        this.reply(parent, route, this.replyContent(type, content), channel);
      } catch (error) {
        this.reply(parent, route, { status: 'error', ...errorContent('KernelError', (error as Error).message) }, channel);
      }
    });
  }

  private replyContent(type: string, content: JsonObject): JsonObject {
    switch (type) {
      case 'kernel_info_request':
        return { ...KERNEL_INFO };
      case 'complete_request': {
        const c = RequestContentSchemas.complete_request.parse(content);
        const r = this.compiler.complete(c.code, c.cursor_pos);
        // Jupyter's convention for typed completions (JupyterLab and the web notebook show the kinds).
        const typed = r.types ? { _jupyter_types_experimental: r.matches.map((text, i) => ({ start: r.cursorStart, end: r.cursorEnd, text, type: r.types![i] ?? '' })) } : {};
        return { status: 'ok', matches: r.matches, cursor_start: r.cursorStart, cursor_end: r.cursorEnd, metadata: typed };
      }
      case 'inspect_request': {
        const c = RequestContentSchemas.inspect_request.parse(content);
        const r = this.compiler.inspect(c.code, c.cursor_pos);
        return { status: 'ok', found: r.found, data: r.found ? { 'text/plain': r.text } : {}, metadata: {} };
      }
      case 'is_complete_request': {
        const c = RequestContentSchemas.is_complete_request.parse(content);
        // Before the compiler loads, the scanner alone (it cannot tell `1 +* 2` is invalid; the compiler can).
        const r = this.started ? this.compiler.isComplete(c.code) : isCompleteSource(c.code);
        return r.status === 'incomplete' ? { status: 'incomplete', indent: r.indent } : { status: r.status };
      }
      case 'history_request':
        return { status: 'ok', history: [] };
      case 'comm_info_request': {
        // The protocol's optional filter: only the comms of that target (all of ours are DIAGNOSTICS_TARGET).
        const wanted = typeof content.target_name === 'string' && content.target_name !== '' ? content.target_name : DIAGNOSTICS_TARGET;
        const ids = wanted === DIAGNOSTICS_TARGET ? [...this.comms] : [];
        return { status: 'ok', comms: Object.fromEntries(ids.map((id) => [id, { target_name: DIAGNOSTICS_TARGET }])) };
      }
      default:
        return { status: 'error', ...errorContent('UnknownMessageType', `Unsupported msg_type '${type}'`) };
    }
  }

  private async execute(
    parent: MessageHeader,
    route: string,
    code: string,
    options: { generation: number; counts: boolean; silent: boolean; stopOnError: boolean; allowStdin: boolean; cellId: string | undefined; sent: SentRequest },
  ): Promise<void> {
    this.iopub('status', { execution_state: 'busy' }, parent);
    if (options.generation < this.abortGeneration) {
      this.reply(parent, route, { status: 'aborted', execution_count: this.executionCount });
      this.iopub('status', { execution_state: 'idle' }, parent);
      return;
    }
    if (options.counts) this.executionCount++;
    const count = this.executionCount;
    if (!options.silent) this.iopub('execute_input', { code, execution_count: count }, parent);
    let abandon!: (outcome: CellOutcome) => void;
    const abandoned = new Promise<CellOutcome>((resolve) => (abandon = resolve));
    this.running = { parent, route, allowStdin: options.allowStdin, terminations: watchdogTerminations(), abandon };
    this.lastParent = parent;
    const submission = { cellId: options.cellId, executionCount: count };
    let result: CellResult;
    let scope: CellScope | undefined;
    let failure: ErrorContent | undefined;
    let internals: string[] | undefined;
    let keepQueue = false;
    try {
      if (this.startError) throw this.startError;
      const outcome = await Promise.race([this.admitAndRun(code, submission, parent), abandoned]);
      if (outcome.kind === 'ok') {
        if (outcome.value && !options.silent) {
          this.iopub('execute_result', { execution_count: count, data: outcome.value, metadata: {} }, parent);
        }
        result = { kind: 'ok', ...submission, value: outcome.value };
        const compiler = this.compiler;
        scope = { declared: outcome.declared, rebind: (name, value) => compiler.rebind(name, value) };
      } else {
        failure = { ename: outcome.ename, evalue: outcome.evalue, traceback: outcome.traceback };
        if (outcome.kind === 'error' && outcome.internals) internals = outcome.internals;
        result =
          outcome.kind === 'interrupted'
            ? { kind: 'interrupted', ...submission }
            : { kind: 'error', ...submission, ename: outcome.ename, evalue: outcome.evalue };
      }
    } catch (error) {
      // The host refused the cell (or failed): the cell did not run.
      const e = error as Error;
      failure = errorContent(e?.name ?? 'Error', e?.message ?? String(error));
      result = { kind: 'error', ...submission, ename: failure.ename, evalue: failure.evalue };
    } finally {
      keepQueue = this.running?.keepQueue === true;
      this.running = undefined;
      this.rejectInput({ reason: 'cell-finished' });
    }
    // Node reports a rejection nobody awaited only after the turn that made it: one more turn here, and a cell that
    // ends with `void Promise.reject(e)` shows it before its idle, where a client that stops listening there sees it.
    await new Promise<void>((resolve) => setImmediate(resolve));
    try {
      await this.host?.afterCell(result, scope);
    } catch (error) {
      process.stderr.write(`afterCell failed: ${(error as Error).message}\n`);
    }
    if (failure) {
      // Library frames travel in the message's metadata: Jupyter frontends print content.traceback only, and
      // the web notebook keeps them behind "show internals" (never saved into the .ipynb).
      this.iopub('error', failure, parent, internals ? { 'nighthawk/internals': internals } : {});
      if (options.stopOnError && !keepQueue) {
        this.abortGeneration++;
        this.lastFailure = failureOf(options.sent);
      }
      this.reply(parent, route, { status: 'error', execution_count: count, ...failure });
    } else {
      this.reply(parent, route, { status: 'ok', execution_count: count, user_expressions: {}, payload: [] });
    }
    this.iopub('status', { execution_state: 'idle' }, parent);
  }

  /**
   * Whether a request reaching the kernel after the last stop_on_error failure was sent behind it, as part of
   * what the client queued (Jupyter aborts those): the same batch (EXECUTE_BATCH_METADATA), or the same session and a
   * header date before that client could have seen the failure's reply. A run-all's requests leave a browser
   * over tens of milliseconds, and a cell failing faster than that (a type error) ended before the rest came.
   */
  private queuedBehind(sent: SentRequest): boolean {
    const failure = this.lastFailure;
    if (!failure) return false;
    if (sent.batch !== undefined && sent.batch === failure.batch) return true;
    if (sent.session !== failure.session || failure.visibleAfter === undefined || sent.createdAt === undefined) return false;
    // Both dates are the client's clock; header dates keep milliseconds, hence the one of margin.
    return sent.createdAt < failure.visibleAfter - 1;
  }

  /** The host admits the cell, then the compiler runs it, unless it was interrupted while admitted. */
  private async admitAndRun(code: string, submission: CellSubmission, parent: MessageHeader): Promise<CellOutcome> {
    await this.host?.submitCell(code, submission);
    if (this.running?.interrupted === true) return interruptedOutcome();
    const host = this.host;
    const bind = host?.bindDeclared ? (name: string, value: unknown): unknown => host.bindDeclared!(name, value) : undefined;
    return this.compiler.execute(code, {
      executionCount: submission.executionCount,
      onStart: () => this.onExecuting(parent.msg_id),
      ...(bind ? { bind } : {}),
      ...(host?.describeError ? { describeError: (error: unknown) => host.describeError!(error) } : {}),
      ...(host?.awaitsValue ? { awaitValue: (value: unknown) => host.awaitsValue!(value) } : {}),
    });
  }

  /**
   * Stops the running cell if it is the one executing `msgId` (if awaiting) and fails its input request.
   * `keepQueue`: its client no longer waits for it (a console back at its prompt), so what that client sends
   * next is not aborted by the interrupted cell's error, as stop_on_error would otherwise do.
   */
  interrupt(msgId: string, options: { keepQueue?: boolean } = {}): void {
    if (!this.running || this.running.parent.msg_id !== msgId) return;
    if (options.keepQueue) this.running.keepQueue = true;
    this.running.interrupted = true;
    this.compiler.interrupt();
    this.rejectInput({ reason: 'interrupted' });
    if (watchdogTerminations() !== this.running.terminations) this.running.abandon(interruptedOutcome());
  }

  display(bundle: MimeBundle, options: DisplayOptions = {}): void {
    const parent = this.running?.parent ?? this.lastParent;
    if (options.update) {
      if (options.displayId === undefined) throw new TypeError('display update needs a displayId');
      this.iopub('update_display_data', { data: bundle, metadata: {}, transient: { display_id: options.displayId } }, parent);
      return;
    }
    const transient = options.displayId === undefined ? undefined : { display_id: options.displayId };
    this.iopub('display_data', { data: bundle, metadata: {}, ...(transient ? { transient } : {}) }, parent);
  }

  requestInput(prompt: string, options: InputOptions): Promise<string> {
    const running = this.running;
    if (!running) return Promise.reject(new InputRequestError({ reason: 'no-cell' }));
    if (!running.allowStdin) return Promise.reject(new InputRequestError({ reason: 'stdin-not-allowed' }));
    if (this.pendingInput) return Promise.reject(new InputRequestError({ reason: 'already-pending' }));
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => this.rejectInput({ reason: 'timeout', timeoutMs: options.timeoutMs }), options.timeoutMs);
      this.pendingInput = { resolve, reject, timer };
      const metadata: JsonObject = options.approvalId !== undefined ? { nighthawk_approval: options.approvalId } : {};
      const msg = makeMessage('stdin', 'input_request', { prompt, password: options.password === true }, running.parent, this.session, metadata);
      this.send(msg, running.route);
    });
  }

  /** Fails the pending input request, if any (the error is made only then: every cell's end asks). */
  private rejectInput(failure: ConstructorParameters<typeof InputRequestError>[0]): void {
    const pending = this.pendingInput;
    if (!pending) return;
    this.pendingInput = undefined;
    clearTimeout(pending.timer);
    pending.reject(new InputRequestError(failure));
  }

  private iopub(type: string, content: object, parent: ParentHeader, metadata: JsonObject = {}): void {
    // The host's redactor sees what cells registered (the kernel process may hold a second module instance).
    const redact = <T>(value: T): T => redactValue(this.host?.redact ? this.host.redact(value) : value);
    this.send(makeMessage('iopub', type, redact(content), parent, this.session, redact(metadata)), null);
  }

  private reply(parent: MessageHeader, route: string, content: object, channel: 'shell' | 'control' = 'shell'): void {
    this.send(makeMessage(channel, replyType(parent.msg_type), content, parent, this.session), route);
  }
}

function errorContent(ename: string, evalue: string): ErrorContent {
  return { ename, evalue, traceback: [`${ename}: ${evalue}`] };
}
