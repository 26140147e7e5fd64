/**
 * Async context whose values cannot be reached from the async resource. Node's AsyncLocalStorage
 * keeps its store under a symbol on the current async resource, so `executionAsyncResource()`
 * (reachable from any code that can load `node:async_hooks`) hands out the live store and lets a
 * caller replace or clear it. Here all contexts share one frame (an array of values, one slot per
 * context) kept in a private class field stamped onto the resource: private fields are invisible to
 * `Reflect.ownKeys`, `Object.getOwnPropertySymbols` and proxies, and only this module can read or
 * write them. Resources that cannot carry the field fall back to a module-private WeakMap.
 *
 * Same semantics as AsyncLocalStorage.run/getStore: a value set for a synchronous call is inherited
 * by every async resource (promise, timer, tick) created during it.
 */
import { createHook, executionAsyncResource } from 'node:async_hooks';

/** One value per context, in a null-prototype object: copying it runs no inherited setter or method. */
type Frame = { readonly [index: number]: unknown };

// Captured once: a later patch of the module's exports or of WeakMap.prototype cannot see a frame.
const resourceNow = executionAsyncResource;
const apply = Reflect.apply;
const weakGet = WeakMap.prototype.get;
const weakSet = WeakMap.prototype.set;
const fallback = new WeakMap<object, Frame | undefined>();

/** Returning an existing object from a base constructor lets a subclass stamp its private field on it. */
class Stamp {
  constructor(target: object) {
    return target as Stamp;
  }
}

class FrameSlot extends Stamp {
  #frame: Frame | undefined;

  static read(resource: object): Frame | undefined {
    return #frame in resource ? (resource as FrameSlot).#frame : (apply(weakGet, fallback, [resource]) as Frame | undefined);
  }

  static write(resource: object, frame: Frame | undefined): void {
    if (#frame in resource) {
      (resource as FrameSlot).#frame = frame;
      return;
    }
    try {
      (new FrameSlot(resource) as FrameSlot).#frame = frame;
    } catch {
      apply(weakSet, fallback, [resource, frame]);
    }
  }
}

let contexts = 0;
let enabled = false;

function enable(): void {
  if (enabled) return;
  enabled = true;
  createHook({
    init(_asyncId, _type, _triggerAsyncId, resource: object) {
      const frame = FrameSlot.read(resourceNow());
      if (frame !== undefined) FrameSlot.write(resource, frame);
    },
  }).enable();
}

/**
 * Whether any context has been entered in this process (its async hook is on). Until then nothing has run
 * under a host or a step, so no value a model built can exist; a kernel that stays without the hook keeps
 * Node's ability to stop a microtask spin without restarting (see interrupt-escalation.ts).
 */
export function privateAsyncContextInUse(): boolean {
  return enabled;
}

export class PrivateAsyncContext<T extends object> {
  readonly #index = contexts++;

  constructor() {
    Object.freeze(this);
  }

  /** The value in force for the current execution, or undefined. */
  getStore(): T | undefined {
    return FrameSlot.read(resourceNow())?.[this.#index] as T | undefined;
  }

  /** Runs `fn` with `value` in force; async work started inside inherits it. */
  run<R>(value: T, fn: () => R): R {
    enable();
    const resource = resourceNow();
    const previous = FrameSlot.read(resource);
    if (previous?.[this.#index] === value) return fn();
    const next: { [index: number]: unknown } = Object.create(null) as { [index: number]: unknown };
    if (previous) for (let i = 0; i < contexts; i++) next[i] = previous[i];
    next[this.#index] = value;
    FrameSlot.write(resource, next);
    try {
      return fn();
    } finally {
      FrameSlot.write(resource, previous);
    }
  }
}
Object.freeze(PrivateAsyncContext.prototype); // shared by every run in the process: model code replaces no method
