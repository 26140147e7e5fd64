/**
 * Turns a cell's last value into a MIME bundle: `text/plain` from util.inspect, `application/json` when the
 * value is plain JSON data, or the bundle a value supplies itself through `MIME_BUNDLE` (never the project's own
 * MIME types: those come only from the host's display paths).
 */
import { inspect, types } from 'node:util';
import type { MimeBundle } from '../../../../shared/index.js';
import { describeError, reportRefusal } from '../../core/index.js';
import { readingUntrustedValue } from '../../harness/index.js';

/** A value with a method under this symbol renders itself: `[MIME_BUNDLE]() => MimeBundle`. */
export const MIME_BUNDLE = Symbol.for('nighthawk.mimeBundle');

const MAX_JSON_CHARS = 1_000_000;

// Captured when the kernel loads, before any cell runs: a value's bundle is read with these, never with what model
// code may have put on the built-ins since.
const { apply, defineProperty, getOwnPropertyDescriptor, getPrototypeOf, ownKeys } = Reflect;
const { isProxy } = types;
const isArray = Array.isArray;
const hasOwn = Object.hasOwn;
const isFinite = Number.isFinite;
const uncurry = <A extends unknown[], R>(fn: (this: string, ...args: A) => R) => (self: string, ...args: A): R => apply(fn, self, args);
const lowerCase = uncurry(String.prototype.toLowerCase);
const trimmed = uncurry(String.prototype.trim);
const startsWith = uncurry(String.prototype.startsWith);

/**
 * Every `NighthawkMime` type starts so (shared/mime.ts). The web notebook draws them as the host's own views (a run
 * "completed", a ledger, an anomaly alert, an approval card with buttons), so a value's bundle may not carry one.
 * Compared case-blind and trimmed: what a frontend might read as the type, not only the exact constant.
 */
const PROJECT_MIME_PREFIX = 'application/vnd.nighthawk';
const isProjectMime = (type: string): boolean => startsWith(lowerCase(trimmed(type)), PROJECT_MIME_PREFIX);

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
  const render = rendererOf(value);
  if (render) {
    const bundle = ownBundle(apply(render, value, []));
    if (bundle) {
      if (typeof getOwnPropertyDescriptor(bundle, 'text/plain')?.value !== 'string') put(bundle, 'text/plain', inspect(value, { depth: 4 }));
      return bundle;
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

/** The value's own renderer: a method under MIME_BUNDLE found by descriptors (no getter, no proxy trap runs). */
function rendererOf(value: unknown): ((this: unknown) => unknown) | undefined {
  let holder: unknown = value;
  for (let depth = 0; depth < 64 && holder !== null && typeof holder === 'object'; depth++) {
    if (isProxy(holder)) return undefined;
    const found = getOwnPropertyDescriptor(holder, MIME_BUNDLE);
    if (found) return hasOwn(found, 'value') && typeof found.value === 'function' ? (found.value as (this: unknown) => unknown) : undefined;
    holder = getPrototypeOf(holder);
  }
  return undefined;
}

/**
 * A copy of the bundle a renderer returned, as plain data read by descriptors: enumerable data properties only, so
 * no getter, proxy trap or `toJSON` of the value runs now or when the kernel serializes the message (outside the
 * untrusted read). Project MIME types are dropped and the attempt recorded (`display_forged_mime`).
 */
export function ownBundle(bundle: unknown): MimeBundle | undefined {
  if (bundle === null || typeof bundle !== 'object' || isProxy(bundle)) return undefined;
  const result: MimeBundle = {};
  const forged: string[] = [];
  const budget = { left: MAX_JSON_CHARS };
  eachDataField(bundle, (key, value) => {
    if (isProjectMime(key)) {
      put(forged, `${forged.length}`, key);
      return;
    }
    try {
      const data = plainData(value, 0, budget, []);
      if (data !== undefined) put(result, key, data);
    } catch {
      // Too large, too deep or circular: that type is left out, the others are shown.
    }
  });
  if (forged.length > 0) reportRefusal('display_forged_mime', { mimeTypes: forged });
  return result;
}

/** JSON's reading of a value, by descriptors: functions, symbols, accessors and proxies are left out, never called. */
function plainData(value: unknown, depth: number, budget: { left: number }, path: object[]): unknown {
  if ((budget.left -= typeof value === 'string' ? value.length + 1 : 1) < 0) throw new RangeError('bundle too large');
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return isFinite(value) ? value : null;
  if (typeof value !== 'object' || isProxy(value)) return undefined;
  if (depth > 64) throw new RangeError('bundle too deep');
  for (let i = 0; i < path.length; i++) if (path[i] === value) throw new TypeError('circular bundle');
  put(path, `${path.length}`, value);
  try {
    if (isArray(value)) {
      const length = getOwnPropertyDescriptor(value, 'length')!.value as number;
      const out: unknown[] = [];
      for (let i = 0; i < length; i++) {
        const item = getOwnPropertyDescriptor(value, `${i}`);
        const data = item && hasOwn(item, 'value') ? plainData(item.value, depth + 1, budget, path) : undefined;
        put(out, `${i}`, data === undefined ? null : data);
      }
      return out;
    }
    const out: Record<string, unknown> = {};
    eachDataField(value, (key, field) => {
      const data = plainData(field, depth + 1, budget, path);
      if (data !== undefined) put(out, key, data);
    });
    return out;
  } finally {
    path.length--;
  }
}

/** Calls `fn` with each own, enumerable, string-keyed data property of `target`, in key order (accessors skipped, never run). */
function eachDataField(target: object, fn: (key: string, value: unknown) => void): void {
  const keys = ownKeys(target);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (typeof key !== 'string') continue;
    const field = getOwnPropertyDescriptor(target, key);
    if (field && field.enumerable && hasOwn(field, 'value')) fn(key, field.value);
  }
}

/** Defines rather than assigns: a key such as `__proto__`, or an index, stays data and reaches no setter on a prototype. */
function put(target: object, key: string, value: unknown): void {
  defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}
