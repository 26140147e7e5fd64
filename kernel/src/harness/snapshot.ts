/**
 * Immutable snapshots of arbitrary values for the run ledger (seed 001 "Ledger values are snapshots").
 *
 * `snapshot` is total: it never throws and never invokes user getters. Containers are copied and frozen;
 * values without a faithful copy become `$kind`-tagged descriptors. Proxy traps are the one exception to
 * "no user code": a proxy is read through its traps, and a trap that throws makes the value unrepresentable.
 * Like JSON, only own enumerable string-keyed properties are copied; symbol keys and private fields are not.
 */
import { types } from 'node:util';
import { hasRegisteredSecrets, redactTextNoting } from '../core/index.js';
import {
  TYPED_ARRAY_PROTOTYPE,
  callableKind,
  classNameOf,
  dataValue,
  inheritedData,
  intrinsic,
  isWeakRef,
  regexpParts,
  safeDescribe,
  unbox,
} from './snapshot-reflect.js';
import { defineProperty, deleteProperty, getOwnPropertyDescriptor, isArray, objectFreeze, objectKeys } from './intrinsics.js';

export { fromJSONSafe, toJSONSafe, type JsonValue } from './snapshot-json.js';

/** Immutable primitives are kept as they are; `toJSONSafe` tags the ones JSON cannot carry. */
export type SnapshotPrimitive = null | undefined | boolean | number | string | bigint | symbol;
/** A plain object's copy. It never has an own `$kind` key: such objects are wrapped in `{ $kind: 'object' }`. */
export type SnapshotObject = { readonly [key: string]: Snapshot };
export type Snapshot = SnapshotPrimitive | readonly Snapshot[] | SnapshotObject | SnapshotDescriptor;

export interface CallableDescriptor {
  readonly $kind: 'callable';
  readonly name: string;
  readonly callableKind: 'function' | 'async-function' | 'generator' | 'async-generator' | 'class' | 'proxy';
  /** Run-local definition identity, present when `describeCallable` recognised the function. */
  readonly definitionId?: string;
}

export type SnapshotDescriptor =
  | CallableDescriptor
  | { readonly $kind: 'object'; readonly properties: SnapshotObject; readonly omitted?: number }
  | { readonly $kind: 'instance'; readonly className: string; readonly properties: SnapshotObject; readonly omitted?: number }
  | { readonly $kind: 'accessor'; readonly getter: boolean; readonly setter: boolean }
  | { readonly $kind: 'date'; readonly epochMs: number; readonly iso: string | null }
  | { readonly $kind: 'map'; readonly entries: readonly (readonly [Snapshot, Snapshot])[]; readonly omitted?: number }
  | { readonly $kind: 'set'; readonly values: readonly Snapshot[]; readonly omitted?: number }
  | { readonly $kind: 'typed-array'; readonly type: string; readonly values: readonly (number | bigint)[]; readonly omitted?: number }
  | { readonly $kind: 'regexp'; readonly source: string; readonly flags: string }
  | { readonly $kind: 'boxed'; readonly value: SnapshotPrimitive }
  | {
      readonly $kind: 'error';
      readonly name: string;
      readonly message: string;
      readonly stack?: string;
      readonly cause?: Snapshot;
      readonly errors?: Snapshot;
      readonly properties: SnapshotObject;
      readonly omitted?: number;
    }
  | { readonly $kind: 'cycle'; readonly target: string }
  | { readonly $kind: 'unrepresentable'; readonly reason: string }
  | { readonly $kind: 'truncated'; readonly reason: 'depth' | 'size' | 'entries' | 'string-length'; readonly omitted?: number; readonly length?: number; readonly preview?: string };

export interface SnapshotOptions {
  /** Containers nested deeper than this become `{ $kind: 'truncated', reason: 'depth' }`. Default 32. */
  readonly maxDepth?: number;
  /** Objects visited in total before the rest become `{ $kind: 'truncated', reason: 'size' }`. Default 10,000. */
  readonly maxNodes?: number;
  /** Entries copied per container; the remainder is counted in `omitted`. Default 1,000. */
  readonly maxEntries?: number;
  /** Longer strings become a truncated descriptor with a preview. Default 100,000. */
  readonly maxStringLength?: number;
  /** Lets the host record generated functions by definition identity instead of a generic descriptor. */
  readonly describeCallable?: (fn: Function) => { readonly definitionId: string; readonly name?: string } | undefined;
}

const DEFAULTS = { maxDepth: 32, maxNodes: 10_000, maxEntries: 1_000, maxStringLength: 100_000 } as const;

interface Walk {
  readonly options: Required<Omit<SnapshotOptions, 'describeCallable'>> & Pick<SnapshotOptions, 'describeCallable'>;
  /** Objects on the path from the root to the current value, mapped to their depth in `path`. */
  readonly ancestors: Map<object, number>;
  /** Keys from the root to the current value; formatted only when a cycle needs naming. */
  readonly path: (string | number)[];
  nodes: number;
}

/** A deep-frozen, bounded representation of `value`. Never throws. */
export function snapshot(value: unknown, options: SnapshotOptions = {}): Snapshot {
  const walk: Walk = {
    options: {
      maxDepth: options.maxDepth ?? DEFAULTS.maxDepth,
      maxNodes: options.maxNodes ?? DEFAULTS.maxNodes,
      maxEntries: options.maxEntries ?? DEFAULTS.maxEntries,
      maxStringLength: options.maxStringLength ?? DEFAULTS.maxStringLength,
      describeCallable: options.describeCallable,
    },
    ancestors: new Map(),
    path: [],
    nodes: 0,
  };
  return visit(walk, value, 0);
}

/**
 * `snapshot` with every registered secret redacted from its strings and keys in the same walk, and the
 * names of the secrets it redacted (one per occurrence kind, in first-seen order). Each container is
 * redacted as it is frozen, over its own entries only, so the output is never walked a second time.
 */
export function snapshotRedacted(value: unknown, options: SnapshotOptions = {}): { readonly snapshot: Snapshot; readonly redacted: readonly string[] } {
  if (!hasRegisteredSecrets()) return { snapshot: snapshot(value, options), redacted: [] };
  const outer = redaction;
  const found: string[] = [];
  redaction = found;
  try {
    const out = snapshot(value, options);
    return { snapshot: typeof out === 'string' ? redactTextNoting(out, found) : out, redacted: unique(found) };
  } finally {
    redaction = outer;
  }
}

/** Where the current redacting walk collects the names it redacted; undefined outside one. */
let redaction: string[] | undefined;

function unique(names: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < names.length; i++) {
    let seen = false;
    for (let j = 0; j < out.length && !seen; j++) seen = out[j] === names[i];
    if (!seen) out[out.length] = names[i]!;
  }
  return out;
}

/**
 * Redacts a container's own string entries and keys before it is frozen (its children are already done).
 * Through the intrinsics captured at load: interior code may have replaced `Object.keys` and the like during
 * the operation this record is for, and a redaction that asked the replacement would skip what it is told to.
 */
function redactOwn(value: object, found: string[]): void {
  if (isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === 'string') value[i] = redactTextNoting(item, found);
    }
    return;
  }
  const record = value as Record<string, unknown>;
  const keys = objectKeys(record);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const item = getOwnPropertyDescriptor(record, key)!.value as unknown;
    const redactedItem = typeof item === 'string' ? redactTextNoting(item, found) : item;
    const redactedKey = redactTextNoting(key, found);
    if (redactedKey !== key) deleteProperty(record, key);
    if (redactedKey !== key || redactedItem !== item) defineProperty(record, redactedKey, { value: redactedItem, enumerable: true, writable: true, configurable: true });
  }
}

/** Visits a contained value under `key`. `visit` never throws, so the path stack stays balanced. */
function child(walk: Walk, value: unknown, depth: number, key: string | number): Snapshot {
  walk.path.push(key);
  const out = visit(walk, value, depth + 1);
  walk.path.pop();
  return out;
}

function pathText(path: readonly (string | number)[], length: number): string {
  let text = '$';
  for (let i = 0; i < length; i++) text += typeof path[i] === 'number' ? `[${path[i]}]` : `.${path[i]}`;
  return text;
}

function visit(walk: Walk, value: unknown, depth: number): Snapshot {
  if (typeof value === 'string') {
    if (value.length <= walk.options.maxStringLength) return value; // redacted by its container
    // Redacted before the cut, so a preview never holds part of a secret.
    const text = redaction === undefined ? value : redactTextNoting(value, redaction);
    return frozen({
      $kind: 'truncated',
      reason: 'string-length',
      length: value.length,
      preview: text.slice(0, walk.options.maxStringLength),
    });
  }
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return value as SnapshotPrimitive;

  const ancestor = walk.ancestors.get(value);
  if (ancestor !== undefined) return frozen({ $kind: 'cycle', target: pathText(walk.path, ancestor) });
  if (depth >= walk.options.maxDepth) return frozen({ $kind: 'truncated', reason: 'depth' });
  if (walk.nodes >= walk.options.maxNodes) return frozen({ $kind: 'truncated', reason: 'size' });
  walk.nodes++;

  const pathLength = walk.path.length;
  walk.ancestors.set(value, pathLength);
  try {
    return typeof value === 'function' ? callable(walk, value) : container(walk, value, depth);
  } catch (error) {
    walk.path.length = pathLength; // a stack overflow deep inside may have left keys behind
    return frozen({ $kind: 'unrepresentable', reason: safeDescribe(error) });
  } finally {
    walk.ancestors.delete(value);
  }
}

function container(walk: Walk, value: object, depth: number): Snapshot {
  if (types.isProxy(value)) Reflect.ownKeys(value); // a revoked proxy throws here, before any other probe

  if (Array.isArray(value)) return array(walk, value, depth);
  const proto = Object.getPrototypeOf(value) as object | null;
  if (proto === Object.prototype || proto === null) return plainObject(walk, value, depth);
  if (types.isDate(value)) {
    const epochMs = Date.prototype.getTime.call(value);
    return frozen({ $kind: 'date', epochMs, iso: Number.isNaN(epochMs) ? null : new Date(epochMs).toISOString() });
  }
  if (types.isMap(value)) {
    const entries: (readonly [Snapshot, Snapshot])[] = [];
    let index = 0;
    for (const [k, v] of Map.prototype.entries.call(value) as IterableIterator<[unknown, unknown]>) {
      if (index >= walk.options.maxEntries) break;
      entries.push(frozen([child(walk, k, depth, `<key ${index}>`), child(walk, v, depth, `<value ${index}>`)] as const));
      index++;
    }
    const size = intrinsic(Map.prototype, 'size', value) as number;
    return frozen({ $kind: 'map', entries: frozen(entries), ...omitted(size - entries.length) });
  }
  if (types.isSet(value)) {
    const values: Snapshot[] = [];
    for (const v of Set.prototype.values.call(value) as IterableIterator<unknown>) {
      if (values.length >= walk.options.maxEntries) break;
      values.push(child(walk, v, depth, `<${values.length}>`));
    }
    const size = intrinsic(Set.prototype, 'size', value) as number;
    return frozen({ $kind: 'set', values: frozen(values), ...omitted(size - values.length) });
  }
  if (types.isTypedArray(value)) return typedArray(walk, value);
  if (types.isArrayBuffer(value) || types.isSharedArrayBuffer(value)) {
    return bytes(walk, 'ArrayBuffer', new Uint8Array(value));
  }
  if (types.isDataView(value)) {
    const view = new Uint8Array(
      intrinsic(DataView.prototype, 'buffer', value) as ArrayBuffer,
      intrinsic(DataView.prototype, 'byteOffset', value) as number,
      intrinsic(DataView.prototype, 'byteLength', value) as number,
    );
    return bytes(walk, 'DataView', view);
  }
  if (types.isNativeError(value)) return errorSnapshot(walk, value, depth);
  if (types.isRegExp(value)) return frozen({ $kind: 'regexp', ...regexpParts(value) });
  if (types.isBoxedPrimitive(value)) return frozen({ $kind: 'boxed', value: unbox(value) });
  if (types.isPromise(value) || types.isWeakMap(value) || types.isWeakSet(value) || isWeakRef(value)) {
    return frozen({ $kind: 'unrepresentable', reason: `${classNameOf(value) ?? 'object'} has no observable value to copy` });
  }

  const className = classNameOf(value);
  if (className === undefined) return plainObject(walk, value, depth); // plain object from another realm
  const { properties, rest } = ownProperties(walk, value, depth);
  return frozen({ $kind: 'instance', className, properties: frozen(properties), ...omitted(rest) });
}

/** A plain object keeps its shape unless it could be mistaken for a descriptor or was cut short. */
function plainObject(walk: Walk, value: object, depth: number): Snapshot {
  const { properties, rest } = ownProperties(walk, value, depth);
  if (rest === 0 && !Object.prototype.hasOwnProperty.call(properties, '$kind')) return frozen(properties);
  return frozen({ $kind: 'object', properties: frozen(properties), ...omitted(rest) });
}

function array(walk: Walk, value: readonly unknown[], depth: number): Snapshot {
  const length = value.length;
  const limit = Math.min(length, walk.options.maxEntries);
  const out: Snapshot[] = [];
  for (let i = 0; i < limit; i++) {
    const descriptor = Object.getOwnPropertyDescriptor(value, i);
    out.push(
      descriptor === undefined || 'value' in descriptor
        ? child(walk, descriptor?.value, depth, i)
        : frozen({ $kind: 'accessor', getter: descriptor.get !== undefined, setter: descriptor.set !== undefined }),
    );
  }
  if (length > limit) out.push(frozen({ $kind: 'truncated', reason: 'entries', omitted: length - limit }));
  return frozen(out);
}

/** Own enumerable string-keyed properties; accessors are described, never invoked. */
function ownProperties(walk: Walk, value: object, depth: number): { properties: SnapshotObject; rest: number } {
  const keys = Object.keys(value);
  const properties: Record<string, Snapshot> = {};
  const limit = Math.min(keys.length, walk.options.maxEntries);
  for (let i = 0; i < limit; i++) {
    const key = keys[i]!;
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    const entry: Snapshot =
      descriptor === undefined
        ? undefined
        : 'value' in descriptor
          ? child(walk, descriptor.value, depth, key)
          : frozen({ $kind: 'accessor', getter: descriptor.get !== undefined, setter: descriptor.set !== undefined });
    // Assigning `__proto__` would call the setter; defineProperty keeps it an ordinary own key.
    if (key === '__proto__') Object.defineProperty(properties, key, { value: entry, enumerable: true, writable: true, configurable: true });
    else properties[key] = entry;
  }
  return { properties, rest: keys.length - limit };
}

function errorSnapshot(walk: Walk, value: object, depth: number): Snapshot {
  const name = inheritedData(value, 'name');
  const message = dataValue(value, 'message');
  const stack = dataValue(value, 'stack');
  const cause = Object.getOwnPropertyDescriptor(value, 'cause');
  const errors = Object.getOwnPropertyDescriptor(value, 'errors');
  const { properties, rest } = ownProperties(walk, value, depth);
  return frozen({
    $kind: 'error',
    name: typeof name === 'string' ? name : 'Error',
    message: typeof message === 'string' ? message : '',
    ...(typeof stack === 'string' ? { stack } : {}),
    ...(cause && 'value' in cause ? { cause: child(walk, cause.value, depth, 'cause') } : {}),
    ...(errors && 'value' in errors ? { errors: child(walk, errors.value, depth, 'errors') } : {}),
    properties: frozen(properties),
    ...omitted(rest),
  });
}

function callable(walk: Walk, fn: Function): Snapshot {
  const name = dataValue(fn, 'name');
  const base: CallableDescriptor = {
    $kind: 'callable',
    name: typeof name === 'string' ? name : '',
    callableKind: callableKind(fn),
  };
  if (walk.options.describeCallable) {
    let identity: ReturnType<NonNullable<SnapshotOptions['describeCallable']>>;
    try {
      identity = walk.options.describeCallable(fn);
    } catch (error) {
      return frozen({ $kind: 'unrepresentable', reason: `describeCallable failed: ${safeDescribe(error)}` });
    }
    if (identity !== undefined) {
      const definitionId = String(identity.definitionId);
      return frozen({ ...base, definitionId, ...(identity.name === undefined ? {} : { name: String(identity.name) }) });
    }
  }
  return frozen(base);
}

function typedArray(walk: Walk, value: ArrayBufferView): Snapshot {
  const type = String(intrinsic(TYPED_ARRAY_PROTOTYPE, Symbol.toStringTag, value));
  const view = value as unknown as ArrayLike<number | bigint>;
  const length = intrinsic(TYPED_ARRAY_PROTOTYPE, 'length', value) as number;
  const limit = Math.min(length, walk.options.maxEntries);
  const values: (number | bigint)[] = [];
  for (let i = 0; i < limit; i++) values.push(view[i]!);
  return frozen({ $kind: 'typed-array', type, values: frozen(values), ...omitted(length - limit) });
}

function bytes(walk: Walk, type: string, view: Uint8Array): Snapshot {
  const limit = Math.min(view.length, walk.options.maxEntries);
  return frozen({ $kind: 'typed-array', type, values: frozen(Array.from(view.subarray(0, limit))), ...omitted(view.length - limit) });
}

function omitted(count: number): { omitted?: number } {
  return count > 0 ? { omitted: count } : {};
}

function frozen<T>(value: T): T {
  if (redaction !== undefined && typeof value === 'object' && value !== null) redactOwn(value, redaction);
  // Captured: a ledger record must stay frozen even if interior code replaced Object.freeze meanwhile.
  return objectFreeze(value);
}
