/**
 * A Jupyter kernel over ZeroMQ around the transport-free KernelRuntime. The runtime answers requests in
 * order; this transport adds what only a standalone kernel needs: the wire format and sockets, an early
 * kernel_info reply while the compiler and Session host load (cold start), interrupt (SIGINT, the
 * kernelspec's interrupt_mode "signal", and interrupt_request on control), shutdown and restart, cell history,
 * and the pager payload of `?name` cells.
 */
import { randomUUID } from 'node:crypto';
import type { ClientMessage, KernelMessage, MessageHeader } from '../../../../shared/index.js';
import { codeCacheStale, createTslabCompiler, installCodeCache, isCompleteSource, preloadTslab, saveCodeCache, warmUpWhenIdle, type SourceTransform, type TslabCompiler } from '../kernel/index.js';
import type { KernelHostFactory } from '../kernel/index.js';
import { KERNEL_INFO, KernelRuntime } from '../kernel/index.js';
import { answerFrames, makeMessage } from '../kernel/index.js';
import { readConnectionFile } from './connection-file.js';
import { CellHistory, HistoryRequestSchema } from './cell-history.js';
import { withConsoleCells, type ConsoleCells } from './console-cells.js';
import { loadHostModule, preloadHostDependencies } from './host-module.js';
import { admitMessage, ReplayGuard } from './message-guard.js';
import { decode, encode, Signer } from './wire.js';
import { rateLimitedLog, startSignalWatchdog } from '../kernel/index.js';
import { collectGarbage } from './full-collection.js';
import { bindSockets, type KernelSockets, type RouterName } from './zmq-sockets.js';

export interface ZmqKernelOptions {
  connectionFile: string;
  /** Module exporting `createKernelHost` / `transformCell`; defaults to the Session host of this build. */
  hostModule?: string;
  /** Directory for the Session's ledger; none by default. */
  dataDir?: string;
  /** Called when the kernel is asked to shut down, after the reply left; defaults to `process.exit(0)`. */
  onShutdown?: (restart: boolean) => void;
  /** The compiler and host module, loaded and warmed before this kernel was asked for (a pooled process). */
  prepared?: PreparedCells;
}

/** What a kernel needs before it can run cells, apart from its sockets: the compiler and the host module. */
export interface PreparedCells {
  readonly compiler: TslabCompiler;
  readonly factory: KernelHostFactory;
  /** Notebooks were run here before: the program waits for an idle kernel, their cells may convert from disk. */
  readonly deferProgram: boolean;
}

/**
 * Loads the compiler and the host module (the host module's files are read while the compiler starts), with
 * the host's transform bound before any cell converts. The program is built meanwhile, unless notebooks were
 * run here before (see `deferProgram`).
 */
export async function prepareCells(hostModule: string | undefined): Promise<PreparedCells> {
  installCodeCache();
  const host = loadHostModule(hostModule);
  host.catch(() => {});
  let transform: SourceTransform | undefined;
  const compiler = createTslabCompiler({ transform: (source, context) => (transform ? transform(source, context) : { code: source }) });
  const deferProgram = compiler.holdsFirstCells;
  if (!deferProgram) compiler.buildProgram();
  const { factory, transform: hostTransform } = await host;
  transform = hostTransform;
  return { compiler, factory, deferProgram };
}

export interface ZmqKernel {
  /** Resolves once cells can run (compiler and host loaded); requests that arrive earlier are queued. */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

/** Routing identities travel through the runtime as one string. */
const routeOf = (ids: readonly Buffer[]): string => ids.map((b) => b.toString('base64')).join(',');
const idsOf = (route: string | null): Buffer[] => (route ? route.split(',').map((s) => Buffer.from(s, 'base64')) : []);

interface ExecuteRecord {
  code: string;
  stored: boolean;
}

export async function startZmqKernel(options: ZmqKernelOptions): Promise<ZmqKernel> {
  const info = readConnectionFile(options.connectionFile);
  const signer = new Signer(info.key);
  const replays = new ReplayGuard();
  const log = rateLimitedLog((line) => process.stderr.write(line + '\n'));
  const sockets: KernelSockets = await bindSockets(info);
  const session = randomUUID();
  const history = new CellHistory();
  const executes = new Map<string, ExecuteRecord>();
  const historyRequests = new Map<string, ClientMessage['content']>();
  let runtime: KernelRuntime | undefined;
  let consoleCells: ConsoleCells | undefined;
  let running: MessageHeader | undefined;
  let shuttingDown = false;
  const pending: Array<{ msg: ClientMessage; route: string }> = [];
  // Terminal frontends (jupyter console) ignore update_display_data, so a run display there would stay at
  // its first state. They are the clients that ask is_complete; for their cells the last state of every
  // updated display is printed once more as display_data when the cell ends.
  const terminalSessions = new Set<string>();
  const finalDisplays = new Map<string, Map<string, unknown>>();
  // Cells whose client stopped waiting (a console back at its prompt): their execute_reply would be read as the
  // answer to that client's next request, so it is not sent. The cell's error and idle still go out on iopub.
  const abandoned = new Set<string>();

  const transmit = (msg: KernelMessage<object>, route: string | null): Promise<void> => {
    if (msg.channel === 'iopub') return sockets.send('iopub', encode([Buffer.from(`kernel.${session}.${msg.header.msg_type}`)], msg, signer));
    return sockets.send(msg.channel, encode(idsOf(route), msg, signer));
  };

  const isTerminal = (parent: KernelMessage<object>['parent_header']): boolean =>
    'msg_type' in parent && parent.msg_type === 'execute_request' && terminalSessions.has(parent.session);

  /** Everything the runtime emits passes here: history and pager are filled in on the way out. */
  const deliver = (msg: KernelMessage<object>, route: string | null): void => {
    const type = msg.header.msg_type;
    const parentId = 'msg_id' in msg.parent_header ? msg.parent_header.msg_id : undefined;
    const content = msg.content as Record<string, unknown>;
    if (type === 'status' && msg.parent_header.msg_type === 'execute_request') {
      running = content['execution_state'] === 'busy' ? (msg.parent_header as MessageHeader) : undefined;
    } else if (type === 'execute_input' && parentId) {
      const record = executes.get(parentId);
      if (record?.stored) history.record(content['execution_count'] as number, record.code);
    } else if (type === 'execute_result') {
      const text = (content['data'] as Record<string, unknown>)['text/plain'];
      if (typeof text === 'string') history.setOutput(content['execution_count'] as number, text);
    } else if (type === 'update_display_data' && parentId && isTerminal(msg.parent_header)) {
      const displayId = (content['transient'] as { display_id?: unknown } | undefined)?.display_id;
      if (typeof displayId === 'string') {
        const finals = finalDisplays.get(parentId) ?? new Map<string, unknown>();
        finals.set(displayId, content['data']);
        finalDisplays.set(parentId, finals);
      }
    } else if (type === 'execute_reply' && parentId) {
      executes.delete(parentId);
      if (options.prepared && !collected) collectWhenIdle();
      if (abandoned.delete(parentId)) {
        finalDisplays.delete(parentId);
        return;
      }
      for (const data of finalDisplays.get(parentId)?.values() ?? []) {
        void transmit(makeMessage('iopub', 'display_data', { data, metadata: {} }, msg.parent_header, session), null);
      }
      finalDisplays.delete(parentId);
      const page = consoleCells?.takePage();
      if (page && content['status'] === 'ok') msg = { ...msg, content: { ...content, payload: [page] } };
    } else if (type === 'history_reply' && parentId) {
      const request = HistoryRequestSchema.safeParse(historyRequests.get(parentId) ?? {});
      historyRequests.delete(parentId);
      msg = { ...msg, content: request.success ? { status: 'ok', history: history.query(request.data) } : { status: 'error', ename: 'ValueError', evalue: request.error.message, traceback: [] } };
    }
    void transmit(msg, route);
  };

  /** A request answered here rather than by the runtime, with the busy/idle pair every request gets. */
  const answerHere = (msg: ClientMessage, route: string, content: object): Promise<void> => {
    const { busy, reply, idle } = answerFrames(msg, content, session);
    void transmit(busy, null);
    void transmit(reply, route);
    return transmit(idle, null);
  };

  let closed = false;
  // A prepared kernel's warm-up conversions left garbage (tens of MB) that the first cell's conversion adds to,
  // and nothing a kernel waiting for its next cell allocates would collect it. One full collection once the
  // first cell is done and the kernel idle (~30 ms) brings its resident memory to a cold kernel's.
  let collected = false;
  const collectWhenIdle = (): void => {
    collected = true;
    const attempt = (): void => {
      if (closed) return;
      if (runtime?.idle) collectGarbage();
      else setTimeout(attempt, 500).unref();
    };
    setTimeout(attempt, 200).unref();
  };
  const interruptRunning = (): void => {
    if (running) runtime?.interrupt(running.msg_id);
  };

  const close = async (): Promise<void> => {
    closed = true;
    await sockets.close();
  };

  const dispatch = (msg: ClientMessage, route: string): void => {
    const type = msg.header.msg_type;
    if (type === 'is_complete_request') {
      terminalSessions.add(msg.header.session);
      // jupyter console waits for its own cell synchronously; it is back at a prompt while that cell still
      // runs only because Ctrl+C broke out of the wait without relaying the interrupt (its prompt_toolkit
      // prompt replaces the console's SIGINT handler). The user meant to interrupt: do it now.
      if (running?.session === msg.header.session) {
        abandoned.add(running.msg_id);
        runtime?.interrupt(running.msg_id, { keepQueue: true });
      }
    }
    if (type === 'shutdown_request') {
      if (shuttingDown) return;
      shuttingDown = true;
      const restart = msg.content['restart'] === true;
      void answerHere(msg, route, { status: 'ok', restart })
        .then(close)
        .then(() => (options.onShutdown ?? (() => process.exit(0)))(restart));
      return;
    }
    if (type === 'interrupt_request') {
      interruptRunning();
      void answerHere(msg, route, { status: 'ok' });
      return;
    }
    // Terminal frontends ask on every Enter with a one-second timeout, also while the compiler loads.
    if (!runtime && type === 'is_complete_request') {
      const code = msg.content['code'];
      const r = isCompleteSource(typeof code === 'string' ? code : '');
      void answerHere(msg, route, r.status === 'incomplete' ? { status: 'incomplete', indent: r.indent } : { status: r.status });
      return;
    }
    // jupyter console loads its history at start: transport state, no reason to load the compiler for it.
    if (!runtime && type === 'history_request' && pending.length === 0) {
      const request = HistoryRequestSchema.safeParse(msg.content);
      void answerHere(msg, route, request.success ? { status: 'ok', history: history.query(request.data) } : { status: 'error', ename: 'ValueError', evalue: request.error.message, traceback: [] });
      return;
    }
    if (!runtime && type === 'kernel_info_request' && pending.length === 0) {
      const answered = answerHere(msg, route, { ...KERNEL_INFO });
      void answered.then(() => setImmediate(underNotebookServer ? startLoading : preload));
      return;
    }
    if (type === 'execute_request') {
      const c = msg.content;
      executes.set(msg.header.msg_id, { code: typeof c['code'] === 'string' ? c['code'] : '', stored: c['silent'] !== true && c['store_history'] !== false });
    } else if (type === 'history_request') {
      historyRequests.set(msg.header.msg_id, msg.content);
    }
    if (runtime) runtime.handle(msg, route);
    else {
      pending.push({ msg, route });
      startLoading();
    }
  };

  sockets.receive((name: RouterName, frames: Buffer[]) => {
    const decoded = decode(frames, signer);
    if (decoded.kind !== 'ok') {
      log(`kernel: dropped a ${name} message: ${decoded.kind === 'bad-signature' ? 'invalid signature' : decoded.reason}`);
      return;
    }
    const m = decoded.message;
    if (replays.replayed(m.signature)) {
      log(`kernel: dropped a ${name} message: duplicate signature (replayed)`);
      return;
    }
    const admission = admitMessage(name, m, session);
    if (admission.kind === 'drop') {
      log(`kernel: dropped a ${name} message: ${admission.reason}`);
      return;
    }
    if (admission.kind === 'refuse') {
      const error = { status: 'error', ename: admission.ename, evalue: admission.evalue, traceback: [`${admission.ename}: ${admission.evalue}`] };
      void answerHere({ channel: admission.channel, header: admission.header, parent_header: {}, metadata: {}, content: {} }, routeOf(m.identities), error);
      return;
    }
    dispatch(admission.message, routeOf(m.identities));
  });
  // interrupt_mode "signal": Jupyter sends SIGINT. Synchronous cell code is broken by vm's breakOnSigint; a
  // signal no cell script took stops an awaiting cell. The SIGINT hold (kernel/sigint-hold.ts) keeps the signal
  // from ever ending the process, and code that never yields (a microtask spin, a loop in a timer callback),
  // which never lets that report run, is stopped by the watchdog.
  const watchdog = startSignalWatchdog(() => {
    if (!closed) interruptRunning();
  });

  // Loading the compiler and the Session host blocks the event loop for a second or more (tslab's language
  // service starts synchronously; many seconds on a loaded machine). It starts on the first request that needs
  // them, not on kernel_info or is_complete: jupyter console asks is_complete on the first Enter with a
  // one-second timeout, and a kernel busy loading then would switch the console to its fallback (every line
  // needing a second Enter) for the whole session. The exception: a kernel a Jupyter server started for a
  // session (jupyter_server sets JPY_SESSION_NAME to its path) has no terminal client; it loads right after its
  // first kernel_info reply, so the first cell someone runs there waits only for what is left.
  const underNotebookServer = Boolean(process.env['JPY_SESSION_NAME']);
  let loading: Promise<void> | undefined;
  let signalReady: (result: Promise<void>) => void = () => {};
  const ready = new Promise<void>((resolve) => (signalReady = resolve));
  function startLoading(): void {
    if (loading) return;
    loading = load();
    signalReady(loading);
  }
  // After the first kernel_info reply (so it does not delay that reply), what needs no program loads before
  // anyone asks, in steps short enough for is_complete's one-second timeout: the library's module graph that
  // the Session host imports (~0.3 s in all, at most ~60 ms at a time), then tslab's TypeScript module code
  // (~0.1 s with the code cache). The host module itself and the compiler's program (a second or more in one
  // synchronous step) still wait for a request, as above; a first cell typed by someone then waits only for those.
  let preloading = false;
  /** The preload's `import()` of the library, settled (whatever its outcome) before any cell runs: see load(). */
  let preloaded: Promise<void> | undefined;
  function preload(): void {
    if (preloading || loading || shuttingDown) return;
    preloading = true;
    // The host's own load meets the same failure, and reports it.
    preloaded = preloadHostDependencies(options.hostModule).catch(() => {});
    void preloaded
      .then(() =>
        setImmediate(() => {
          if (loading || shuttingDown) return;
          installCodeCache();
          try {
            preloadTslab();
          } catch {
            // createTslabCompiler meets the same failure when a request needs it, and reports it there.
          }
        }),
      );
  }
  async function load(): Promise<void> {
    const { compiler, factory, deferProgram } = options.prepared ?? (await prepareCells(options.hostModule));
    // A cell's `import` of the library is a require, and Node refuses to require an ES module that an import() is
    // still loading ("not yet fully loaded"): the first cell waits for the preload's, which is done by now unless
    // nothing was left to build (its conversion stored) between the kernel_info reply and that cell.
    await preloaded;
    consoleCells = withConsoleCells(compiler);
    const rt = new KernelRuntime(consoleCells.compiler, deliver, session, writeCodeCache);
    rt.setHost(await factory(rt, { dataDir: options.dataDir }));
    rt.captureOutput();
    // With nothing asked yet, the first cell's conversion is done now, unless notebooks were run here before
    // (their cells convert from disk: the program is built once the kernel is idle); a waiting cell does it itself.
    // A prepared kernel did it (and saved the code cache) before it was handed out.
    if (!options.prepared) {
      if (pending.length === 0 && !deferProgram) {
        compiler.warmUp();
        setImmediate(writeCodeCache);
      } else warmUpWhenIdle(compiler, () => rt.idleForMs);
    }
    // No status of its own here: strict clients (jupyter_kernel_test) take every iopub status as an answer to
    // their requests, and the Jupyter server in front reports "starting" until its kernel_info round trip.
    runtime = rt;
    watchdog.ready();
    for (const { msg, route } of pending.splice(0)) rt.handle(msg, route);
  }
  /**
   * The V8 code cache (see code-cache.ts) is written once per machine and Node version, after the compiler did
   * what a first cell needs: at the warm-up, or as the first cell's code starts, its conversion done. Not after
   * the reply: clients that start a kernel for one cell (nbconvert, papermill, a benchmark) kill it at once, and
   * the cache would never be written.
   */
  let cacheWritten = false;
  function writeCodeCache(): void {
    if (cacheWritten) return;
    cacheWritten = true;
    if (codeCacheStale()) saveCodeCache();
  }
  // A prepared kernel has nothing slow left to load: its runtime starts now, before the first request.
  if (options.prepared) startLoading();
  return { ready, close };
}
