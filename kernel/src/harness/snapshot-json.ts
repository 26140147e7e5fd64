/**
 * Persistence form of a ledger snapshot. JSON cannot carry undefined, bigint, symbols, -0 or non-finite
 * numbers, so those become `$kind`-tagged objects; everything else keeps the snapshot's shape.
 */
import type { Snapshot } from './snapshot.js';

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
      if (Number.isFinite(value) && !Object.is(value, -0)) return value;
      return { $kind: 'number', value: Object.is(value, -0) ? '-0' : String(value) };
    case 'bigint':
      return { $kind: 'bigint', value: value.toString() };
    case 'symbol':
      return { $kind: 'symbol', description: value.description ?? null };
    case 'undefined':
      return { $kind: 'undefined' };
    case 'function':
      return { $kind: 'unrepresentable', reason: 'a live function is not a snapshot' };
  }
  if (value === null) return null;
  if (depth >= MAX_DEPTH) return { $kind: 'truncated', reason: 'depth' };
  try {
    if (Array.isArray(value)) return value.map((item) => convert(item, depth + 1));
    const out: Record<string, JsonValue> = {};
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      // Snapshots hold only data properties, so reading them runs no user code.
      const item = convert(record[key], depth + 1);
      if (key === '__proto__') Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
      else out[key] = item;
    }
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
  if (depth >= MAX_DEPTH) return Object.freeze({ $kind: 'truncated', reason: 'depth' }) as Snapshot;
  if (Array.isArray(value)) return Object.freeze(value.map((item) => revive(item, depth + 1)));
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
  for (const key of Object.keys(record)) {
    const item = revive(record[key], depth + 1);
    if (key === '__proto__') Object.defineProperty(out, key, { value: item, enumerable: true, writable: false, configurable: false });
    else out[key] = item;
  }
  return Object.freeze(out);
}
