/**
 * Stops JavaScript that never yields to the event loop, from a thread that still runs: a cell spinning in
 * microtasks (`for (;;) { await null; }`) or a timer callback looping forever blocks the main thread, so
 * neither the interrupt message nor a SIGINT listener can run, and vm's breakOnSigint covers only the
 * synchronous part of a cell. This worker owns its own event loop; when the server writes to the watchdog
 * pipe it opens an inspector session on the main thread's isolate and sends `Runtime.terminateExecution`,
 * unless the kernel's own work runs (kernel-work.ts: a conversion, which ends by itself).
 * V8 unwinds the running JavaScript and resumes the event loop, where the queued interrupt message ends
 * the cell. The session is opened only then, so an idle kernel carries no debugger connection.
 *
 * Measured on Node 20 (test/server/interrupt-loops.test.ts, test/zmq/interrupt-loops.test.ts): microtask
 * spins and timer-callback loops stop with the kernel's state kept, in forked kernels and in the ZeroMQ
 * kernel with its Session host; both run with --no-force-async-hooks-checks. In some states with async hooks
 * enabled (a fresh kernel whose cell just used AsyncLocalStorage) unwinding aborts Node instead; the server
 * then restarts the kernel and the waiting cells' KernelRestarted error says so (interrupt-escalation.ts).
 */
import { MessageChannel, Worker } from 'node:worker_threads';
import { holdSigint } from './sigint-hold.js';
import { kernelWorkBuffer } from './kernel-work.js';

// CommonJS source evaluated in the worker (a file next to this one would not exist in the bundled entry).
// Two triggers: a pipe from the server (forked kernels), or a SIGINT no cell script took (the ZeroMQ kernel,
// which jupyter_client interrupts with killpg), reported by the SIGINT hold (sigint-hold.ts): the main thread
// is stopped only if, STALL_MS later, neither its handling of that report nor its heartbeat has run.
const WATCHDOG_SOURCE = `
const { workerData } = require('node:worker_threads');
const inspector = require('node:inspector');
const net = require('node:net');
// [0] non-zero while the kernel's own work runs (kernel-work.ts): it ends by itself, and stopping it would not.
// [1] the terminations made, counted before each: the main thread reads it once it runs again.
const kernelWork = new Int32Array(workerData.kernelWork);
const terminate = () => {
  if (Atomics.load(kernelWork, 0) !== 0) return;
  Atomics.add(kernelWork, 1, 1);
  const session = new inspector.Session();
  try {
    session.connectToMainThread();
    session.post('Runtime.terminateExecution', () => session.disconnect());
  } catch (error) {
    process.stderr.write('interrupt watchdog: ' + (error && error.message) + '\\n');
  }
};
if (workerData.fd !== undefined) {
  const line = new net.Socket({ fd: workerData.fd, readable: true, writable: false });
  line.on('data', terminate);
  line.on('error', () => {});
} else {
  const beat = new Float64Array(workerData.heartbeat);
  workerData.signals.on('message', () => {
    const seen = beat[0];
    const handled = beat[2];
    setTimeout(() => {
      // Stuck: loaded, the SIGINT report has not run, and its event loop has not turned since the signal.
      if (beat[1] === 1 && beat[2] === handled && beat[0] === seen) terminate();
    }, workerData.stallMs);
  });
}
`;

/**
 * How long the main thread's heartbeat must stand still after a SIGINT before its JavaScript is stopped. A
 * starved but healthy kernel on a loaded machine can miss 1.5 s; stopping it then may abort Node (see above).
 */
export const STALL_MS = 3_000;

/** Starts the watchdog reading `fd` (a pipe from the server); it never keeps the process alive. */
export function startInterruptWatchdog(fd: number): void {
  const worker = new Worker(WATCHDOG_SOURCE, { eval: true, workerData: { fd, kernelWork: kernelWorkBuffer }, stdout: false, stderr: false });
  worker.on('error', (error) => process.stderr.write(`interrupt watchdog stopped: ${error.message}\n`));
  worker.unref();
}

/**
 * Holds SIGINT for this process (sigint-hold.ts) and starts the watchdog for a kernel interrupted by signal.
 * `onSignal` runs for each SIGINT no cell's synchronous code took. Returns `ready()`, to call once the compiler
 * has loaded: before that a still heartbeat is the load itself, not a stuck cell.
 */
export function startSignalWatchdog(onSignal: () => void): { ready(): void } {
  const heartbeat = new SharedArrayBuffer(24);
  const beat = new Float64Array(heartbeat);
  const tick = (): void => {
    beat[0] = Date.now();
  };
  tick();
  setInterval(tick, 100).unref();
  const { port1, port2 } = new MessageChannel();
  // A main thread that handles the report is not stuck, however slow its timers are under load.
  holdSigint(() => {
    beat[2] = (beat[2] ?? 0) + 1;
    onSignal();
  }, [port1]);
  const worker = new Worker(WATCHDOG_SOURCE, { eval: true, workerData: { heartbeat, signals: port2, stallMs: STALL_MS, kernelWork: kernelWorkBuffer }, transferList: [port2], stdout: false, stderr: false });
  worker.on('error', (error) => process.stderr.write(`interrupt watchdog stopped: ${error.message}\n`));
  worker.unref();
  return {
    ready: () => {
      beat[1] = 1;
    },
  };
}
