/**
 * Late callbacks. A function a model made (in an expression or in generated code) that outlives its
 * execution or dispatch is refused by its guard when called: the guard records a trace anomaly (after
 * the run ended, in the Runner's and Session's late record) and throws. A synchronous caller gets that
 * error. But when the function was left in an event-loop callback there is no caller to throw to: the
 * error would become an uncaught exception or an unhandled rejection and end a plain library process
 * (one without the kernel's handlers). A model must not be able to end the host process, so refusals
 * that were recorded are marked here and absorbed where they would reach the event loop:
 *
 * - whatever would reach the event loop as an uncaught exception or an unhandled rejection (a callback
 *   of `setTimeout`, `setImmediate`, `queueMicrotask`, `process.nextTick` or any other native API, a
 *   promise callback, an unawaited async function resuming after its run) is reported to Node as
 *   handled when it is a marked refusal, without reaching the process's listeners; Node's timer and
 *   tick queues are built to continue after a handled exception, and other errors keep Node's behaviour;
 * - callbacks that would be called again are wrapped when registered in a run's async context: a
 *   refused `setInterval` callback clears its interval, and a refused `EventEmitter` listener is removed
 *   and does not cut short the emit (the listeners after it still run), so the callback is inert
 *   afterwards and leaves one anomaly, not one per tick or event.
 *
 * - an error model code lets go itself with no catcher (a rejection it leaves unhandled, a throw in its own
 *   callback while its code still runs) is recorded as `interior_error_uncaught` and reported as handled too
 *   (absorbInteriorError): a model must not end the host with an error any more than with a late callback.
 *
 * Accepted limitation: under `--unhandled-rejections=strict` Node raises a rejection as an uncaught
 * exception first; that one is absorbed too, but as an exception, after its promise chain was dropped.
 */
import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import { Duplex, Writable } from 'node:stream';
import timers from 'node:timers';
import { promisify } from 'node:util';
import { currentInterior, interiorParentId, interiorRefusal, runInterior, unmarkedModelCode, type InteriorMark, type InteriorRefusal } from '../core/index.js';
import { recordRealmChanges } from './realm-integrity.js';
import { noteInteriorFrozenWrite } from './frozen-write-record.js';
import { anomalyRecorder, currentHostFrame, insideEndedRun, insideUntrustedRead, refuseInteriorControl, runInFrame, type HostHandle } from './host-context.js';
import { callerFile } from './call-sites.js';
import { safeDescribe } from './snapshot-reflect.js';
import { functionToString, getOwnPropertyDescriptor, mapGet, mapSet, reflectApply, stringIndexOf, stringStartsWith, weakMapGet, weakMapSet, weakSetAdd, weakSetHas } from './intrinsics.js';

type AnyFn = (this: unknown, ...args: unknown[]) => unknown;
type Target = Record<string, unknown>;

// Read through captured intrinsics: interior code may replace WeakSet.prototype.has while a refusal is in flight.
const refusals = new WeakSet<object>();

/** Marks a refusal its guard has recorded, so it may be absorbed where it would reach the event loop; returns it. */
export function markLateRefusal<E extends object>(error: E): E {
  weakSetAdd(refusals, error);
  return error;
}

/**
 * For host functions code a model reached (a SessionFunction): called in a host frame whose run has ended (code
 * the model left behind, see boundToInterior), records the refusal and throws `refusal(control)`, marked so it
 * is absorbed where it would reach the event loop.
 */
export function refuseCallAfterRun(control: string, refusal: (control: string) => Error): void {
  if (!insideEndedRun()) return;
  refuseInteriorControl(control);
  throw markLateRefusal(refusal(control));
}

/**
 * For operator controls and adapters reached while the host reads a value a model may have built, outside any
 * run (readingUntrustedValue: a getter or inspector it planted, or a timer one of those started): records the
 * refusal in that context's record and throws `refusal(control)`, marked so it is absorbed where it would
 * reach the event loop.
 */
export function refuseDuringUntrustedRead(control: string, refusal: (control: string) => Error): void {
  if (!insideUntrustedRead()) return;
  refuseInteriorControl(control);
  throw markLateRefusal(refusal(control));
}

/** A value that can key a WeakMap or WeakSet (what can be thrown besides primitives). */
function isObjectLike(value: unknown): value is object {
  return (typeof value === 'object' || typeof value === 'function') && value !== null;
}

/** True for a refusal already recorded as evidence: absorbing it loses nothing. */
export function isLateRefusal(value: unknown): boolean {
  return isObjectLike(value) && weakSetHas(refusals, value);
}

// --- the event loop's last resort -------------------------------------------------------------------

/**
 * Node hands an uncaught exception or an unhandled rejection to `process.emit` and ends the process
 * unless that reports a listener. A marked refusal is reported as handled without reaching listeners
 * (it is recorded already); everything else goes through unchanged, so Node's defaults stand.
 */
function patchProcessEmit(): void {
  const proc = process as unknown as Target;
  const emit = proc['emit'] as AnyFn;
  proc['emit'] = named(
    'emit',
    function (this: unknown, ...args: unknown[]): unknown {
      const event = args[0];
      if (event === 'uncaughtException' || event === 'uncaughtExceptionMonitor' || event === 'unhandledRejection') {
        if (isLateRefusal(args[1])) return true;
        // The monitor comes first and only observes: the error is recorded once, at the event that decides.
        if (event === 'uncaughtExceptionMonitor' ? interiorOrigin(args[1], false) !== undefined : absorbInteriorError(event, args[1])) return true;
      }
      return reflectApply(emit, this, args);
    },
    emit,
  );
}

// --- model code's own errors with no catcher --------------------------------------------------------

/** Where an error interior code let go came from: its interior, and the run host to record it in. */
interface InteriorOrigin {
  readonly mark: InteriorMark;
  readonly recorder: Pick<HostHandle, 'recordAnomaly'> | undefined;
}

const liveThrows = new WeakMap<object, InteriorOrigin>();
// A thrown primitive cannot key a WeakMap. Node reports a callback's uncaught error synchronously, before the
// next callback or microtask, so one slot cleared at the next microtask is enough and cannot go stale.
let livePrimitive: { readonly value: unknown; readonly origin: InteriorOrigin } | undefined;
const clearLivePrimitive = (): void => {
  livePrimitive = undefined;
};
const scheduleClear = queueMicrotask;

/** A callback of interior code threw in its live window: noted, so the error is absorbed if nothing catches it. */
function noteLiveThrow(error: unknown, origin: InteriorOrigin): void {
  if (isObjectLike(error)) {
    if (weakMapGet(liveThrows, error) === undefined) weakMapSet(liveThrows, error, origin);
    return;
  }
  livePrimitive = { value: error, origin };
  scheduleClear(clearLivePrimitive);
}

/**
 * The interior an error reaching the event loop belongs to, if any: one a live callback of interior code threw
 * (noted above, where the context is gone, as for a microtask), or the context Node restores for the event: a
 * promise's own for an unhandled rejection (`Promise.reject()` or an unawaited async function of model code), a
 * timer's or tick's for an exception.
 */
function interiorOrigin(error: unknown, consume: boolean): InteriorOrigin | undefined {
  if (isObjectLike(error)) {
    const noted = weakMapGet(liveThrows, error) as InteriorOrigin | undefined;
    if (noted) return noted;
  } else if (livePrimitive !== undefined && livePrimitive.value === error) {
    const { origin } = livePrimitive;
    if (consume) livePrimitive = undefined;
    return origin;
  }
  const mark = registrationMark();
  return mark ? { mark, recorder: anomalyRecorder() } : undefined;
}

/**
 * An error model code let go with no catcher (a rejection nobody handles, a throw in its own callback) would end
 * a plain library process: a model must not be able to end the host. It is recorded as a trace anomaly under
 * the operation or dispatch node it came from and reported to Node as handled. Errors of operator and host code
 * keep Node's default.
 */
function absorbInteriorError(event: 'uncaughtException' | 'unhandledRejection', error: unknown): boolean {
  const origin = interiorOrigin(error, true);
  if (!origin) return false;
  try {
    origin.recorder?.recordAnomaly('interior_error_uncaught', { event, error: safeDescribe(error) }, interiorParentId(origin.mark));
  } catch {
    /* absorbed either way: the model must not end the process through a failing record */
  }
  if (isObjectLike(error)) markLateRefusal(error);
  return true;
}

// --- callbacks registered in a run's async context -------------------------------------------------

/** Calls `fn`; a marked refusal ends the call quietly (after `onAbsorbed`), anything else propagates. */
function absorbing(fn: AnyFn, onAbsorbed?: () => void): AnyFn {
  return function (this: unknown, ...args: unknown[]): unknown {
    try {
      return reflectApply(fn, this, args);
    } catch (error) {
      if (!isLateRefusal(error)) throw error;
      onAbsorbed?.();
      return undefined;
    }
  };
}

function named(name: string, fn: AnyFn, original: unknown): AnyFn {
  Object.defineProperty(fn, 'name', { value: name });
  const custom = (original as Record<symbol, unknown>)[promisify.custom];
  if (custom !== undefined) Object.defineProperty(fn, promisify.custom, { value: custom, configurable: true });
  return fn;
}

/**
 * A callback interior code registered (a timer, a listener) that fires while its interior may not run (between
 * the operations of a model expression's step, after its execution or its generated node ended) runs under a
 * realm check: whatever built-in it changed is put back and recorded before anything else runs, and a repeating
 * one that changed any, or whose interior ended, does not come back. So a callback made of built-ins alone
 * (`setInterval(Object.assign, 1, Set.prototype, { has: Boolean })`), which no guard of model code sees, cannot
 * change what the host decides with while it requests the model, inspects or commits. It is still called: a
 * function the model wrote refuses itself there (its guard), and a promise's resolve must run so that the code
 * awaiting it resumes, is refused by its own guard and ends its node, instead of hanging without an end.
 *
 * It is called where it was registered: in its run's host frame and under its interior mark, whatever context
 * fires it (an emitter's, the event loop's). A listener is called in the emitter's context, so without this an
 * operator function or a bound built-in the model left on `process` or an operator's emitter would run as the
 * operator: a SessionFunction would start a fresh run with the Session's grant, `session.configure` would switch
 * oversight off, `fs.rmSync` would erase the ledger unaudited, the kernel's message handler would take a forged
 * approval. In the frame, operator controls refuse, the effect audit refuses and records, and a SessionFunction
 * refuses to join a run that ended. What it throws there is recorded (refusals record themselves) and marked, so
 * it is absorbed where it would reach the event loop or an emitter instead of ending the host's process.
 */
/**
 * The interior a registration belongs to: the mark in force, or the model code an unmarked caller is running in
 * this job (a getter the host's error formatting or an operator inspector read, see noteUnmarkedModelCode), whose
 * reactions of built-ins (`.then(Function)`) would otherwise run later, unbound and unmarked.
 */
function registrationMark(): InteriorMark | undefined {
  return currentInterior() ?? unmarkedModelCode();
}

/**
 * `subject` is what the caller registered when `fn` wraps it (a function, or a listener object whose
 * `handleEvent` is called); looked at only when the callback may be dropped.
 */
function boundToInterior(mark: InteriorMark, fn: AnyFn, cancel?: () => void, subject: unknown = fn): AnyFn {
  // Taken at registration: a listener runs in the context of whoever emits, not of the code that added it.
  const frame = currentHostFrame();
  const parentId = interiorParentId(mark);
  const recorder = anomalyRecorder(frame);
  const live = (): InteriorRefusal | undefined => interiorRefusal(mark);
  return function (this: unknown, ...args: unknown[]): unknown {
    const refusal = interiorRefusal(mark);
    // Inside its window it runs as interior code: under its mark, whatever context fires it (an emitter's, or the
    // unmarked host code that was running the model's getter when it registered).
    if (refusal === undefined) {
      try {
        return currentInterior() === mark ? reflectApply(fn, this, args) : runInterior(mark, () => reflectApply(fn, this, args), live);
      } catch (error) {
        noteLiveThrow(error, { mark, recorder });
        throw error;
      }
    }
    if (refusal !== 'between-operations') cancel?.();
    // A model expression's execution has committed: nothing of it awaits a resolve any more, and a callback of
    // built-ins it left (`setTimeout(Array.prototype.push.bind(steps), 20, 'delete_all')`) would change the
    // committed value after the operator inspected it. Not called; recorded. The same for a built-in, bound or
    // proxy callback generated code left once its node ended: the host has read the node's result, and nothing
    // of the node awaits a resolve any more. A JavaScript callback of generated code is still called: its own
    // guard refuses it and records that.
    const dropped = refusal === 'execution-ended' || (refusal === 'dispatch-ended' && builtinCallee(subject));
    if (dropped) {
      try {
        recorder.recordAnomaly(refusal === 'execution-ended' ? 'expression_code_outside_execution' : 'generated_code_outside_dispatch', { refusal, callback: 'dropped' }, parentId);
      } catch {
        /* dropped either way */
      }
      return undefined;
    }
    const call = (): unknown => reflectApply(fn, this, args);
    const registered = (): unknown => runInterior(mark, call, live);
    try {
      return frame ? runInFrame(frame, registered) : registered();
    } catch (error) {
      if (isObjectLike(error) && !isLateRefusal(error)) {
        try {
          recorder.recordAnomaly('interior_callback_failed', { refusal, error: safeDescribe(error) }, parentId);
        } catch {
          /* the error is still absorbed below */
        }
        markLateRefusal(error);
      }
      throw error;
    } finally {
      if (recordRealmChanges(recorder, parentId) > 0) cancel?.();
    }
  };
}

function scheduler(name: string, original: AnyFn, repeating: boolean): AnyFn {
  return named(
    name,
    function (this: unknown, ...args: unknown[]): unknown {
      const callback = args[0];
      const mark = registrationMark();
      // A one-shot callback's refusal is absorbed by the `process.emit` backstop: only interior ones are wrapped,
      // so a host's setTimeout pays one lookup. A repeating one is wrapped anywhere in a run's context.
      if (typeof callback !== 'function' || (!mark && (!repeating || currentHostFrame() === undefined))) return reflectApply(original, this, args);
      let handle: unknown;
      const cancel = repeating ? () => clearInterval(handle as NodeJS.Timeout) : undefined;
      const absorbed = absorbing(callback as AnyFn, cancel);
      args[0] = mark ? boundToInterior(mark, absorbed, cancel, callback) : absorbed;
      handle = reflectApply(original, this, args);
      return handle;
    },
    original,
  );
}

function patchSchedulers(): void {
  const g = globalThis as unknown as Target;
  const t = timers as unknown as Target;
  for (const [name, repeating] of [['setInterval', true], ['setTimeout', false], ['setImmediate', false]] as const) {
    const original = g[name] as AnyFn;
    const patched = scheduler(name, original, repeating);
    g[name] = patched;
    if (t[name] === original) t[name] = patched;
  }
}

type Listener = AnyFn & { listener?: unknown };

function patchEmitters(): void {
  const proto = EventEmitter.prototype as unknown as Target;
  const on = proto['on'] as AnyFn;
  const prepend = proto['prependListener'] as AnyFn;
  const persistent = (name: string, register: AnyFn): AnyFn =>
    named(
      name,
      function (this: unknown, type: unknown, listener: unknown): unknown {
        const mark = registrationMark();
        if (typeof listener !== 'function' || !(mark || currentHostFrame())) return reflectApply(register, this, [type, listener]);
        const emitter = this as EventEmitter;
        const remove = (): void => void emitter.removeListener(type as string, wrapped);
        const wrapped: Listener = absorbing(mark ? boundToInterior(mark, listener as AnyFn, remove) : (listener as AnyFn), remove);
        // Removal by the original function and `listeners()` see the listener the caller registered.
        wrapped.listener = listener;
        return reflectApply(register, this, [type, wrapped]);
      },
      register,
    );
  const oneShot = (name: string, register: AnyFn, original: AnyFn): AnyFn =>
    named(
      name,
      function (this: unknown, type: unknown, listener: unknown): unknown {
        const mark = registrationMark();
        if (typeof listener !== 'function' || !(mark || currentHostFrame())) return reflectApply(original, this, [type, listener]);
        const emitter = this as EventEmitter;
        let fired = false;
        const inner = absorbing(mark ? boundToInterior(mark, listener as AnyFn) : (listener as AnyFn));
        // Node's own once wrapper, plus the absorption: removed before the call, runs at most once.
        const wrapped: Listener = function (this: unknown, ...args: unknown[]): unknown {
          emitter.removeListener(type as string, wrapped);
          if (fired) return undefined;
          fired = true;
          return reflectApply(inner, this, args);
        };
        wrapped.listener = listener;
        return reflectApply(register, this, [type, wrapped]);
      },
      original,
    );
  proto['on'] = persistent('on', on);
  proto['addListener'] = persistent('addListener', proto['addListener'] as AnyFn);
  proto['prependListener'] = persistent('prependListener', prepend);
  proto['once'] = oneShot('once', on, proto['once'] as AnyFn);
  proto['prependOnceListener'] = oneShot('prependOnceListener', prepend, proto['prependOnceListener'] as AnyFn);
}

/**
 * A rejection handler interior code registered, bound like any reaction, that first hands the reason to the record
 * of refused writes: a write a bound built-in reaction made (`.then(Object.assign.bind(null, frozen))`) fails in
 * no function of the model's, so no guard of its code sees it before a `.catch`, `.then(_, handler)` or
 * `Promise.allSettled` (which registers built-in handlers through `then`) swallows it.
 */
function seeingRejections(mark: InteriorMark, onRejected: AnyFn): AnyFn {
  const recorder = anomalyRecorder(currentHostFrame());
  const bound = boundToInterior(mark, onRejected);
  return function (this: unknown, ...args: unknown[]): unknown {
    try {
      noteInteriorFrozenWrite(recorder, args[0], mark, 'rejection-handler');
    } catch {
      /* the handler runs either way */
    }
    return reflectApply(bound, this, args);
  };
}

/**
 * Promise reactions interior code registers (`then`, and `catch` / `finally`, which call it) are bound like
 * timers: a reaction of built-ins on a promise that settles later (a file read, a digest, a timeout signal's
 * promise) would otherwise change built-ins while the host decides. `await` on a native promise does not go
 * through here (the engine's own reaction resumes the code, and model code's own guard covers that).
 */
function patchPromiseReactions(): void {
  const proto = Promise.prototype as unknown as Target;
  const then = proto['then'] as AnyFn;
  proto['then'] = named(
    'then',
    function (this: unknown, onFulfilled?: unknown, onRejected?: unknown): unknown {
      const mark = registrationMark();
      if (!mark) return reflectApply(then, this, [onFulfilled, onRejected]);
      return reflectApply(then, this, [
        typeof onFulfilled === 'function' ? boundToInterior(mark, onFulfilled as AnyFn) : onFulfilled,
        typeof onRejected === 'function' ? seeingRejections(mark, onRejected as AnyFn) : onRejected,
      ]);
    },
    then,
  );
}

/**
 * `EventTarget` listeners interior code adds (an `AbortSignal`'s, a `MessagePort`'s) are bound like emitter
 * listeners. Removal by the function the caller added finds the bound one (per target, type and capture).
 * Listener objects (`handleEvent`) are left as they are.
 */
function patchEventTargets(): void {
  const proto = EventTarget.prototype as unknown as Target;
  const add = proto['addEventListener'] as AnyFn;
  const remove = proto['removeEventListener'] as AnyFn;
  const bound = new WeakMap<object, WeakMap<AnyFn, Map<string, AnyFn>>>();
  const keyOf = (type: unknown, options: unknown): string =>
    `${String(type)}:${typeof options === 'boolean' ? options : Boolean((options as { capture?: unknown } | null | undefined)?.capture)}`;
  const find = (target: object, listener: AnyFn, key: string): AnyFn | undefined => {
    const byListener = weakMapGet(bound, target);
    const byKey = byListener ? weakMapGet(byListener, listener) : undefined;
    return byKey ? mapGet(byKey, key) : undefined;
  };
  proto['addEventListener'] = named(
    'addEventListener',
    function (this: unknown, type: unknown, listener: unknown, options: unknown): unknown {
      const mark = registrationMark();
      const callable = typeof listener === 'function' || (typeof listener === 'object' && listener !== null);
      if (!mark || !callable || typeof this !== 'object' || this === null) return reflectApply(add, this, [type, listener, options]);
      const target = this;
      const key = keyOf(type, options);
      let wrapped = find(target, listener as AnyFn, key);
      if (!wrapped) {
        // A listener object's handleEvent is looked up when the event fires, as EventTarget does.
        const handler: AnyFn =
          typeof listener === 'function'
            ? (listener as AnyFn)
            : function (this: unknown, ...args: unknown[]): unknown {
                const handle = (listener as { handleEvent?: unknown }).handleEvent;
                return typeof handle === 'function' ? reflectApply(handle as AnyFn, listener, args) : undefined;
              };
        const made: AnyFn = boundToInterior(
          mark,
          handler,
          () => void reflectApply(remove, target, [type, made, options]),
          listener,
        );
        wrapped = made;
        let byListener = weakMapGet(bound, target);
        if (!byListener) weakMapSet(bound, target, (byListener = new WeakMap()));
        let byKey = weakMapGet(byListener, listener as AnyFn);
        if (!byKey) weakMapSet(byListener, listener as AnyFn, (byKey = new Map()));
        mapSet(byKey, key, made);
      }
      return reflectApply(add, this, [type, wrapped, options]);
    },
    add,
  );
  proto['removeEventListener'] = named(
    'removeEventListener',
    function (this: unknown, type: unknown, listener: unknown, options: unknown): unknown {
      if ((typeof listener === 'function' || (typeof listener === 'object' && listener !== null)) && typeof this === 'object' && this !== null) {
        const wrapped = find(this, listener as AnyFn, keyOf(type, options));
        if (wrapped) reflectApply(remove, this, [type, wrapped, options]);
      }
      return reflectApply(remove, this, [type, listener, options]);
    },
    remove,
  );
}

/**
 * A `FinalizationRegistry` interior code creates has its cleanup callback bound like a timer (it runs after a
 * collection, long after its interior's window). The constructor is wrapped in a proxy, so `instanceof` and the
 * prototype stay the engine's own.
 */
const construct = Reflect.construct;

function patchFinalizationRegistry(): void {
  const g = globalThis as unknown as Target;
  const Original = g['FinalizationRegistry'] as unknown as new (...args: unknown[]) => object;
  const Bound = new Proxy(Original, {
    construct(target, args: unknown[], newTarget: Function) {
      const mark = registrationMark();
      const cleanup = args[0];
      const bound = mark && typeof cleanup === 'function' ? boundToInterior(mark, cleanup as AnyFn) : cleanup;
      return construct(target, [bound], newTarget);
    },
  });
  g['FinalizationRegistry'] = Bound;
  // So a registry's `constructor` is the global one, as before.
  Object.defineProperty(Original.prototype, 'constructor', { value: Bound, writable: true, configurable: true, enumerable: false });
}

let installed = false;

/**
 * Node's callback-style APIs that complete later on the thread pool or the network: the callback interior code
 * hands them (`fs.readFile(p, cb)`, `crypto.pbkdf2(…, cb)`, even `Array.prototype.push.bind(steps, 'x')`) is
 * bound like a timer's, so it cannot act after its execution committed or between its operations. Wrapped: the
 * modules' own lowercase functions (classes and `…Sync` forms take no callback); only a call that passes a
 * function last, in an interior's context, is changed.
 */
const CALLBACK_MODULES: readonly Target[] = [fs as unknown as Target, crypto as unknown as Target];

/**
 * Microtasks interior code queues run before the event loop moves on, usually inside its window; but one queued
 * while an unmarked caller runs a model function (a getter the host reads, see registrationMark) runs after that
 * job, unmarked: bound like a timer's, it runs under its step's mark and not after its execution.
 *
 * `process.nextTick`'s queue drains after the current microtasks, so a tick an expression queued from the job in
 * which its commit completes ran after the commit: `Array.prototype.push.bind(steps, 'delete_all')` changed the
 * value the operator's inspector had just approved. Only such callbacks are bound there: built-ins, bound
 * functions and proxies, which no guard of model code sees (a function the model wrote refuses itself). Library
 * and host code that model code calls queue ticks for their own bookkeeping (vitest's console, a client's
 * state machine, Node's streams); those are JavaScript functions, left alone, because a dropped one would
 * leave its owner waiting for good.
 */
function patchMicrotasks(): void {
  const g = globalThis as unknown as Target;
  g['queueMicrotask'] = bindingCallbackAt(0, 'queueMicrotask', g['queueMicrotask'] as AnyFn);
  patchNextTick();
}

/**
 * `process.nextTick` becomes an accessor whose value is always the binding one. Test runners and tools assign
 * their own (vitest around each RPC, fake timers), and restore what they read: an assignment outside model code
 * changes the function the binding calls (the binding itself, read back, means the original), so the realm
 * check, which watches the property's descriptor, never sees them. Under model code only Node's own function
 * may be assigned (vitest's RPC does that inside a model's `console.log`); anything else is refused and
 * recorded as the realm check records a replaced built-in. A built-in callback Node's own modules queue while
 * model code is on the stack is Node's and stays unbound too (calledFromNode).
 */
function patchNextTick(): void {
  const proc = process as unknown as Target;
  const d = getOwnPropertyDescriptor(proc, 'nextTick');
  if (!d || !('value' in d) || typeof d.value !== 'function' || !d.configurable) return;
  const original = d.value as AnyFn;
  let current = original;
  const bound = bindingCallbackAt(0, 'nextTick', function (this: unknown, ...args: unknown[]): unknown {
    return reflectApply(current, this, args);
  }, true);
  Object.defineProperty(proc, 'nextTick', {
    configurable: true,
    enumerable: d.enumerable,
    get: () => bound,
    set(value: unknown) {
      // Node's own function, or the binding read back (what vitest's RPC wrapper sets and restores, even under
      // model code's console.log): the function called stays Node's.
      if (value === original || value === bound) {
        current = original;
        return;
      }
      if (refusedModelAssignment('process.nextTick')) return;
      if (typeof value === 'function') current = value as AnyFn;
    },
  });
}

/**
 * For a guarded built-in's setter: true (and recorded as `builtin_modified`, the value kept) when model code is
 * assigning; false when the host may assign.
 */
function refusedModelAssignment(property: string): boolean {
  const mark = registrationMark();
  if (!mark) return false;
  try {
    anomalyRecorder().recordAnomaly('builtin_modified', { property, change: 'changed', restored: true }, interiorParentId(mark));
  } catch {
    /* refused either way */
  }
  return true;
}

/**
 * `Error.prepareStackTrace` becomes an accessor: V8 and Node read it for every stack the host formats, so a
 * function model code put there would run each time the host reads an error's stack (and, once its run ended,
 * throw its refusal there, or never return). Tools outside model code assign their own formatter as before;
 * an assignment under model code is refused and recorded as a replaced built-in. Redefining the property is
 * caught by the realm check, which watches this descriptor.
 */
function patchStackFormatter(): void {
  const d = getOwnPropertyDescriptor(Error, 'prepareStackTrace');
  if (d && (!d.configurable || !('value' in d))) return;
  let current: unknown = d?.value;
  Object.defineProperty(Error, 'prepareStackTrace', {
    configurable: true,
    enumerable: d?.enumerable ?? false,
    get: () => current,
    set(value: unknown) {
      if (refusedModelAssignment('Error.prepareStackTrace')) return;
      current = value;
    },
  });
}

/** True when the function that called `above` is one of Node's own modules (`node:…`); false when unknown. */
function calledFromNode(above: Function): boolean {
  const file = callerFile(above);
  return file !== undefined && stringStartsWith(file, 'node:');
}

/** `original` with the function argument at `index` (-1: the last) bound to the registering interior, if any. */
function bindingCallbackAt(index: number, name: string, original: AnyFn, builtinsOnly = false): AnyFn {
  const wrapper = named(
    name,
    function (this: unknown, ...args: unknown[]): unknown {
      const at = index < 0 ? args.length + index : index;
      const callback = args[at];
      if (typeof callback === 'function') {
        const mark = registrationMark();
        if (mark && (!builtinsOnly || (isBuiltinCode(callback) && !calledFromNode(wrapper)))) args[at] = absorbing(boundToInterior(mark, callback as AnyFn));
      }
      return reflectApply(original, this, args);
    },
    original,
  );
  return wrapper;
}

/**
 * Whether what a dropped-or-called callback would call is code no guard sees: a built-in, a bound function, a
 * proxy, or (for a listener object) a property that is not a plain function value (an accessor, or inherited).
 */
function builtinCallee(registered: unknown): boolean {
  if (typeof registered === 'function') return isBuiltinCode(registered);
  // A listener object's handleEvent, read by descriptor: a getter the model put there does not run.
  const descriptor = typeof registered === 'object' && registered !== null ? getOwnPropertyDescriptor(registered, 'handleEvent') : undefined;
  return typeof descriptor?.value === 'function' ? isBuiltinCode(descriptor.value as Function) : true;
}

/** What isBuiltinCode found per function: the source text of a JavaScript callback is copied once, not per call. */
const builtinCode = new WeakMap<Function, boolean>();

/**
 * A built-in, a bound function or a proxy: code no guard of model code sees. Read without running anything of
 * the callback (a proxy's traps are not consulted).
 */
function isBuiltinCode(fn: Function): boolean {
  const known = weakMapGet(builtinCode, fn);
  if (known !== undefined) return known;
  let builtin: boolean;
  try {
    builtin = stringIndexOf(functionToString(fn), '[native code]') >= 0;
  } catch {
    builtin = true;
  }
  weakMapSet(builtinCode, fn, builtin);
  return builtin;
}

/**
 * A writable stream's `write(chunk, cb)` / `end(cb)` completion callbacks, which come back on a later turn
 * (`process.stdout.write('', Array.prototype.push.bind(steps, 'delete_all'))`). Duplex (sockets, pipes,
 * process.stdout) copied Writable's methods onto its own prototype when it loaded, so both are wrapped. As for
 * `process.nextTick`, only built-in callbacks are bound: a library's own completion callback (a logger's, a
 * WebSocket's send) must not be dropped, nor Node's (`console.log` passes an error handler that keeps a
 * failed write to a closed pipe from ending the process).
 */
function patchStreamCallbacks(): void {
  for (const proto of [Writable.prototype, Duplex.prototype] as unknown as Target[]) {
    for (const name of ['write', 'end']) proto[name] = bindingCallbackAt(-1, name, proto[name] as AnyFn, true);
  }
}

function patchNodeCallbacks(): void {
  patchStreamCallbacks();
  for (const mod of CALLBACK_MODULES) {
    for (const name of Object.keys(mod)) {
      const original = mod[name];
      if (typeof original !== 'function' || name.endsWith('Sync') || !/^[a-z]/.test(name)) continue;
      const d = getOwnPropertyDescriptor(mod, name);
      if (!d || !('value' in d) || !d.writable) continue;
      mod[name] = bindingCallbackAt(-1, name, original as AnyFn);
    }
  }
}

/** Installs the absorption once; before the effect audit wraps `process` listener methods, so they delegate here. */
export function installLateCallbacks(): void {
  if (installed) return;
  installed = true;
  patchNodeCallbacks();
  patchMicrotasks();
  patchStackFormatter();
  patchSchedulers();
  patchEmitters();
  patchPromiseReactions();
  patchEventTargets();
  patchFinalizationRegistry();
  patchProcessEmit();
}

