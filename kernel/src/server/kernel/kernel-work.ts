/**
 * Marks the kernel's own synchronous work (converting a cell, building the compiler's program, the host's cell
 * transform): the interrupt watchdog (interrupt-watchdog.ts) never terminates JavaScript while it runs. V8's
 * terminateExecution unwinds everything on the stack without running `catch` or `finally`, so stopping a
 * conversion left the cell's promise unsettled forever (the kernel busy for good, every later cell queued) and
 * could leave the compiler half-built. That work always ends on its own; the interrupt message queued behind it
 * then reaches the cell.
 *
 * The watchdog also counts the terminations it makes. One drops every microtask still queued when it lands, so a
 * cell whose continuation was queued then never settles by itself (KernelRuntime.interrupt ends it instead).
 */
const shared = new Int32Array(new SharedArrayBuffer(8));
const DEPTH = 0;
const TERMINATIONS = 1;

/** Shared with the watchdog thread: [0] non-zero while kernel work runs, [1] the terminations it made. */
export const kernelWorkBuffer: SharedArrayBuffer = shared.buffer as SharedArrayBuffer;

/** How many times the watchdog stopped this thread's JavaScript so far. */
export function watchdogTerminations(): number {
  return Atomics.load(shared, TERMINATIONS);
}

/** Starts a stretch of kernel work; the returned function ends it (once, however often it is called). */
export function beginKernelWork(): () => void {
  Atomics.add(shared, DEPTH, 1);
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    Atomics.sub(shared, DEPTH, 1);
  };
}

export function duringKernelWork<T>(work: () => T): T {
  const end = beginKernelWork();
  try {
    return work();
  } finally {
    end();
  }
}
