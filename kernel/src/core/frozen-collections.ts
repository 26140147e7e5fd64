/**
 * Read-only collections that really are read-only. `Object.freeze(new Set())` still lets `add` and
 * `Set.prototype.add.call` change it; these keep their entries in a private field, are frozen, and
 * are not Set/Map instances, so no built-in mutator accepts them. Policies, authorities and a step's binding names use them.
 */
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
}
Object.freeze(FrozenMap.prototype);
