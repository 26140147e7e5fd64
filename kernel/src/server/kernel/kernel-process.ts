/**
 * Entry point of one kernel process, forked by the server with an IPC channel. It owns the cell compiler,
 * the host (the Session, later) and the live library instance cells import. SIGINT interrupts the running
 * cell (synchronous code through vm's breakOnSigint, awaiting code through the compiler's interrupt).
 *
 * argv[2] is JSON `KernelProcessConfig`.
 */
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import type { ClientMessage } from '../../../../shared/index.js';
import type { CellCompiler, SourceTransform } from './cell-compiler.js';
import { installCodeCache, saveCodeCache } from './code-cache.js';
import type { KernelHostFactory } from './kernel-host.js';
import { noopKernelHost } from './kernel-host.js';
import type { FromKernel, ToKernel } from './kernel-messages.js';
import { KernelRuntime } from './kernel-runtime.js';
import { createTslabCompiler, describeEscapedError, warmUpWhenIdle, type TslabCompiler } from './tslab-compiler.js';
import { notOperatorCode, refuseInteriorControl } from '../../harness/index.js';
import { startInterruptWatchdog } from './interrupt-watchdog.js';
import { holdSigint } from './sigint-hold.js';

export interface KernelProcessConfig {
  session: string;
  /**
   * Module that may export `createKernelHost: KernelHostFactory` and `transformCell: SourceTransform`.
   * A bare specifier (e.g. `nighthawk-ts/...`) or a path; imported so the host shares cells' instances.
   */
  hostModule?: string;
  dataDir?: string;
  /** File descriptor of the pipe the interrupt watchdog thread reads (see interrupt-watchdog.ts). */
  watchdogFd?: number;
  /**
   * A client waits for this process (a session's cold start or a restart, not a spare): loading starts as soon
   * as it takes messages, not once the client's first kernel_info arrives (that reply then waits for the load).
   */
  eager?: boolean;
}

// Taken before the library loads: its effect audit then refuses `process.send` to model code (a forged message
// would reach the server as this kernel's), while the kernel's own messages, sent from within runs too (a
// cell's output while its SessionFunction runs), go through this reference.
const send = process.send?.bind(process);

function post(message: FromKernel): void {
  send?.(message);
}

async function loadHostModule(specifier: string | undefined): Promise<{ factory: KernelHostFactory; transform?: SourceTransform }> {
  if (!specifier) return { factory: noopKernelHost };
  const url = specifier.startsWith('.') || path.isAbsolute(specifier) ? pathToFileURL(path.resolve(specifier)).href : specifier;
  const mod = (await import(url)) as { createKernelHost?: KernelHostFactory; transformCell?: SourceTransform };
  return { factory: mod.createKernelHost ?? noopKernelHost, transform: mod.transformCell };
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '{}') as KernelProcessConfig;
  if (!send) throw new Error('kernel-process must be forked with an IPC channel');
  // Before anything can load TypeScript, so every compiler this process loads comes from (or fills) the cache.
  installCodeCache();
  if (config.watchdogFd !== undefined) startInterruptWatchdog(config.watchdogFd);
  // The 'interrupt' message (naming its cell) stops awaiting cells. SIGINT only breaks synchronous cell code
  // (vm breakOnSigint): the server sends it when this process reported the cell executing but did not handle
  // the message, i.e. it is busy in synchronous code. Elsewhere the hold keeps SIGINT from ending us.
  let runtime: KernelRuntime | undefined;
  holdSigint();
  process.on('disconnect', () => process.exit(0));
  const pending: Array<{ msg: ClientMessage; route: string }> = [];
  /** Someone sent this process a message: it is in use, so further warm-up rounds would only delay them. */
  let contacted = false;
  let settleLoad!: () => void;
  const loadSettled = new Promise<void>((resolve) => (settleLoad = resolve));
  process.on('message', (message: ToKernel) => {
    // From the server through the event loop only; a model reaching this listener is refused (KernelRuntime.handle).
    if (notOperatorCode()) {
      refuseInteriorControl(`kernel process message ${String((message as { kind?: unknown } | undefined)?.kind)}`);
      return;
    }
    contacted = true;
    if (message.kind === 'interrupt') {
      runtime?.interrupt(message.msgId);
      post({ kind: 'interrupt-handled', msgId: message.msgId });
      return;
    }
    if (message.kind === 'prepare') {
      const { code } = message;
      void loadSettled.then(() =>
        setImmediate(() => {
          try {
            compiler?.diagnose?.(code);
          } catch {
            // Converting is all a prepare does: the cell's own execute meets the same failure and reports it.
          }
          post({ kind: 'prepared' });
        }),
      );
      return;
    }
    if (runtime) handle(message.msg, message.route);
    else pending.push({ msg: message.msg, route: message.route });
  });
  let firstMessage: ((type: string) => void) | undefined;
  const handle = (msg: ClientMessage, route: string): void => {
    runtime!.handle(msg, route);
    firstMessage?.(msg.header.msg_type);
  };

  // The runtime exists before the compiler and host load, so the first kernel_info is answered at once
  // (cold start); every other request waits in its queue until both are ready.
  let compiler: TslabCompiler | undefined;
  const lazy: CellCompiler = {
    execute: (source, options) => compiler!.execute(source, options),
    complete: (source, pos) => compiler!.complete(source, pos),
    inspect: (source, pos) => compiler!.inspect(source, pos),
    diagnose: (source) => compiler?.diagnose?.(source) ?? [],
    isComplete: (source) => compiler!.isComplete(source),
    rebind: (name, value) => compiler!.rebind(name, value),
    interrupt: () => compiler?.interrupt(),
    close: () => compiler?.close(),
  };
  const rt = new KernelRuntime(lazy, (msg, route) => post({ kind: 'message', route, msg }), config.session, (msgId) =>
    post({ kind: 'executing', msgId }),
  );
  // Loading blocks the event loop for about a second, so it starts only once the first kernel_info is
  // answered (or any other request arrives, or a spare has idled briefly), unless a client is known to wait.
  let begin!: () => void;
  const opened = new Promise<void>((resolve) => (begin = resolve));
  const idle = setTimeout(() => begin(), 250);
  /** A request other than kernel_info arrived before the kernel could run code: it is not warmed further. */
  let asked = false;
  const loading = (async () => {
    await opened;
    clearTimeout(idle);
    // Output capture loads tslab (and its TypeScript): part of the load, not of answering the first kernel_info.
    rt.captureOutput();
    // The host module's files are read while the compiler starts (synchronous CPU work); its transform is
    // bound once it has loaded, before any cell is converted.
    const host = loadHostModule(config.hostModule);
    host.catch(() => {});
    let transform: SourceTransform | undefined;
    compiler = createTslabCompiler({ transform: (source, context) => (transform ? transform(source, context) : { code: source }) });
    // The program is built while the host module's files load, as before conversions were stored, unless a client
    // waits where notebooks were run before: their cells may convert from disk, so it waits until the kernel is idle.
    const deferProgram = (config.eager || asked) && compiler.holdsFirstCells;
    if (!deferProgram) compiler.buildProgram();
    const { factory, transform: hostTransform } = await host;
    transform = hostTransform;
    rt.setHost(await factory(rt, { dataDir: config.dataDir }));
    // A pooled process (nobody waiting yet) also does the first cell's conversion now; a cold kernel with a
    // cell waiting lets that cell do it instead of converting twice, and one started for a client where
    // notebooks were run before leaves it until it is idle: their cells convert from disk meanwhile.
    if (asked || deferProgram) warmUpWhenIdle(compiler, () => rt.idleForMs);
    else {
      compiler.warmUp();
      // A spare nobody has connected to yet keeps converting (one round per turn of the event loop, ~40 ms
      // each), so the first real cell meets an optimized checker; a connection stops it at the next round.
      for (let round = 1; ; round++) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (contacted || !compiler.warmUp(round)) break;
      }
      // A spare nobody contacted opens the program's watchers now (~0.2 s), before 'ready', so they never block
      // it in use; a kernel someone waits for leaves them until after its first cell (tslab-compiler.ts).
      if (!contacted) compiler.openWatchers();
    }
  })();
  // 'ready' goes out before any queued request runs, so the server never sees a cell's busy status first.
  const loaded = loading.then(
    () => post({ kind: 'ready' }),
    (error: unknown) => {
      process.stderr.write(`Kernel start failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
      post({ kind: 'ready' });
      throw error;
    },
  );
  loaded.then(settleLoad, settleLoad);
  rt.startWhen(loaded);
  runtime = rt;
  firstMessage = (type) => {
    if (type === 'kernel_info_request') setImmediate(begin);
    else {
      asked = true;
      begin();
    }
  };
  for (const { msg, route } of pending.splice(0)) handle(msg, route);
  post({ kind: 'accepting' });
  // After the turn that sends 'accepting', so the server learns it before the load blocks this process.
  if (config.eager) setImmediate(begin);
  await loaded.catch(() => {});
  // The code cache is written once the process has compiled what a first cell needs: after the warm-up, or
  // when a cell was waiting, a little after it (writing blocks for ~0.1 s, once per machine and Node version).
  if (asked) setTimeout(() => saveCodeCache(), 3000).unref();
  else setImmediate(() => saveCodeCache());
  // Errors that escape cells (a rejected promise nobody awaited) must not kill the Session.
  process.on('unhandledRejection', (reason) => {
    process.stderr.write(`Unhandled rejection: ${describeEscapedError(reason)}\n`);
  });
  process.on('uncaughtException', (error) => {
    process.stderr.write(`Uncaught exception: ${describeEscapedError(error)}\n`);
  });
}

main().catch((error: unknown) => {
  post({ kind: 'fatal', message: error instanceof Error ? error.stack ?? error.message : String(error) });
  process.exit(1);
});
