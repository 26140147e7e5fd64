/**
 * Each write the engine refused model code (a frozen value) is recorded once, where the host first sees it: a catch
 * block of model code (which hands what it caught to its guard), the generated-code node it failed, or the operation
 * it failed. The record of what was seen is private: the core reads it directly, and the harness claims it once when
 * it loads (the first claim wins), so model code cannot mark a refusal as seen to keep it off the ledger.
 */
import { types } from 'node:util';
import { isFrozenWriteMessage } from './operation.js';

// Captured at load: model code may replace the prototypes' methods later.
const { isNativeError } = types;
const getPrototypeOf = Reflect.getPrototypeOf;
const getOwnPropertyDescriptor = Reflect.getOwnPropertyDescriptor;
const objectHasOwn = Object.hasOwn;
const apply = Reflect.apply;
const weakSetHas = WeakSet.prototype.has;
const weakSetAdd = WeakSet.prototype.add;
const typeErrorPrototype = TypeError.prototype;

/**
 * The engine's message when `error` is its refusal of a write to a frozen value, read without running the thrower's
 * code: a native error (not a proxy) whose prototype is TypeError's and whose own `message` is data; else undefined.
 */
export function frozenWriteMessage(error: unknown): string | undefined {
  if (!isNativeError(error) || getPrototypeOf(error) !== typeErrorPrototype) return undefined;
  const descriptor = getOwnPropertyDescriptor(error, 'message');
  const message: unknown = descriptor !== undefined && objectHasOwn(descriptor, 'value') ? descriptor.value : undefined;
  return typeof message === 'string' && isFrozenWriteMessage(message) ? message : undefined;
}

/**
 * Where the host saw a refused write first: a catch block model code entered, or a function it left (its own guard
 * saw the exception); a rejection handler it registered, called with it; or the `false` a `Reflect` write answered
 * it (the harness: late-callbacks.ts, silent-refusals.ts).
 */
export type SeenAt = 'catch-block' | 'function-exit' | 'rejection-handler' | 'reflect-result';

const seen = new WeakSet<object>();

/** Whether the host sees `error` for the first time; it counts as seen from now on. A primitive is always new. */
export function firstSight(error: unknown): boolean {
  if (error === null || (typeof error !== 'object' && typeof error !== 'function')) return true;
  if (apply(weakSetHas, seen, [error])) return false;
  apply(weakSetAdd, seen, [error]);
  return true;
}

let claimed = false;

/** `firstSight` for the harness: the first call (the harness, as it loads) gets it; every later one gets undefined. */
export function claimFrozenWriteSight(): typeof firstSight | undefined {
  if (claimed) return undefined;
  claimed = true;
  return firstSight;
}
