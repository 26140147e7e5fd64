/**
 * Read-only collections that really are read-only. `Object.freeze(new Set())` still lets `add` and
 * `Set.prototype.add.call` change it; these keep their entries in a private field, are frozen, and
 * are not Set/Map instances, so no built-in mutator accepts them. Policies, authorities and a step's binding names use them.
 * Their mutators exist only to refuse: each throws the engine's kind of TypeError for a write to a frozen value, so
 * model code calling one is told the value is frozen and the attempt is recorded (`frozen_value_write`), as a write
 * to any other frozen value is, instead of failing as "not a function" with no record.
 */
import { collectionItems, lookThroughInstancesOf } from './model-facing.js';

// Membership checks decide authority: they use the intrinsics captured at load, not whatever
// Set.prototype / Map.prototype hold later; so does filling (`new Set(values)` would call the live `add`).
const bindCall = Function.prototype.bind.bind(Function.prototype.call) as <A extends unknown[], R>(fn: (...args: A) => R) => (self: unknown, ...args: A) => R;
const setAdd = bindCall(Set.prototype.add) as <T>(set: Set<T>, value: T) => Set<T>;
const setHas = bindCall(Set.prototype.has) as <T>(set: Set<T>, value: T) => boolean;
const setSizeOf = bindCall(Object.getOwnPropertyDescriptor(Set.prototype, 'size')!.get!) as (set: Set<unknown>) => number;
const mapGet = bindCall(Map.prototype.get) as <K, V>(map: Map<K, V>, key: K) => V | undefined;
const mapHas = bindCall(Map.prototype.has) as <K>(map: Map<K, unknown>, key: K) => boolean;
const mapSet = bindCall(Map.prototype.set) as <K, V>(map: Map<K, V>, key: K, value: V) => Map<K, V>;
const mapSizeOf = bindCall(Object.getOwnPropertyDescriptor(Map.prototype, 'size')!.get!) as (map: Map<unknown, unknown>) => number;
const objectFreeze = Object.freeze;
const isArray = Array.isArray;
const arrayFrom = Array.from;
// Captured: model code may replace the global TypeError; a refusal must still be the engine's own kind.
const NativeTypeError = TypeError;
const stringOf = String;
const stringSlice = bindCall(String.prototype.slice) as (text: string, start: number, end: number) => string;
const KEY_SHOWN = 80;

/** A key as a refusal names it, without running model code: primitives as text (bounded), objects by kind. */
function keyText(key: unknown): string {
  if (key === null || (typeof key !== 'object' && typeof key !== 'function')) {
    const text = typeof key === 'symbol' ? 'a symbol' : stringOf(key);
    return text.length > KEY_SHOWN ? `${stringSlice(text, 0, KEY_SHOWN)}…` : text;
  }
  return typeof key === 'function' ? 'a function' : 'an object';
}

function refuse(message: string): never {
  throw new NativeTypeError(message);
}

const listOf = <T>(values: Iterable<T>): readonly T[] => (isArray(values) ? (values as readonly T[]) : arrayFrom(values));

export class FrozenSet<T> implements ReadonlySet<T> {
  readonly #set: Set<T>;
  constructor(values: Iterable<T>) {
    this.#set = new Set();
    const items = listOf(values);
    for (let i = 0; i < items.length; i++) setAdd(this.#set, items[i]!);
    objectFreeze(this);
  }
  get size(): number {
    return setSizeOf(this.#set);
  }
  has(value: T): boolean {
    return setHas(this.#set, value);
  }
  forEach(fn: (value: T, key: T, set: ReadonlySet<T>) => void, thisArg?: unknown): void {
    for (const v of this.#set) fn.call(thisArg, v, v, this);
  }
  entries(): SetIterator<[T, T]> {
    return this.#set.entries();
  }
  keys(): SetIterator<T> {
    return this.#set.keys();
  }
  values(): SetIterator<T> {
    return this.#set.values();
  }
  [Symbol.iterator](): SetIterator<T> {
    return this.#set.values();
  }
  /** Always throws: a FrozenSet is read-only. */
  add(value: T): never {
    return refuse(`Cannot add property ${keyText(value)}, object is not extensible (a FrozenSet is read-only)`);
  }
  /** Always throws: a FrozenSet is read-only. */
  delete(value: T): never {
    return refuse(`Cannot delete property '${keyText(value)}' of #<FrozenSet> (a FrozenSet is read-only)`);
  }
  /** Always throws: a FrozenSet is read-only. */
  clear(): never {
    return refuse(`Cannot delete property '*' of #<FrozenSet> (clear: a FrozenSet is read-only)`);
  }
  static {
    // Model code sees one as it is unless it holds a function (model-facing.ts).
    lookThroughInstancesOf(this.prototype, (value) => collectionItems((value as FrozenSet<unknown>).#set));
  }
}
Object.freeze(FrozenSet.prototype);

export class FrozenMap<K, V> implements ReadonlyMap<K, V> {
  readonly #map: Map<K, V>;
  constructor(entries: Iterable<readonly [K, V]>) {
    this.#map = new Map();
    const items = listOf(entries);
    for (let i = 0; i < items.length; i++) mapSet(this.#map, items[i]![0], items[i]![1]);
    objectFreeze(this);
  }
  get size(): number {
    return mapSizeOf(this.#map);
  }
  get(key: K): V | undefined {
    return mapGet(this.#map, key);
  }
  has(key: K): boolean {
    return mapHas(this.#map, key);
  }
  forEach(fn: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.#map) fn.call(thisArg, v, k, this);
  }
  entries(): MapIterator<[K, V]> {
    return this.#map.entries();
  }
  keys(): MapIterator<K> {
    return this.#map.keys();
  }
  values(): MapIterator<V> {
    return this.#map.values();
  }
  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.#map.entries();
  }
  /** Always throws: a FrozenMap is read-only. */
  set(key: K, _value: V): never {
    return refuse(`Cannot assign to read only property '${keyText(key)}' of object '#<FrozenMap>' (a FrozenMap is read-only)`);
  }
  /** Always throws: a FrozenMap is read-only. */
  delete(key: K): never {
    return refuse(`Cannot delete property '${keyText(key)}' of #<FrozenMap> (a FrozenMap is read-only)`);
  }
  /** Always throws: a FrozenMap is read-only. */
  clear(): never {
    return refuse(`Cannot delete property '*' of #<FrozenMap> (clear: a FrozenMap is read-only)`);
  }
  static {
    lookThroughInstancesOf(this.prototype, (value) => collectionItems((value as FrozenMap<unknown, unknown>).#map));
  }
}
Object.freeze(FrozenMap.prototype);
