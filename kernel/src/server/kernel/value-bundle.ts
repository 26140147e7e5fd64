/**
 * Turns a cell's last value into a MIME bundle: `text/plain` from util.inspect, `application/json` when the
 * value is plain JSON data, or the bundle a value supplies itself through `MIME_BUNDLE`.
 */
import { inspect } from 'node:util';
import type { MimeBundle } from '../../../../shared/index.js';

/** A value with a method under this symbol renders itself: `[MIME_BUNDLE]() => MimeBundle`. */
export const MIME_BUNDLE = Symbol.for('nighthawk.mimeBundle');

const MAX_JSON_CHARS = 1_000_000;

function isPlainJson(value: unknown, depth: number, seen: Set<object>): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object' || depth > 64 || seen.has(value)) return false;
  seen.add(value);
  if (Array.isArray(value)) return value.every((v) => isPlainJson(v, depth + 1, seen));
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  return Object.values(value).every((v) => isPlainJson(v, depth + 1, seen));
}

export function valueToBundle(value: unknown): MimeBundle {
  if (value !== null && typeof value === 'object') {
    const render = (value as Record<symbol, unknown>)[MIME_BUNDLE];
    if (typeof render === 'function') {
      const bundle: unknown = render.call(value);
      if (bundle !== null && typeof bundle === 'object') {
        const result = { ...(bundle as MimeBundle) };
        if (typeof result['text/plain'] !== 'string') result['text/plain'] = inspect(value, { depth: 4 });
        return result;
      }
    }
  }
  const bundle: MimeBundle = { 'text/plain': inspect(value, { depth: 4, maxArrayLength: 200, maxStringLength: 100_000 }) };
  if (value === null) {
    bundle['application/json'] = null;
  } else if (typeof value === 'object' && isPlainJson(value, 0, new Set())) {
    const text = JSON.stringify(value);
    if (text.length <= MAX_JSON_CHARS) bundle['application/json'] = JSON.parse(text) as unknown;
  } else if (typeof value !== 'object' && isPlainJson(value, 0, new Set())) {
    bundle['application/json'] = value;
  }
  return bundle;
}
