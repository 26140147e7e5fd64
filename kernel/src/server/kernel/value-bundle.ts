/**
 * Turns a cell's last value into a MIME bundle: `text/plain` from util.inspect, `application/json` when the
 * value is plain JSON data, or the bundle a value supplies itself through `MIME_BUNDLE`.
 */
import { inspect } from 'node:util';
import type { MimeBundle } from '../../../../shared/index.js';
import { describeError } from '../../core/index.js';
import { readingUntrustedValue } from '../../harness/index.js';

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

/**
 * A cell's last value may hold what a model built (a write binding returned by a SessionFunction): reading it
 * runs its MIME-bundle method, getters and custom inspector, so it is read as not-the-operator (an operator
 * control or an approved adapter a model planted there is refused and recorded, see readingUntrustedValue).
 */
export function valueToBundle(value: unknown, errorText?: (error: Error) => string): MimeBundle {
  return readingUntrustedValue('a cell value being displayed', () => {
    try {
      // An error as the value: told as a cell's own error is (cell frames, not the kernel's), when asked to.
      if (errorText && value instanceof Error) return { 'text/plain': errorText(value) };
      return bundleOf(value);
    } catch (error) {
      // A refused control, or a getter that throws: the cell still shows that its value could not be shown.
      return { 'text/plain': `[this value could not be displayed: ${describeError(error, 300)}]` };
    }
  });
}

function bundleOf(value: unknown): MimeBundle {
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
