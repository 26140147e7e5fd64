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
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') out += '[\\s\\S]*';
    else if (c === '?') out += '[\\s\\S]';
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) out += '\\[';
      else {
        const body = pattern.slice(i + 1, end);
        out += body.startsWith('^') ? `[^${body.slice(1).replace(/\\/g, '\\\\')}]` : `[${body.replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else out += c.replace(/[.+^${}()|\\/]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
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
        const re = globToRegExp(request.pattern ?? '*');
        let found = this.cells.filter((c) => re.test(c.source));
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
