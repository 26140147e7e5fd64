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
 * Accepted limitation: under `--unhandled-rejections=strict` Node raises a rejection as an uncaught
 * exception first; that one is absorbed too, but as an exception, after its promise chain was dropped.
 */
import { EventEmitter } from 'node:events';
import timers from 'node:timers';
import { promisify } from 'node:util';
import { currentInterior } from '../core/index.js';
import { currentHostFrame } from './host-context.js';
import { reflectApply, weakSetAdd, weakSetHas } from './intrinsics.js';

type AnyFn = (this: unknown, ...args: unknown[]) => unknown;
type Target = Record<string, unknown>;

// Read through captured intrinsics: interior code may replace WeakSet.prototype.has while a refusal is in flight.
const refusals = new WeakSet<object>();

/** Marks a refusal its guard has recorded, so it may be absorbed where it would reach the event loop; returns it. */
export function markLateRefusal<E extends object>(error: E): E {
  weakSetAdd(refusals, error);
  return error;
}

/** True for a refusal already recorded as evidence: absorbing it loses nothing. */
export function isLateRefusal(value: unknown): boolean {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && weakSetHas(refusals, value);
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
      if ((event === 'uncaughtException' || event === 'uncaughtExceptionMonitor' || event === 'unhandledRejection') && isLateRefusal(args[1])) return true;
      return reflectApply(emit, this, args);
    },
    emit,
  );
}

// --- callbacks registered in a run's async context -------------------------------------------------

const inRunContext = (): boolean => currentHostFrame() !== undefined || currentInterior() !== undefined;

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

function scheduler(name: string, original: AnyFn, repeating: boolean): AnyFn {
  return named(
    name,
    function (this: unknown, ...args: unknown[]): unknown {
      const callback = args[0];
      if (typeof callback !== 'function' || !inRunContext()) return reflectApply(original, this, args);
      let handle: unknown;
      args[0] = absorbing(callback as AnyFn, repeating ? () => clearInterval(handle as NodeJS.Timeout) : undefined);
      handle = reflectApply(original, this, args);
      return handle;
    },
    original,
  );
}

/** Only the repeating scheduler: a one-shot callback's refusal is absorbed by the `process.emit` backstop. */
function patchSchedulers(): void {
  const g = globalThis as unknown as Target;
  const t = timers as unknown as Target;
  const original = g['setInterval'] as AnyFn;
  const patched = scheduler('setInterval', original, true);
  g['setInterval'] = patched;
  if (t['setInterval'] === original) t['setInterval'] = patched;
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
        if (typeof listener !== 'function' || !inRunContext()) return reflectApply(register, this, [type, listener]);
        const emitter = this as EventEmitter;
        const wrapped: Listener = absorbing(listener as AnyFn, () => emitter.removeListener(type as string, wrapped));
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
        if (typeof listener !== 'function' || !inRunContext()) return reflectApply(original, this, [type, listener]);
        const emitter = this as EventEmitter;
        let fired = false;
        const inner = absorbing(listener as AnyFn);
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

let installed = false;

/** Installs the absorption once; before the effect audit wraps `process` listener methods, so they delegate here. */
export function installLateCallbacks(): void {
  if (installed) return;
  installed = true;
  patchSchedulers();
  patchEmitters();
  patchProcessEmit();
}

