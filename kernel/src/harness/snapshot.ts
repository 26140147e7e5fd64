/**
 * Immutable snapshots of arbitrary values for the run ledger (seed 001 "Ledger values are snapshots").
 *
 * `snapshot` is total: it never throws and never invokes user getters. Containers are copied and frozen;
 * values without a faithful copy become `$kind`-tagged descriptors. Proxy traps are the one exception to
 * "no user code": a proxy is read through its traps, and a trap that throws makes the value unrepresentable.
 * Like JSON, only own enumerable string-keyed properties are copied; symbol keys and private fields are not.
 *
 * Records are also written while interior code runs (a capability call inside generated code), with built-ins
 * it may have replaced. So the walk reads values only through intrinsics captured at load, loops by index
 * (no iterator protocol), and builds its copies with definitions (`put`/`append`), never assignment or `push`,
 * which would run a setter defined on a shared prototype.
 */
import { hasRegisteredSecrets, operatorValue, redactTextNoting } from '../core/index.js';
import {
  callableKind,
  classNameOf,
  dataValue,
  dataViewBuffer,
  dataViewByteLength,
  dataViewByteOffset,
  describeThrown,
  inheritedData,
  isArrayBuffer,
  isBoxedPrimitive,
  isDataView,
  isDate,
  isMap,
  isNativeError,
  isPromise,
  isProxy,
  isRegExp,
  isSet,
  isSharedArrayBuffer,
  isTypedArray,
  isWeakMap,
  isWeakRef,
  isWeakSet,
  regexpParts,
  safeDescribe,
  typedArrayLength,
  typedArrayTag,
  unbox,
} from './snapshot-reflect.js';
import {
  ObjectPrototype,
  StringCtor,
  Uint8ArrayCtor,
  append,
  dateGetTime,
  dateToISOString,
  deleteProperty,
  getOwnPropertyDescriptor,
  getPrototypeOf,
  isArray,
  mapDelete,
  mapEntries,
  mapGet,
  mapIteratorNext,
  mapSet,
  objectCreate,
  weakMapGet,
  weakMapSet,
  mapSizeOf,
  objectFreeze,
  objectHasOwn,
  objectKeys,
  put,
  setIteratorNext,
  setSizeOf,
  setValues,
  stringSlice,
} from './intrinsics.js';

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
  /** Objects on the path from the root to the current value, mapped to where the path stood at each. */
  readonly ancestors: Map<object, PathNode>;
  path: PathNode;
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
    path: ROOT,
    nodes: 0,
  };
  try {
    return visit(walk, value, 0);
  } catch (error) {
    return frozen({ $kind: 'unrepresentable', reason: safeDescribe(error) });
  }
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

/** Snapshots taken ahead of the record that holds them, by the token standing for each (see captureSnapshot). */
const captured = new WeakMap<object, { readonly snapshot: Snapshot; readonly redacted: readonly string[] }>();

/**
 * Snapshots `value` now, for a record written later: the token it returns stands for this snapshot where a later
 * snapshot meets it as a direct field of the recorded data (seed 001: invocation inputs are captured after validation and before entering the
 * body, so a later mutation cannot rewrite them). Secrets are redacted now, and reported by the later walk.
 */
export function captureSnapshot(value: unknown, options: SnapshotOptions = {}): object {
  const token = objectFreeze(objectCreate(null) as object);
  weakMapSet(captured, token, snapshotRedacted(value, options));
  return token;
}

/** Where the current redacting walk collects the names it redacted; undefined outside one. */
let redaction: string[] | undefined;

function unique(names: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < names.length; i++) {
    let seen = false;
    for (let j = 0; j < out.length && !seen; j++) seen = out[j] === names[i];
    if (!seen) append(out, names[i]!);
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
    if (redactedKey !== key || redactedItem !== item) put(record, redactedKey, redactedItem);
  }
}

/**
 * Keys from the root to the current value, as a chain of immutable nodes: nothing is written to a shared
 * array (see `append`), and going back up is one assignment. Formatted only when a cycle needs naming.
 */
interface PathNode {
  readonly key: string | number;
  readonly parent: PathNode | undefined;
}
const ROOT: PathNode = objectFreeze({ key: '', parent: undefined });

/** Visits a contained value under `key`. `visit` never throws, so the path is always restored. */
function child(walk: Walk, value: unknown, depth: number, key: string | number): Snapshot {
  const parent = walk.path;
  walk.path = { key, parent };
  const out = visit(walk, value, depth + 1);
  walk.path = parent;
  return out;
}

function pathText(at: PathNode): string {
  let text = '';
  for (let node: PathNode | undefined = at; node !== undefined && node !== ROOT; node = node.parent) {
    text = (typeof node.key === 'number' ? `[${node.key}]` : `.${node.key}`) + text;
  }
  return '$' + text;
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
      preview: stringSlice(text, 0, walk.options.maxStringLength),
    });
  }
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return value as SnapshotPrimitive;
  // Looked up only among a record's direct fields, where the host puts a token (a capability call's arguments):
  // the walk visits every object of every record, and a lookup on each would be paid by every model operation.
  const early = depth <= 1 ? weakMapGet(captured, value) : undefined;
  if (early !== undefined) {
    if (redaction !== undefined) for (let i = 0; i < early.redacted.length; i++) append(redaction, early.redacted[i]!);
    return early.snapshot;
  }

  const ancestor = mapGet(walk.ancestors, value);
  if (ancestor !== undefined) return frozen({ $kind: 'cycle', target: pathText(ancestor) });
  if (depth >= walk.options.maxDepth) return frozen({ $kind: 'truncated', reason: 'depth' });
  if (walk.nodes >= walk.options.maxNodes) return frozen({ $kind: 'truncated', reason: 'size' });
  walk.nodes++;

  const at = walk.path;
  mapSet(walk.ancestors, value, at);
  try {
    return typeof value === 'function' ? callable(walk, value) : container(walk, value, depth);
  } catch (error) {
    walk.path = at; // a stack overflow deep inside may have left the path below here
    // Near the stack's end describing may overflow too; that throw reaches the caller's frame, which has room.
    return frozen({ $kind: 'unrepresentable', reason: describeThrown(error) });
  } finally {
    mapDelete(walk.ancestors, value);
  }
}

function container(walk: Walk, value: object, depth: number): Snapshot {
  // Walking a proxy runs its traps: functions a model may have written, run by the host outside any operation and
  // without the interior mark (so unguarded by the run-time tier). Recorded as what it is, never walked.
  if (isProxy(value)) {
    // Operator data a model read through its membrane (model-facing.ts): recorded as the operator's object it shows.
    // Looked up here, among proxies only: every record's every object passes the lines above.
    const own = operatorValue(value);
    return own === value ? frozen({ $kind: 'unrepresentable', reason: 'a Proxy (live or revoked): the host does not run its traps' }) : container(walk, own, depth);
  }

  if (isArray(value)) return array(walk, value, depth);
  const proto = getPrototypeOf(value);
  if (proto === ObjectPrototype || proto === null) return plainObject(walk, value, depth);
  if (isDate(value)) {
    const epochMs = dateGetTime(value);
    return frozen({ $kind: 'date', epochMs, iso: epochMs !== epochMs ? null : dateToISOString(value) });
  }
  if (isMap(value)) {
    const entries: (readonly [Snapshot, Snapshot])[] = [];
    const it = mapEntries(value);
    for (let step = mapIteratorNext(it); !step.done && entries.length < walk.options.maxEntries; step = mapIteratorNext(it)) {
      const index = entries.length;
      const pair = step.value;
      append(entries, frozen([child(walk, pair[0], depth, `<key ${index}>`), child(walk, pair[1], depth, `<value ${index}>`)] as const));
    }
    return frozen({ $kind: 'map', entries: frozen(entries), ...omitted(mapSizeOf(value) - entries.length) });
  }
  if (isSet(value)) {
    const values: Snapshot[] = [];
    const it = setValues(value);
    for (let step = setIteratorNext(it); !step.done && values.length < walk.options.maxEntries; step = setIteratorNext(it)) {
      append(values, child(walk, step.value, depth, `<${values.length}>`));
    }
    return frozen({ $kind: 'set', values: frozen(values), ...omitted(setSizeOf(value) - values.length) });
  }
  if (isTypedArray(value)) return typedArray(walk, value);
  if (isArrayBuffer(value) || isSharedArrayBuffer(value)) {
    return bytes(walk, 'ArrayBuffer', new Uint8ArrayCtor(value));
  }
  if (isDataView(value)) {
    return bytes(walk, 'DataView', new Uint8ArrayCtor(dataViewBuffer(value), dataViewByteOffset(value), dataViewByteLength(value)));
  }
  if (isNativeError(value)) return errorSnapshot(walk, value, depth);
  if (isRegExp(value)) return frozen({ $kind: 'regexp', ...regexpParts(value) });
  if (isBoxedPrimitive(value)) return frozen({ $kind: 'boxed', value: unbox(value) });
  if (isPromise(value) || isWeakMap(value) || isWeakSet(value) || isWeakRef(value)) {
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
  if (rest === 0 && !objectHasOwn(properties, '$kind')) return frozen(properties);
  return frozen({ $kind: 'object', properties: frozen(properties), ...omitted(rest) });
}

function array(walk: Walk, value: readonly unknown[], depth: number): Snapshot {
  const length = value.length;
  const limit = min(length, walk.options.maxEntries);
  const out: Snapshot[] = [];
  for (let i = 0; i < limit; i++) {
    const descriptor = getOwnPropertyDescriptor(value, i);
    append(out, descriptor === undefined ? child(walk, undefined, depth, i) : entryOf(walk, descriptor, depth, i));
  }
  if (length > limit) append(out, frozen({ $kind: 'truncated', reason: 'entries', omitted: length - limit }));
  return frozen(out);
}

/** Own enumerable string-keyed properties; accessors are described, never invoked. */
function ownProperties(walk: Walk, value: object, depth: number): { properties: SnapshotObject; rest: number } {
  const keys = objectKeys(value);
  const properties: Record<string, Snapshot> = {};
  const limit = min(keys.length, walk.options.maxEntries);
  for (let i = 0; i < limit; i++) {
    const key = keys[i]!;
    const descriptor = getOwnPropertyDescriptor(value, key);
    // A definition, never assignment: `__proto__`, or a setter on Object.prototype, would take the value.
    put(properties, key, descriptor === undefined ? undefined : entryOf(walk, descriptor, depth, key));
  }
  return { properties, rest: keys.length - limit };
}

/** A data property's copy, or an accessor's description (own fields only: see `dataValue`). */
function entryOf(walk: Walk, descriptor: PropertyDescriptor, depth: number, key: string | number): Snapshot {
  if (objectHasOwn(descriptor, 'value')) return child(walk, descriptor.value, depth, key);
  const getter = objectHasOwn(descriptor, 'get') && descriptor.get !== undefined;
  const setter = objectHasOwn(descriptor, 'set') && descriptor.set !== undefined;
  return frozen({ $kind: 'accessor', getter, setter });
}

function min(a: number, b: number): number {
  return a < b ? a : b;
}

function errorSnapshot(walk: Walk, value: object, depth: number): Snapshot {
  const name = inheritedData(value, 'name');
  const message = dataValue(value, 'message');
  const stack = dataValue(value, 'stack');
  const cause = getOwnPropertyDescriptor(value, 'cause');
  const errors = getOwnPropertyDescriptor(value, 'errors');
  const { properties, rest } = ownProperties(walk, value, depth);
  return frozen({
    $kind: 'error',
    name: typeof name === 'string' ? name : 'Error',
    message: typeof message === 'string' ? message : '',
    ...(typeof stack === 'string' ? { stack } : {}),
    ...(cause && objectHasOwn(cause, 'value') ? { cause: child(walk, cause.value, depth, 'cause') } : {}),
    ...(errors && objectHasOwn(errors, 'value') ? { errors: child(walk, errors.value, depth, 'errors') } : {}),
    properties: frozen(properties),
    ...omitted(rest),
  });
}

function callable(walk: Walk, shown: Function): Snapshot {
  // An operator function as model code held it (model-facing.ts): recorded as that function.
  const fn = operatorValue(shown);
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
      const definitionId = StringCtor(identity.definitionId);
      return frozen({ ...base, definitionId, ...(identity.name === undefined ? {} : { name: StringCtor(identity.name) }) });
    }
  }
  return frozen(base);
}

function typedArray(walk: Walk, value: ArrayBufferView): Snapshot {
  return bytes(walk, StringCtor(typedArrayTag(value)), value);
}

/** Integer-indexed reads of a typed array run no user code, and its length comes from the captured getter. */
function bytes(walk: Walk, type: string, view: ArrayBufferView): Snapshot {
  const items = view as unknown as ArrayLike<number | bigint>;
  const length = typedArrayLength(view);
  const limit = min(length, walk.options.maxEntries);
  const values: (number | bigint)[] = [];
  for (let i = 0; i < limit; i++) append(values, items[i]!);
  return frozen({ $kind: 'typed-array', type, values: frozen(values), ...omitted(length - limit) });
}

function omitted(count: number): { omitted?: number } {
  return count > 0 ? { omitted: count } : {};
}

function frozen<T>(value: T): T {
  if (redaction !== undefined && typeof value === 'object' && value !== null) redactOwn(value, redaction);
  // Captured: a ledger record must stay frozen even if interior code replaced Object.freeze meanwhile.
  return objectFreeze(value);
}
