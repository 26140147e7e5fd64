/**
 * Stops JavaScript that never yields to the event loop, from a thread that still runs: a cell spinning in
 * microtasks (`for (;;) { await null; }`) or a timer callback looping forever blocks the main thread, so
 * neither the interrupt message nor a SIGINT listener can run, and vm's breakOnSigint covers only the
 * synchronous part of a cell. This worker owns its own event loop; when the server writes to the watchdog
 * pipe it opens an inspector session on the main thread's isolate and sends `Runtime.terminateExecution`.
 * V8 unwinds the running JavaScript and resumes the event loop, where the queued interrupt message ends
 * the cell. The session is opened only then, so an idle kernel carries no debugger connection.
 *
 * Measured on Node 20: this keeps the kernel's state for microtask spins and timer-callback loops while no
 * async hook is enabled (the process runs with --no-force-async-hooks-checks). Once AsyncLocalStorage has
 * been used, unwinding skips the promise hooks' bookkeeping and Node aborts; the server then restarts the
 * kernel and says so in the cell's error.
 */
import { Worker } from 'node:worker_threads';

// CommonJS source evaluated in the worker (a file next to this one would not exist in the bundled entry).
const WATCHDOG_SOURCE = `
const { workerData } = require('node:worker_threads');
const inspector = require('node:inspector');
const net = require('node:net');
const line = new net.Socket({ fd: workerData.fd, readable: true, writable: false });
line.on('data', () => {
  const session = new inspector.Session();
  try {
    session.connectToMainThread();
    session.post('Runtime.terminateExecution', () => session.disconnect());
  } catch (error) {
    process.stderr.write('interrupt watchdog: ' + (error && error.message) + '\\n');
  }
});
line.on('error', () => {});
`;

/** Starts the watchdog reading `fd` (a pipe from the server); it never keeps the process alive. */
export function startInterruptWatchdog(fd: number): void {
  const worker = new Worker(WATCHDOG_SOURCE, { eval: true, workerData: { fd }, stdout: false, stderr: false });
  worker.on('error', (error) => process.stderr.write(`interrupt watchdog stopped: ${error.message}\n`));
  worker.unref();
}
