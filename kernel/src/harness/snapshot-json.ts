/**
 * Persistence form of a ledger snapshot. JSON cannot carry undefined, bigint, symbols, -0 or non-finite
 * numbers, so those become `$kind`-tagged objects; everything else keeps the snapshot's shape.
 */
import type { Snapshot } from './snapshot.js';
import { StringCtor, append, isArray, isFiniteNumber, objectFreeze, objectIs, objectKeys, put, symbolDescription } from './intrinsics.js';


export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** A JSON-serialisable copy of a snapshot (bounded because the snapshot is). Never throws. */
export function toJSONSafe(value: Snapshot): JsonValue {
  return convert(value, 0);
}

// Snapshots are already depth-bounded; this guards values that were not produced by `snapshot`.
const MAX_DEPTH = 256;

function convert(value: unknown, depth: number): JsonValue {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (isFiniteNumber(value) && !objectIs(value, -0)) return value;
      return { $kind: 'number', value: objectIs(value, -0) ? '-0' : StringCtor(value) };
    case 'bigint':
      return { $kind: 'bigint', value: StringCtor(value) };
    case 'symbol':
      return { $kind: 'symbol', description: symbolDescription(value) ?? null };
    case 'undefined':
      return { $kind: 'undefined' };
    case 'function':
      return { $kind: 'unrepresentable', reason: 'a live function is not a snapshot' };
  }
  if (value === null) return null;
  if (depth >= MAX_DEPTH) return { $kind: 'truncated', reason: 'depth' };
  try {
    if (isArray(value)) {
      const items: JsonValue[] = [];
      for (let i = 0; i < value.length; i++) append(items, convert(value[i], depth + 1));
      return items;
    }
    const out: Record<string, JsonValue> = {};
    const record = value as Record<string, unknown>;
    const keys = objectKeys(record);
    // Snapshots hold only data properties, so reading them runs no user code; `put` also keeps `__proto__` a key.
    for (let i = 0; i < keys.length; i++) put(out, keys[i]!, convert(record[keys[i]!], depth + 1));
    return out;
  } catch {
    return { $kind: 'unrepresentable', reason: 'value could not be read for persistence' };
  }
}

/**
 * The inverse of `toJSONSafe`: a persisted snapshot back in its snapshot form, deep-frozen. Plain objects
 * with an own `$kind` key never occur in snapshots (they are wrapped as `{ $kind: 'object' }`), so the
 * tags are unambiguous.
 */
export function fromJSONSafe(value: unknown): Snapshot {
  return revive(value, 0);
}

function revive(value: unknown, depth: number): Snapshot {
  if (value === null || typeof value !== 'object') return value as Snapshot;
  if (depth >= MAX_DEPTH) return objectFreeze({ $kind: 'truncated', reason: 'depth' }) as Snapshot;
  if (isArray(value)) {
    const items: Snapshot[] = [];
    for (let i = 0; i < value.length; i++) append(items, revive(value[i], depth + 1));
    return objectFreeze(items);
  }
  const record = value as Record<string, unknown>;
  switch (record.$kind) {
    case 'undefined':
      return undefined;
    case 'bigint':
      if (typeof record.value === 'string' && /^-?\d+$/.test(record.value)) return BigInt(record.value);
      break;
    case 'number':
      if (typeof record.value === 'string') return record.value === '-0' ? -0 : Number(record.value);
      break;
    case 'symbol':
      return Symbol(typeof record.description === 'string' ? record.description : undefined);
  }
  const out: Record<string, Snapshot> = {};
  const keys = objectKeys(record);
  for (let i = 0; i < keys.length; i++) put(out, keys[i]!, revive(record[keys[i]!], depth + 1));
  return objectFreeze(out);
}
