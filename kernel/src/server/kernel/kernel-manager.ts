/**
 * Server-side kernels: one forked kernel process each (so restart really clears state and a spinning cell
 * never blocks the server), plus a pool of pre-warmed spare processes so starting or restarting a kernel
 * does not pay tslab's compiler start-up. Messages are routed back to the WebSocket that sent the request;
 * iopub is broadcast to every connection of the kernel.
 */
import { randomUUID } from 'node:crypto';
import { NIGHTHAWK_KERNEL, type ClientMessage, type ExecutionState, type KernelMessage, type KernelModel, type MessageHeader } from '../../../../shared/index.js';
import { answerFrames, makeMessage, replyType } from './kernel-messages.js';
import { KernelProcess, prepareCompilerSnapshot } from './kernel-process-handle.js';
import { InterruptEscalation } from './interrupt-escalation.js';

export const KERNEL_NAME = NIGHTHAWK_KERNEL;
/** How long a responsive kernel has to handle an interrupt message before SIGINT is sent. */
const SIGINT_GRACE_MS = 50;
/** How long after handing out a spare its replacement starts loading (see scheduleRefill). */
const SPARE_REFILL_DELAY_MS = 2000;
/** How long after a server without a pool starts it builds its kernels' compiler snapshot. */
const SNAPSHOT_AHEAD_DELAY_MS = 1000;
/** What a request still running when a client restarted the kernel is answered with (ename KernelRestarted). */
const RESTART_REQUESTED = 'The kernel was restarted at a client\'s request before this request finished: its variables and Session state are lost.';

/** Why a kernel's process is replaced (Kernel.restart): it decides what clients are told. */
export type RestartCause = { by: 'client' } | { by: 'control' } | { by: 'exit'; code: number | null; reason: string | undefined };

export interface KernelManagerOptions {
  /** Working directory of kernel processes: cells resolve imports (and `nighthawk-ts`) from here. */
  cwd: string;
  hostModule?: string;
  dataDir?: string;
  /** Pre-warmed processes kept ready; 0 disables the pool. */
  spareKernels?: number;
}

export type Deliver = (msg: KernelMessage<object>) => void;

export class Kernel {
  readonly id = randomUUID();
  readonly name = KERNEL_NAME;
  lastActivity = new Date().toISOString();
  executionState: ExecutionState = 'starting';
  private readonly connections = new Map<string, Deliver>();
  private process: KernelProcess;
  /** msg_id of the execute request running in the kernel, from iopub execute_input until its idle. */
  private currentExecute: string | undefined;
  private executingAck: string | undefined;
  private pendingSigint: string | undefined;
  private readonly escalation = new InterruptEscalation();
  /** Shell requests sent to the kernel process and not yet finished (idle), by msg_id. */
  private readonly pending = new Map<string, { route: string; header: MessageHeader }>();
  /** The current process has loaded its compiler and host: until then the kernel reads "starting". */
  private warm = false;
  /** The last conversion ahead asked of this kernel (see prepare). */
  prepared: Promise<void> | undefined;
  /** Where the cell to convert ahead comes from, asked again for the process of each restart (see prepareFrom). */
  private firstCell: (() => Promise<string | undefined>) | undefined;

  constructor(
    private readonly manager: KernelManager,
    process: KernelProcess,
  ) {
    this.process = process;
    this.attach(process);
  }

  /** Resolves when the kernel takes requests (they queue in it until its compiler has loaded). */
  get ready(): Promise<void> {
    return this.process.accepting;
  }

  model(): KernelModel {
    return {
      id: this.id,
      name: this.name,
      last_activity: this.lastActivity,
      execution_state: this.executionState,
      connections: this.connections.size,
    };
  }

  /**
   * A new connection is told the kernel's state at once (an iopub status with no parent, as this server announces
   * a kernel that became ready): a client knows the kernel can run code without a kernel_info round trip through
   * the kernel process first. Not while restarting: clients answer that status by reconnecting.
   */
  connect(deliver: Deliver): { route: string; close(): void } {
    const route = randomUUID();
    this.connections.set(route, deliver);
    const state = this.executionState;
    if (state === 'idle' || state === 'busy' || state === 'starting') deliver(makeMessage('iopub', 'status', { execution_state: state }, {}, this.process.session));
    return { route, close: () => this.connections.delete(route) };
  }

  /**
   * Has the kernel convert the cell `source` yields ahead, now and after every restart (the notebook's first code
   * cell, read again each time); resolves once the current process did, or had nothing to convert.
   */
  async prepareFrom(source: () => Promise<string | undefined>): Promise<void> {
    this.firstCell = source;
    const process = this.process;
    const code = await source().catch(() => undefined);
    if (code !== undefined && this.process === process) await this.prepare(code);
  }

  /**
   * Has the kernel convert `code` ahead (see ToKernel 'prepare'); resolves once it did, or once its process
   * exited (a restart's new process was not asked).
   */
  private prepare(code: string): Promise<void> {
    const process = this.process;
    if (process.exited) return Promise.resolve();
    return (this.prepared = new Promise<void>((resolve) => {
      const done = (): void => {
        process.onPrepared = () => {};
        process.child.off('exit', done);
        resolve();
      };
      process.onPrepared = done;
      process.child.once('exit', done);
      process.send({ kind: 'prepare', code });
    }));
  }

  /** A validated client message from connection `route`. Control requests are handled here. */
  receive(msg: ClientMessage, route: string): void {
    this.lastActivity = new Date().toISOString();
    const type = msg.header.msg_type;
    if (type === 'interrupt_request') {
      this.interrupt();
      this.answerHere(msg, route, { status: 'ok' });
      return;
    }
    if (type === 'shutdown_request') {
      const restart = msg.content['restart'] === true;
      this.answerHere(msg, route, { status: 'ok', restart });
      if (restart) void this.restart({ by: 'control' }).catch(() => {});
      else void this.manager.shutdown(this.id);
      return;
    }
    if (msg.channel === 'shell') this.pending.set(msg.header.msg_id, { route, header: msg.header });
    this.process.send({ kind: 'request', route, msg });
  }

  /**
   * A control request the server answers itself, framed as a kernel frames it (answerFrames): without the idle,
   * a client's request never completes, or the restart or shutdown that follows cancels it. Not tracked: the
   * kernel's own execution state is unchanged by them.
   */
  private answerHere(msg: ClientMessage, route: string, content: object): void {
    const { busy, reply, idle } = answerFrames(msg, content, this.process.session);
    this.broadcast(busy);
    this.deliver(route, reply);
    this.broadcast(idle);
  }

  /**
   * Interrupts the running execute request. The message stops it while it awaits. If the kernel does not
   * handle the message within SIGINT_GRACE_MS after reporting the cell executing, it is busy in synchronous
   * code and SIGINT (vm breakOnSigint) stops it; before that report a signal would be lost, and once the
   * message is handled a signal could hit the next cell.
   */
  interrupt(): void {
    const target = this.currentExecute;
    if (this.process.exited) return;
    // Also with no cell running: a timer callback may be looping; an unhandled interrupt escalates.
    const stuck = this.process;
    this.escalation.begin(stuck, () => stuck.kill());
    if (target === undefined) {
      this.process.send({ kind: 'interrupt', msgId: '' });
      return;
    }
    this.pendingSigint = target;
    this.process.send({ kind: 'interrupt', msgId: target });
    if (this.executingAck === target) this.armSigint(target);
  }

  private armSigint(target: string): void {
    const process = this.process;
    setTimeout(() => {
      if (this.pendingSigint !== target || this.process !== process) return;
      this.pendingSigint = undefined;
      process.child.kill('SIGINT');
    }, SIGINT_GRACE_MS).unref();
  }

  /**
   * Replaces the process, for one of three causes, each announced as Jupyter does:
   * - `client` (REST): jupyter_server sends `restarting` only when its restarter revives a kernel, and
   *   @jupyterlab/services answers that status by reconnecting on its own, which would race the reconnect of a
   *   client's own restart (a kernel_info sent on a socket it then drops). So the new process is announced as a
   *   fresh kernel announces itself, `starting`, and requests still in flight (another client's running cell)
   *   are answered as ended by the restart, since no `restarting` tells their clients to give up on them.
   * - `exit`: the process died (a cell's process.exit, the interrupt escalation's kill); the requests in flight
   *   are answered with the exit's code or reason, then `restarting`, as jupyter_server's restarter announces.
   * - `control`: a control-channel shutdown_request with restart; `restarting`.
   */
  async restart(cause: RestartCause): Promise<void> {
    const old = this.process;
    old.onExit = () => {};
    old.kill();
    this.escalation.clear();
    this.executionState = 'restarting';
    this.currentExecute = this.executingAck = this.pendingSigint = undefined;
    if (cause.by === 'client') this.failPending(old.session, null, RESTART_REQUESTED);
    else {
      if (cause.by === 'exit') this.failPending(old.session, cause.code, cause.reason);
      this.broadcast(makeMessage('iopub', 'status', { execution_state: 'restarting' }, {}, old.session));
    }
    this.pending.clear();
    this.process = this.manager.takeProcess();
    this.executionState = 'starting';
    if (cause.by === 'client') this.broadcast(makeMessage('iopub', 'status', { execution_state: 'starting' }, {}, this.process.session));
    this.attach(this.process);
    if (this.firstCell) void this.prepareFrom(this.firstCell);
    await this.process.accepting;
  }

  dispose(): void {
    this.process.onExit = () => {};
    this.process.kill();
    this.executionState = 'dead';
    this.broadcast(makeMessage('iopub', 'status', { execution_state: 'dead' }, {}, this.process.session));
    this.connections.clear();
  }

  private attach(process: KernelProcess): void {
    this.warm = false;
    process.onExecuting = (msgId) => {
      this.executingAck = msgId;
      if (this.pendingSigint === msgId) this.armSigint(msgId);
    };
    process.onInterruptHandled = (msgId) => {
      this.escalation.handled(process);
      if (this.pendingSigint === msgId) this.pendingSigint = undefined;
    };
    process.onMessage = (route, msg) => {
      if (msg.channel === 'iopub') this.track(msg);
      if (route === null) this.broadcast(msg);
      else this.deliver(route, msg);
      // A cold process answers kernel_info before it can run code. Clients need that request's idle (their
      // request is done only then), but it must not read as "can run code": "starting" follows at once and
      // holds until the process is ready.
      if (!this.warm && msg.channel === 'iopub' && msg.header.msg_type === 'status' && (msg.content as { execution_state?: unknown }).execution_state === 'idle') {
        const starting = makeMessage('iopub', 'status', { execution_state: 'starting' }, {}, process.session);
        this.track(starting);
        this.broadcast(starting);
      }
    };
    process.onExit = (code) => {
      // A cell that ends the process (process.exit) loses its state; restart like Jupyter's restarter, and
      // answer the requests that were in flight so no client waits forever.
      if (this.executionState === 'dead') return;
      // The reason is read before restart() clears the escalation that may have caused this exit.
      void this.restart({ by: 'exit', code, reason: this.escalation.exitReason(process) }).catch(() => {
        this.executionState = 'dead';
      });
    };
    void process.ready.then(
      () => {
        if (this.process !== process) return;
        this.warm = true;
        if (this.executionState !== 'starting') return;
        this.executionState = 'idle';
        this.broadcast(makeMessage('iopub', 'status', { execution_state: 'idle' }, {}, process.session));
      },
      () => {
        if (this.process === process) this.executionState = 'dead';
      },
    );
  }

  private track(msg: KernelMessage<object>): void {
    const parentId = (msg.parent_header as { msg_id?: string }).msg_id;
    if (msg.header.msg_type === 'execute_input') this.currentExecute = parentId;
    if (msg.header.msg_type !== 'status') return;
    this.executionState = (msg.content as { execution_state: ExecutionState }).execution_state;
    if (this.executionState === 'idle' && parentId !== undefined) this.pending.delete(parentId);
    if (this.executionState === 'idle' && parentId !== undefined && parentId === this.currentExecute) {
      this.currentExecute = this.executingAck = this.pendingSigint = undefined;
    }
  }

  private failPending(session: string, code: number | null, reason?: string): void {
    const evalue = reason ?? `The kernel process exited (code ${code}) and is restarting; its state is lost.`;
    const ename = reason ? 'KernelRestarted' : 'KernelDied';
    const content = { status: 'error', ename, evalue, traceback: [`${ename}: ${evalue}`] };
    for (const { route, header } of this.pending.values()) {
      this.broadcast(makeMessage('iopub', 'error', { ename: content.ename, evalue, traceback: content.traceback }, header, session));
      this.deliver(route, makeMessage('shell', replyType(header.msg_type), { ...content, execution_count: 0 }, header, session));
      this.broadcast(makeMessage('iopub', 'status', { execution_state: 'idle' }, header, session));
    }
    this.pending.clear();
  }

  private deliver(route: string, msg: KernelMessage<object>): void {
    this.connections.get(route)?.(msg);
  }

  private broadcast(msg: KernelMessage<object>): void {
    for (const deliver of this.connections.values()) deliver(msg);
  }
}

export class KernelManager {
  private readonly kernels = new Map<string, Kernel>();
  private readonly spares: KernelProcess[] = [];
  private closed = false;
  /** A refill waiting out SPARE_REFILL_DELAY_MS after a hand-out, and its promise for waitForSpare. */
  private refillTimer: ReturnType<typeof setTimeout> | undefined;
  private refilled: Promise<void> | undefined;
  private refillDone: (() => void) | undefined;

  constructor(private readonly options: KernelManagerOptions) {
    this.fillSpares();
    // Without a pool every kernel starts cold with someone waiting: the compiler snapshot they start from is
    // built now (in the background, after the server's own start), not by the first kernel that misses it.
    if ((options.spareKernels ?? 1) === 0) setTimeout(() => void prepareCompilerSnapshot(options.cwd), SNAPSHOT_AHEAD_DELAY_MS).unref();
  }

  list(): Kernel[] {
    return [...this.kernels.values()];
  }

  get(id: string): Kernel | undefined {
    return this.kernels.get(id);
  }

  async start(): Promise<Kernel> {
    const kernel = new Kernel(this, this.takeProcess());
    this.kernels.set(kernel.id, kernel);
    try {
      await kernel.ready;
    } catch (error) {
      this.kernels.delete(kernel.id);
      kernel.dispose();
      throw error;
    }
    return kernel;
  }

  async shutdown(id: string): Promise<boolean> {
    const kernel = this.kernels.get(id);
    if (!kernel) return false;
    this.kernels.delete(id);
    kernel.dispose();
    return true;
  }

  /** Resolves when a spare process is warm (immediately when the pool is disabled). */
  async waitForSpare(): Promise<void> {
    if (this.refilled) await this.refilled;
    const spare = this.spares.find((p) => !p.exited);
    if (spare) await spare.ready;
  }

  /** A ready spare when there is one, otherwise a fresh process. */
  takeProcess(): KernelProcess {
    const index = this.spares.findIndex((p) => !p.exited);
    // Spares are warmed in order, so the first live one is the closest to ready.
    const process = index >= 0 ? this.spares.splice(index, 1)[0]! : new KernelProcess({ ...this.options, eager: true });
    this.scheduleRefill();
    return process;
  }

  /**
   * A new spare loads the compiler (seconds of CPU): started at once, it competes with the kernel just handed
   * out, whose first cells are what the person is waiting for. It starts a little later instead.
   */
  private scheduleRefill(): void {
    if (this.refillTimer || this.closed) return;
    this.refilled = new Promise<void>((resolve) => (this.refillDone = resolve));
    this.refillTimer = setTimeout(() => {
      this.refillTimer = undefined;
      this.fillSpares();
      this.endRefill();
    }, SPARE_REFILL_DELAY_MS);
    this.refillTimer.unref?.();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.refillTimer);
    this.refillTimer = undefined;
    this.endRefill();
    for (const id of [...this.kernels.keys()]) await this.shutdown(id);
    for (const spare of this.spares.splice(0)) spare.kill();
  }

  private endRefill(): void {
    this.refilled = undefined;
    this.refillDone?.();
    this.refillDone = undefined;
  }

  private fillSpares(): void {
    if (this.closed) return;
    const wanted = this.options.spareKernels ?? 1;
    while (this.spares.length < wanted) {
      const spare = new KernelProcess(this.options);
      spare.onExit = () => {
        const i = this.spares.indexOf(spare);
        if (i >= 0) this.spares.splice(i, 1);
      };
      this.spares.push(spare);
    }
  }
}
