/**
 * Limits on JSON the server accepts or reads: nesting depth (deep values overflow the stack of recursive
 * validators and serialisers, which turned a 5,000-level notebook into a 500) and the content type of
 * state-changing requests (a cross-site form can post text/plain or urlencoded bodies without a preflight).
 */
export const MAX_JSON_DEPTH = 256;

/** Depth of a parsed JSON value (a scalar is 0), counted without recursion; stops past `limit`. */
export function jsonDepthExceeds(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: depth + 1 });
    }
  }
  return false;
}

/** Parses JSON text; undefined when it is not JSON, 'too-deep' past the depth limit. */
export function parseBoundedJson(text: string): { ok: true; value: unknown } | { ok: false; reason: 'invalid' | 'too-deep' } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // JSON.parse itself can overflow the stack on extreme nesting.
    return { ok: false, reason: error instanceof RangeError ? 'too-deep' : 'invalid' };
  }
  return jsonDepthExceeds(value) ? { ok: false, reason: 'too-deep' } : { ok: true, value };
}

/** True when the request declares a JSON body (`application/json`, any parameters). */
export function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  return header.split(';')[0]!.trim().toLowerCase() === 'application/json';
}
