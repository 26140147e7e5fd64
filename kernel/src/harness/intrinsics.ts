/**
 * Built-in functions captured when the harness loads, for the host's guard and record paths: interior
 * code can replace `RegExp.prototype.test`, `Set.prototype.has` or `Reflect.apply` in the shared realm,
 * and a check that calls the replacement would answer what the replacement says.
 */
import { createHash } from 'node:crypto';
import { types as utilTypes } from 'node:util';

const apply = Reflect.apply;
// `call` bound to the method, as Node's own primordials do: the bound function keeps the original `call` and
// method, and V8 calls it without the rest-array and Reflect.apply a wrapper would cost on every record.
const bindCall = Function.prototype.bind.bind(Function.prototype.call) as (fn: Function) => (self: unknown, ...args: unknown[]) => unknown;
const uncurry =
  <A extends unknown[], R>(fn: (...args: A) => R): ((self: unknown, ...args: A) => R) =>
    bindCall(fn) as (self: unknown, ...args: A) => R;

export const reflectApply = apply;
/** The engine's promise check (an internal slot): it reads no property, prototype or `Symbol.hasInstance`. */
export const isPromise: (value: unknown) => value is Promise<unknown> = utilTypes.isPromise;
/** `Promise.prototype.then` as loaded: a promise's own or inherited `then` may be anything its maker put there. */
export const promiseThen = Promise.prototype.then;
export const promiseReject = Promise.reject.bind(Promise) as (reason: unknown) => Promise<never>;
export const reflectConstruct = Reflect.construct;
export const setHas: (set: ReadonlySet<unknown>, value: unknown) => boolean = uncurry(Set.prototype.has) as never;
export const weakSetHas: (set: WeakSet<object>, value: object) => boolean = uncurry(WeakSet.prototype.has) as never;
export const weakSetAdd: (set: WeakSet<object>, value: object) => WeakSet<object> = uncurry(WeakSet.prototype.add) as never;
export const regExpTest: (re: RegExp, text: string) => boolean = uncurry(RegExp.prototype.test) as never;
/** The built-in exec itself: unlike `test`, it looks up no `exec` property on the pattern. */
export const regExpExec: (re: RegExp, text: string) => RegExpExecArray | null = uncurry(RegExp.prototype.exec) as never;
export const stringStartsWith: (s: string, prefix: string) => boolean = uncurry(String.prototype.startsWith) as never;
export const stringSlice: (s: string, start: number, end?: number) => string = uncurry(String.prototype.slice) as never;
export const stringIndexOf: (s: string, search: string) => number = uncurry(String.prototype.indexOf) as never;
export const StringCtor = String;

// Reflection and encoding for the realm check and the private JSON encoder.
export const getOwnPropertyDescriptor = Reflect.getOwnPropertyDescriptor;
export const ownKeys = Reflect.ownKeys;
export const defineProperty = Reflect.defineProperty;
export const deleteProperty = Reflect.deleteProperty;
export const getPrototypeOf = Reflect.getPrototypeOf;
export const setPrototypeOf = Reflect.setPrototypeOf;
export const isExtensible = Reflect.isExtensible;
export const objectIs = Object.is;
export const objectKeys = Object.keys;
export const objectFreeze = Object.freeze;
export const objectCreate = Object.create;
export const isArray = Array.isArray;
export const jsonStringify = JSON.stringify;
export const isFiniteNumber = Number.isFinite;
export const objectHasOwn = Object.hasOwn;
export const ObjectPrototype = Object.prototype;
export const scheduleMicrotask = queueMicrotask;
/** Stopping a run is a host decision: its abort, and its own abort listeners, must not depend on live methods. */
export const abortWith: (controller: AbortController, reason?: unknown) => void = uncurry(AbortController.prototype.abort) as never;
export const addListener: (target: EventTarget, type: string, fn: () => void, options?: { once?: boolean }) => void = uncurry(EventTarget.prototype.addEventListener) as never;
export const removeListener: (target: EventTarget, type: string, fn: () => void) => void = uncurry(EventTarget.prototype.removeEventListener) as never;

// Collections and iterators for the record walk: a replaced `Map.prototype.entries` or iterator `next` would
// otherwise decide what a record of a Map holds.
export const mapGet: <K, V>(map: Map<K, V>, key: K) => V | undefined = uncurry(Map.prototype.get) as never;
export const mapSet: <K, V>(map: Map<K, V>, key: K, value: V) => Map<K, V> = uncurry(Map.prototype.set) as never;
export const mapDelete: <K>(map: Map<K, unknown>, key: K) => boolean = uncurry(Map.prototype.delete) as never;
export const mapEntries: (map: Map<unknown, unknown>) => Iterator<[unknown, unknown]> = uncurry(Map.prototype.entries) as never;
export const mapIteratorNext: (it: Iterator<[unknown, unknown]>) => IteratorResult<[unknown, unknown]> = uncurry(
  (getPrototypeOf(new Map().entries()) as Iterator<unknown>).next,
) as never;
export const mapSizeOf = builtinGetter(Map.prototype, 'size') as (map: Map<unknown, unknown>) => number;
export const mapClear: (map: Map<unknown, unknown>) => void = uncurry(Map.prototype.clear) as never;
export const setSizeOf = builtinGetter(Set.prototype, 'size') as (set: Set<unknown>) => number;
export const symbolDescription = builtinGetter(Symbol.prototype, 'description') as (symbol: symbol) => string | undefined;
export const signalAborted = builtinGetter(AbortSignal.prototype, 'aborted') as (signal: AbortSignal) => boolean;
export const setAdd: <T>(set: Set<T>, value: T) => Set<T> = uncurry(Set.prototype.add) as never;
export const setDelete: <T>(set: Set<T>, value: T) => boolean = uncurry(Set.prototype.delete) as never;
export const mapHas: <K>(map: Map<K, unknown>, key: K) => boolean = uncurry(Map.prototype.has) as never;
export const weakMapSet: <K extends object, V>(map: WeakMap<K, V>, key: K, value: V) => WeakMap<K, V> = uncurry(WeakMap.prototype.set) as never;
export const weakMapGet: <K extends object, V>(map: WeakMap<K, V>, key: K) => V | undefined = uncurry(WeakMap.prototype.get) as never;
export const setValues: (set: Set<unknown>) => Iterator<unknown> = uncurry(Set.prototype.values) as never;
export const setIteratorNext: (it: Iterator<unknown>) => IteratorResult<unknown> = uncurry((getPrototypeOf(new Set().values()) as Iterator<unknown>).next) as never;
export const dateGetTime: (date: Date) => number = uncurry(Date.prototype.getTime) as never;
export const dateToISOString: (date: Date) => string = uncurry(Date.prototype.toISOString) as never;
export const functionToString: (fn: Function) => string = uncurry(Function.prototype.toString) as never;
export const Uint8ArrayCtor = Uint8Array;
const arrayFrom = Array.from;
/** An iterable as an array to loop over by index: arrays as they are (no iterator protocol), others copied. */
export function listOf<T>(values: Iterable<T>): readonly T[] {
  return isArray(values) ? (values as readonly T[]) : arrayFrom(values);
}

/** A Map's entries as a fresh array, by the captured iterator: what the host decides from a Map it owns. */
export function mapEntryList<K, V>(map: Map<K, V>): [K, V][] {
  const out: [K, V][] = [];
  const it = mapEntries(map as Map<unknown, unknown>);
  for (let step = mapIteratorNext(it); !step.done; step = mapIteratorNext(it)) append(out, step.value as [K, V]);
  return out;
}

/** A Map's keys as a fresh array (see mapEntryList). */
export function mapKeyList<K>(map: Map<K, unknown>): K[] {
  const entries = mapEntryList(map);
  const out: K[] = [];
  for (let i = 0; i < entries.length; i++) append(out, entries[i]![0]);
  return out;
}

const ArrayPrototype = Array.prototype;
const DATA = { writable: true, enumerable: true, configurable: true } as const;

/**
 * Adds `value` under `key` to a host-made record (an object whose prototype is Object.prototype).
 * Assignment would run a setter, or fail on a read-only property, that interior code put on Object.prototype
 * under that key; such keys are defined instead (a definition never consults the prototype, and its
 * descriptor has no prototype, so an added `Object.prototype.get` cannot turn it into an accessor). Other keys
 * take plain assignment: a definition costs ~10x more, on every record the host writes. The check sits right
 * before the write, so no user code (a proxy trap in the walk) runs between them.
 */
export function put(target: object, key: PropertyKey, value: unknown): void {
  if (objectHasOwn(ObjectPrototype, key)) defineProperty(target, key, { __proto__: null, value, ...DATA } as PropertyDescriptor);
  else (target as Record<PropertyKey, unknown>)[key] = value;
}

/**
 * Appends to a host-made array; see `put`. Array.prototype's own prototype can be replaced (by a proxy whose
 * `set` trap drops the write), so that is checked too.
 */
export function append<T>(array: T[], value: T): void {
  const index = array.length;
  if (objectHasOwn(ArrayPrototype, index) || objectHasOwn(ObjectPrototype, index) || getPrototypeOf(ArrayPrototype) !== ObjectPrototype) {
    defineProperty(array, index, { __proto__: null, value, ...DATA } as PropertyDescriptor);
  } else array[index] = value;
}

/** Captured getters of built-in prototypes, read now: interior code may redefine the accessor later. */
export function builtinGetter(proto: object, key: PropertyKey): (target: unknown) => unknown {
  const get = getOwnPropertyDescriptor(proto, key)?.get;
  if (get === undefined) throw new TypeError(`no built-in getter ${String(key)}`);
  return (target) => apply(get, target, []);
}

// Content hashing for identities the host decides (generated definition ids, approved source hashes): a
// `Hash.prototype.digest` replaced by model code (even by a bound built-in) must not name the content.
/** `crypto.Hash.prototype` as loaded, for the realm check's watch list. */
export const hashPrototype = getPrototypeOf(createHash('sha256')) as { update(data: string, encoding: 'utf8'): unknown; digest(encoding: 'hex'): string };
const hashUpdate = uncurry(hashPrototype.update);
const hashDigest = uncurry(hashPrototype.digest);

/** sha256 of `text` (UTF-8), as hex, on the hashing methods captured at load. */
export function sha256Of(text: string): string {
  const hash = createHash('sha256');
  hashUpdate(hash, text, 'utf8');
  return hashDigest(hash, 'hex');
}
