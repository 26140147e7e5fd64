/**
 * Keeps a SIGINT from ever ending a kernel process, including while a cell runs.
 *
 * Node's `vm` `breakOnSigint` (how a synchronous cell is interrupted) is fatal around every cell when the process
 * also listens for SIGINT: it removes the listeners (the signal's disposition becomes the default), installs its
 * watchdog's handler, runs the script, installs a handler that re-raises SIGINT with the default action, and only
 * then adds the listeners back. A client that interrupts as soon as it sees a cell's first output (Jupyter's own
 * clients and tests do) lands in those windows often: measured on Node 20, the interrupt of
 * `console.log(…); await new Promise(() => {})` killed the kernel about one time in three.
 *
 * Node's SIGINT watchdog is one per process and counts its users: only the first start and the last stop touch
 * the signal's disposition, and a signal goes to the newest registered script, no other. So a thread that always
 * holds a `breakOnSigint` script keeps the watchdog's handler installed for the life of the process: a cell's
 * synchronous code (the newest script while it runs) is interrupted as before, with no window around it, and a
 * signal that arrives when no cell script runs wakes the holding thread, which reports it to the main thread.
 * The holder nests two scripts, so that while the inner one re-enters after a signal the outer one still holds.
 * The process must not listen for SIGINT itself: a listener makes libuv install its own handler in place of the
 * watchdog's (see `sigintTakenOver`).
 */
import { Worker, type MessagePort } from 'node:worker_threads';

// CommonJS source evaluated in the worker (a file next to this one would not exist in the bundled entry).
// The inner script waits on a word nobody changes except `rearm` (below), so only a SIGINT ends it early.
const HOLD_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const vm = require('node:vm');
const word = new Int32Array(workerData.word);
const ports = workerData.ports;
const report = (n) => {
  parentPort.postMessage(n);
  for (const port of ports) port.postMessage(n);
};
const interrupted = (error) => Boolean(error) && error.code === 'ERR_SCRIPT_EXECUTION_INTERRUPTED';
const inner = new vm.Script('Atomics.wait(nighthawkSigintHold.word, 0, 0)', { filename: 'sigint-hold-inner' });
let signals = 0;
globalThis.nighthawkSigintHold = {
  word,
  // true: a SIGINT came; false: rearm woke the wait, so the outer script ends and starts again.
  wait() {
    try {
      inner.runInThisContext({ breakOnSigint: true });
      return false;
    } catch (error) {
      if (interrupted(error)) return true;
      throw error;
    }
  },
  report() {
    report(++signals);
  },
};
const outer = new vm.Script('while (nighthawkSigintHold.wait()) nighthawkSigintHold.report();', { filename: 'sigint-hold-outer' });
for (;;) {
  try {
    outer.runInThisContext({ breakOnSigint: true });
  } catch (error) {
    if (!interrupted(error)) throw error;
    report(++signals);
  }
}
`;

export interface SigintHold {
  /**
   * Installs the watchdog's handler again: an operator's own SIGINT listener replaced it, and removing the last
   * such listener left the default (fatal) action. Called by the hold itself when that happens.
   */
  rearm(): void;
}

/**
 * Starts the holding thread. `onSignal` runs on this thread's event loop for each SIGINT that no cell's
 * synchronous code took; `ports` receive the same count (the interrupt watchdog's stall check). The thread
 * never keeps the process alive.
 */
export function holdSigint(onSignal: () => void = () => {}, ports: MessagePort[] = []): SigintHold {
  const word = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(HOLD_SOURCE, { eval: true, workerData: { word: word.buffer, ports }, transferList: ports, stdout: false, stderr: false });
  worker.on('message', onSignal);
  worker.on('error', (error) => process.stderr.write(`SIGINT hold stopped (a SIGINT may now end this process): ${error.message}\n`));
  worker.unref();
  const rearm = (): void => {
    Atomics.notify(word, 0);
  };
  // After the cell's synchronous part: the handler is installed only when no script holds the watchdog.
  process.on('removeListener', (event: unknown) => {
    if (event === 'SIGINT' && process.listenerCount('SIGINT') === 0) setImmediate(rearm);
  });
  return { rearm };
}

/**
 * Whether someone listens for SIGINT in this process (an operator's cell may): then the signal is theirs and
 * a cell runs without `breakOnSigint`, whose listener juggling would leave SIGINT fatal around the cell.
 */
export function sigintTakenOver(): boolean {
  return process.listenerCount('SIGINT') > 0;
}
