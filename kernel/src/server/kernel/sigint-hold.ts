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
 * The holder nests several scripts, so that while an inner one starts again after a signal the outer ones still hold.
 * The process must not listen for SIGINT itself: a listener makes libuv install its own handler in place of the
 * watchdog's (see `sigintTakenOver`).
 */
import { Worker, type MessagePort } from 'node:worker_threads';

// CommonJS source evaluated in the worker (a file next to this one would not exist in the bundled entry).
// The innermost script waits on a word only `rearm` changes, so only a SIGINT ends it early. A SIGINT goes to the
// newest script: the level it interrupts is reported and started again by the level around it, which still holds
// the watchdog. Only a run of signals that each land in the next level's restart (one per level) could reach the
// outermost, whose restart is the one moment nothing holds; a signal there would end the process.
const HOLD_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const vm = require('node:vm');
const LEVELS = 4;
const word = new Int32Array(workerData.word);
const ports = workerData.ports;
let signals = 0;
const report = () => {
  parentPort.postMessage(++signals);
  for (const port of ports) port.postMessage(signals);
};
const interrupted = (error) => Boolean(error) && error.code === 'ERR_SCRIPT_EXECUTION_INTERRUPTED';
const levels = [];
for (let i = 0; i < LEVELS; i++) {
  const body = i === LEVELS - 1 ? 'Atomics.wait(nighthawkSigintHold.word, 0, nighthawkSigintHold.generation)' : 'nighthawkSigintHold.hold(' + (i + 1) + ')';
  levels.push(new vm.Script(body, { filename: 'sigint-hold-' + i }));
}
globalThis.nighthawkSigintHold = {
  word,
  generation: 0,
  // Runs level i until rearm moves the word on (its wait then returns and every level unwinds normally).
  hold(i) {
    if (i === 1) parentPort.postMessage('armed');
    for (;;) {
      try {
        levels[i].runInThisContext({ breakOnSigint: true });
        return;
      } catch (error) {
        if (!interrupted(error)) throw error;
        report();
      }
    }
  },
};
for (;;) {
  nighthawkSigintHold.generation = Atomics.load(word, 0);
  nighthawkSigintHold.hold(0);
}
`;

export interface SigintHold {
  /**
   * Installs the watchdog's handler again: an operator's own SIGINT listener replaced it, and removing the last
   * such listener left the default (fatal) action. Called by the hold itself when that happens.
   */
  rearm(): void;
  /**
   * Resolves once the watchdog's handler is installed: at once while it is, otherwise when the holding thread has
   * (re)started its script (after starting, or after an operator's last SIGINT listener went away).
   */
  armed(): Promise<void>;
}

/**
 * Starts the holding thread. `onSignal` runs on this thread's event loop for each SIGINT that no cell's
 * synchronous code took; `ports` receive the same count (the interrupt watchdog's stall check). The thread
 * never keeps the process alive.
 */
export function holdSigint(onSignal: () => void = () => {}, ports: MessagePort[] = []): SigintHold {
  const word = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(HOLD_SOURCE, { eval: true, workerData: { word: word.buffer, ports }, transferList: ports, stdout: false, stderr: false });
  let isArmed = false;
  let waiting: (() => void)[] = [];
  worker.on('message', (message: number | 'armed') => {
    if (message !== 'armed') return onSignal();
    isArmed = true;
    worker.unref();
    const resolved = waiting;
    waiting = [];
    for (const resolve of resolved) resolve();
  });
  worker.on('error', (error) => process.stderr.write(`SIGINT hold stopped (a SIGINT may now end this process): ${error.message}\n`));
  worker.unref();
  // A new generation, so a rearm that lands while no level waits still unwinds them at the next wait.
  const rearm = (): void => {
    Atomics.add(word, 0, 1);
    Atomics.notify(word, 0);
  };
  // A listener makes libuv install its own handler, and removing the last one leaves the default action.
  process.on('newListener', (event: unknown) => {
    if (event === 'SIGINT') isArmed = false;
  });
  // After the cell's synchronous part: the handler is installed only when no script holds the watchdog.
  process.on('removeListener', (event: unknown) => {
    if (event === 'SIGINT' && process.listenerCount('SIGINT') === 0) setImmediate(rearm);
  });
  const armed = (): Promise<void> => {
    if (isArmed) return Promise.resolve();
    worker.ref(); // someone waits for it, until it answers
    return new Promise((resolve) => waiting.push(resolve));
  };
  return { rearm, armed };
}

/**
 * Whether someone listens for SIGINT in this process (an operator's cell may): then the signal is theirs and
 * a cell runs without `breakOnSigint`, whose listener juggling would leave SIGINT fatal around the cell.
 */
export function sigintTakenOver(): boolean {
  return process.listenerCount('SIGINT') > 0;
}
