/**
 * A private JSON encoder for the host's durable records. `JSON.stringify` consults `toJSON` on every
 * object, inherited ones included, so interior code that sets `Object.prototype.toJSON` (or replaces
 * `JSON.stringify`) would decide what the ledger store and perimeter audit persist. This encoder reads
 * own enumerable data only, through functions captured at load, and never calls `toJSON`.
 */
import { getOwnPropertyDescriptor, isArray, isFiniteNumber, jsonStringify as stringify, objectKeys as keys } from './intrinsics.js';

/** Encodes JSON data (as `toJSONSafe` produces) exactly as `JSON.stringify` would without `toJSON`. */
export function encodeJson(value: unknown): string {
  return encode(value, 0) ?? 'null';
}

const MAX_DEPTH = 512;

function encode(value: unknown, depth: number): string | undefined {
  switch (typeof value) {
    case 'string':
      return stringify(value);
    case 'number':
      return isFiniteNumber(value) ? `${value}` : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return stringify(`${value}`);
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  if (value === null) return 'null';
  if (depth >= MAX_DEPTH) return 'null';
  if (isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += `${i ? ',' : ''}${encode(value[i], depth + 1) ?? 'null'}`;
    return `${out}]`;
  }
  const names = keys(value as object);
  let out = '{';
  let first = true;
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const d = getOwnPropertyDescriptor(value as object, name);
    if (!d || !('value' in d)) continue;
    const item = encode(d.value, depth + 1);
    if (item === undefined) continue;
    out += `${first ? '' : ','}${stringify(name)}:${item}`;
    first = false;
  }
  return `${out}}`;
}
