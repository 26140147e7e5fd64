/**
 * Executed cells of this kernel process, answering `history_request` the way IPython does: `tail` (last n),
 * `range` (session, start ≤ line < stop) and `search` (glob pattern over the source, `unique`, last n).
 * The current process is session 1 (0 and the request's own session number mean "this one" too); earlier
 * processes' history is not kept.
 */
import { z } from 'zod';

export const CURRENT_SESSION = 1;

/** `[session, line, source]`, or `[session, line, [source, output]]` when output was requested. */
export type HistoryEntry = [number, number, string] | [number, number, [string, string | null]];

export const HistoryRequestSchema = z.looseObject({
  output: z.boolean().optional(),
  raw: z.boolean().optional(),
  hist_access_type: z.enum(['tail', 'range', 'search']).optional(),
  session: z.number().int().optional(),
  start: z.number().int().optional(),
  stop: z.number().int().optional(),
  n: z.number().int().nullable().optional(),
  pattern: z.string().max(10_000).optional(),
  unique: z.boolean().optional(),
});
export type HistoryRequest = z.infer<typeof HistoryRequestSchema>;

interface Cell {
  line: number;
  source: string;
  output: string | null;
}

/** IPython's patterns are SQLite GLOB: `*`, `?` and `[…]`, matched against the whole source. */
export function globToRegExp(pattern: string): RegExp {
  let out = '';
  for (const token of globTokens(pattern)) {
    if (token.kind === 'star') out += '[\\s\\S]*';
    else if (token.kind === 'any') out += '[\\s\\S]';
    else if (token.kind === 'char') out += token.char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    else {
      const set = classSource(token);
      out += token.negated ? `[^${set}]` : set ? `[${set}]` : '[^\\s\\S]';
    }
  }
  return new RegExp(`^${out}$`, 'u');
}

type GlobToken =
  | { readonly kind: 'star' }
  | { readonly kind: 'any' }
  | { readonly kind: 'char'; readonly char: string }
  | { readonly kind: 'class'; readonly negated: boolean; readonly ranges: readonly (readonly [number, number])[] };

/** A class is parsed into code-point ranges (an out-of-order range matches nothing), never handed to RegExp as text. */
function globTokens(pattern: string): GlobToken[] {
  const tokens: GlobToken[] = [];
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === '*') {
      if (tokens.at(-1)?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (c === '?') tokens.push({ kind: 'any' });
    else if (c === '[') {
      const end = chars.indexOf(']', i + 2);
      if (end < 0) {
        tokens.push({ kind: 'char', char: c });
        continue;
      }
      let body = chars.slice(i + 1, end);
      const negated = body[0] === '^';
      if (negated) body = body.slice(1);
      const ranges: [number, number][] = [];
      for (let j = 0; j < body.length; j++) {
        const from = body[j]!.codePointAt(0)!;
        if (body[j + 1] === '-' && j + 2 < body.length) {
          ranges.push([from, body[j + 2]!.codePointAt(0)!]);
          j += 2;
        } else ranges.push([from, from]);
      }
      tokens.push({ kind: 'class', negated, ranges });
      i = end;
    } else tokens.push({ kind: 'char', char: c });
  }
  return tokens;
}

function classSource(token: Extract<GlobToken, { kind: 'class' }>): string {
  const escape = (code: number) => `\\u{${code.toString(16)}}`;
  return token.ranges.filter(([a, b]) => a <= b).map(([a, b]) => (a === b ? escape(a) : `${escape(a)}-${escape(b)}`)).join('');
}

function matchesOne(token: GlobToken, char: string): boolean {
  if (token.kind === 'any') return true;
  if (token.kind === 'char') return token.char === char;
  if (token.kind === 'star') return false;
  const code = char.codePointAt(0)!;
  return token.ranges.some(([a, b]) => a <= code && code <= b) !== token.negated;
}

/**
 * The matcher history search uses: the classic wildcard walk that backtracks only to the last `*`, so a pattern
 * costs at most its length times the source's (a RegExp of `*a*a*a…b` backtracks exponentially on the event loop).
 */
export function globMatcher(pattern: string): (text: string) => boolean {
  const tokens = globTokens(pattern);
  return (text) => {
    const chars = [...text];
    let t = 0;
    let c = 0;
    let star = -1;
    let resume = 0;
    while (c < chars.length) {
      const token = tokens[t];
      if (token !== undefined && token.kind !== 'star' && matchesOne(token, chars[c]!)) {
        t++;
        c++;
      } else if (token?.kind === 'star') {
        star = t++;
        resume = c;
      } else if (star >= 0) {
        t = star + 1;
        c = ++resume;
      } else return false;
    }
    while (tokens[t]?.kind === 'star') t++;
    return t === tokens.length;
  };
}

export class CellHistory {
  private readonly cells: Cell[] = [];
  private readonly byLine = new Map<number, Cell>();

  /** Records a stored cell; re-recording a line (a restart of counting never happens in one process) replaces it. */
  record(line: number, source: string): void {
    const cell = { line, source, output: null };
    const old = this.byLine.get(line);
    if (old) this.cells.splice(this.cells.indexOf(old), 1);
    this.cells.push(cell);
    this.byLine.set(line, cell);
  }

  setOutput(line: number, output: string): void {
    const cell = this.byLine.get(line);
    if (cell) cell.output = output;
  }

  get size(): number {
    return this.cells.length;
  }

  query(request: HistoryRequest): HistoryEntry[] {
    const withOutput = request.output === true;
    const entry = (c: Cell): HistoryEntry => (withOutput ? [CURRENT_SESSION, c.line, [c.source, c.output]] : [CURRENT_SESSION, c.line, c.source]);
    const last = (cells: Cell[]): Cell[] => (request.n != null && request.n >= 0 ? cells.slice(Math.max(0, cells.length - request.n)) : cells);
    switch (request.hist_access_type ?? 'tail') {
      case 'tail':
        return last(this.cells).map(entry);
      case 'range': {
        const session = request.session ?? 0;
        if (session !== 0 && session !== CURRENT_SESSION) return [];
        const start = request.start ?? 0;
        const stop = request.stop ?? Number.POSITIVE_INFINITY;
        return this.cells.filter((c) => c.line >= start && c.line < stop).map(entry);
      }
      case 'search': {
        const matches = globMatcher(request.pattern ?? '*');
        let found = this.cells.filter((c) => matches(c.source));
        if (request.unique) {
          // Keep each source's latest occurrence, in order of those occurrences.
          const latest = new Map<string, Cell>();
          for (const c of found) {
            latest.delete(c.source);
            latest.set(c.source, c);
          }
          found = [...latest.values()];
        }
        return last(found).map(entry);
      }
    }
  }
}
