/**
 * The text/plain fallbacks (run view, anomaly lines, displayLedger, approval cards and prompts) hold strings a model
 * controls: an expression, a tool name, a value preview, an error message, what a run printed. Terminals and saved
 * notebooks show text/plain as it is, so a line break there would add a line that looks like the host's ("trace
 * anomaly …", "run agent (…): completed"), and an escape sequence, a carriage return or a bidi override would redraw
 * or reorder what the operator reads. Such characters are shown escaped instead, visibly (`\n`, `\u001b`).
 */

/**
 * C0 controls, DEL and C1 controls; line and paragraph separators; bidi embeddings, overrides and isolates, and the
 * bidi marks (ALM, LRM, RLM).
 */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

const escaped = (c: string): string => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `text` on one line, its control characters escaped (the backslash itself is not: nothing it shows is a control). */
export function oneLine(text: string): string {
  return text.replace(CONTROLS, escaped);
}

/** Printed output: its line breaks kept (each line is marked as printed by its caller), every other control escaped. */
export function printedLines(text: string): string[] {
  return text.replace(/\r?\n$/, '').split(/\r?\n/).map(oneLine);
}
