/**
 * An nbformat multiline string (a cell's `source`, a stream's `text`) as one string. Lenient, for files read
 * from disk or a browser draft: array items are stringified, anything else is empty. Kept apart from the zod
 * schemas so the web page can use it without loading zod.
 */
export function multilineText(value: unknown): string {
  if (Array.isArray(value)) return value.map(String).join('');
  return typeof value === 'string' ? value : '';
}
