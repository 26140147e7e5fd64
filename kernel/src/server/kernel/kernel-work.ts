/**
 * Marks the kernel's own synchronous work (converting a cell, building the compiler's program, the host's cell
 * transform): the interrupt watchdog (interrupt-watchdog.ts) never terminates JavaScript while it runs. V8's
 * terminateExecution unwinds everything on the stack without running `catch` or `finally`, so stopping a
 * conversion left the cell's promise unsettled forever (the kernel busy for good, every later cell queued) and
 * could leave the compiler half-built. That work always ends on its own; the interrupt message queued behind it
 * then reaches the cell.
 */
const depth = new Int32Array(new SharedArrayBuffer(4));

/** Shared with the watchdog thread: non-zero while kernel work runs. */
export const kernelWorkBuffer: SharedArrayBuffer = depth.buffer as SharedArrayBuffer;

/** Starts a stretch of kernel work; the returned function ends it (once, however often it is called). */
export function beginKernelWork(): () => void {
  Atomics.add(depth, 0, 1);
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    Atomics.sub(depth, 0, 1);
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
