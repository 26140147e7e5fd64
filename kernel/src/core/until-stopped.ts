/**
 * Work the host awaits on behalf of model code (an operation body, a generated export's promise), bounded by a stop.
 * Built-ins captured at load: model code may have replaced them since.
 */
const promiseThen = Promise.prototype.then;
const addAbortListener = EventTarget.prototype.addEventListener;
const removeAbortListener = EventTarget.prototype.removeEventListener;
const apply = Reflect.apply;
// Captured at load, before the harness binds timers that model code registers: this one is the core's own.
const nextTurn = setImmediate;
const ignore = (): void => {};

/**
 * `work`, or the stop of `signal`, whichever comes first (seed 002: cooperative cancellation unwinds the body). Work
 * that never settles (a model expression awaiting `new Promise(() => {})`) would otherwise hold the step, the
 * composition and the caller's run call for ever after the host stopped it. Work that finishes in the same turn as
 * the stop (it called the host's stop itself, then returned) still completes: the stop cuts it off only from the
 * next turn of the event loop, and only then is `cutOff` asked what to reject with (by default the stop's reason).
 * The work is left behind, not stopped: the code that made it refuses to run once its execution or node ended.
 */
export function untilStopped<T>(work: Promise<T>, signal: AbortSignal, cutOff: (reason: unknown) => unknown = (reason) => reason): Promise<T> {
  // The built-in `then` on the work's own promise: a `then` the model replaced is not consulted.
  const bounded = new Promise<T>((resolve, reject) => {
    let settled = false;
    const onStop = (): void => {
      nextTurn(() => {
        if (settled) return;
        settled = true;
        reject(cutOff(signal.reason));
        // Whoever awaits still gets the cut-off; work nobody awaits (an export called and dropped) must not turn the
        // stop into an unhandled rejection, which ends a plain Node process.
        apply(promiseThen, bounded, [undefined, ignore]);
      });
    };
    const listening = !signal.aborted;
    if (listening) apply(addAbortListener, signal, ['abort', onStop, { once: true }]);
    const done = (): void => {
      settled = true;
      if (listening) apply(removeAbortListener, signal, ['abort', onStop]);
    };
    apply(promiseThen, work, [
      (value: T) => {
        if (settled) return;
        done();
        resolve(value);
      },
      (error: unknown) => {
        if (settled) return;
        done();
        reject(error);
      },
    ]);
    if (!listening) onStop();
  });
  return bounded;
}
