/** Canonical JSON (sorted keys) and a structural diff that names the first differing path. */

/** JSON text with object keys sorted at every level, so equal values give equal strings. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'undefined';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(record).sort()) {
    if (record[key] !== undefined) out[key] = sortKeys(record[key]);
  }
  return out;
}

export interface Difference {
  /** `messages[2].content`, `tools[0]`, `model` … */
  readonly path: string;
  readonly expected: unknown;
  readonly actual: unknown;
}

/**
 * The first place where two JSON values differ, walking arrays by index and objects by key
 * (`keyOrder` first, then the remaining keys sorted). Undefined when they are equal.
 */
export function firstDifference(expected: unknown, actual: unknown, keyOrder: readonly string[] = [], path = ''): Difference | undefined {
  if (canonicalJson(expected) === canonicalJson(actual)) return undefined;
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const length = Math.max(expected.length, actual.length);
    for (let i = 0; i < length; i++) {
      const found = firstDifference(expected[i], actual[i], [], `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (isRecord(expected) && isRecord(actual)) {
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort();
    const ordered = [...keyOrder.filter((k) => keys.includes(k)), ...keys.filter((k) => !keyOrder.includes(k))];
    for (const key of ordered) {
      const found = firstDifference(expected[key], actual[key], [], path ? `${path}.${key}` : key);
      if (found) return found;
    }
    return undefined;
  }
  return { path: path || '(root)', expected, actual };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
