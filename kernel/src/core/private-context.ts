/**
 * Async context whose values never sit on an async resource. Node's AsyncLocalStorage keeps its
 * store under a symbol on the current async resource, so `executionAsyncResource()` (reachable from
 * any code that can load `node:async_hooks`) hands out the live store and lets a caller replace or
 * clear it. Here every value lives in a module-private WeakMap keyed by the resource: the resource
 * carries nothing, and nothing outside this module can read, swap or clear the mapping.
 *
 * Same semantics as AsyncLocalStorage.run/getStore: a value set for a synchronous call is inherited
 * by every async resource (promise, timer, tick) created during it.
 */
import { createHook, executionAsyncResource } from 'node:async_hooks';

// Captured once: a later patch of the module's exports cannot redirect the lookup.
const resourceNow = executionAsyncResource;
const maps: WeakMap<object, unknown>[] = [];
let enabled = false;

function enable(): void {
  if (enabled) return;
  enabled = true;
  createHook({
    init(_asyncId, _type, _triggerAsyncId, resource: object) {
      const from = resourceNow();
      for (let i = 0; i < maps.length; i++) {
        const map = maps[i]!;
        const value = map.get(from);
        if (value !== undefined) map.set(resource, value);
      }
    },
  }).enable();
}

export class PrivateAsyncContext<T extends object> {
  readonly #map = new WeakMap<object, T>();

  constructor() {
    maps.push(this.#map as WeakMap<object, unknown>);
    Object.freeze(this);
  }

  /** The value in force for the current execution, or undefined. */
  getStore(): T | undefined {
    return this.#map.get(resourceNow());
  }

  /** Runs `fn` with `value` in force; async work started inside inherits it. */
  run<R>(value: T, fn: () => R): R {
    enable();
    const resource = resourceNow();
    const previous = this.#map.get(resource);
    if (previous === value) return fn();
    this.#map.set(resource, value);
    try {
      return fn();
    } finally {
      if (previous === undefined) this.#map.delete(resource);
      else this.#map.set(resource, previous);
    }
  }
}
