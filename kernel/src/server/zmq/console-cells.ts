/**
 * What console users expect beyond running code, layered on any CellCompiler: a `?name` (or `name?`) cell
 * pages the TypeScript signature and docs of `name` instead of running, and `is_complete` says `invalid` for
 * code that will never parse however much is added (tslab's check only knows complete and incomplete).
 */
import { createRequire } from 'node:module';
import type * as TS from 'typescript';
import type { CellCompiler, CellOutcome, ExecuteOptions } from '../kernel/index.js';

const HELP = /^\s*(?:\?{1,2}\s*([\w$][\w$.]*)|([\w$][\w$.]*)\s*\?{1,2})\s*$/;

/** The expression a help cell asks about, or undefined for an ordinary cell. */
export function helpTarget(source: string): string | undefined {
  const m = HELP.exec(source);
  return m ? (m[1] ?? m[2]) : undefined;
}

export interface PagerPayload {
  source: 'page';
  data: { 'text/plain': string };
  start: number;
}

interface ParsedSource {
  parseDiagnostics?: readonly { code: number; start?: number }[];
}

export interface ConsoleCells {
  compiler: CellCompiler;
  /** The pager payload the last executed help cell produced; taking it clears it. */
  takePage(): PagerPayload | undefined;
}

export function withConsoleCells(inner: CellCompiler): ConsoleCells {
  let page: PagerPayload | undefined;
  let ts: typeof TS | undefined;
  // The compiler's own TypeScript (tslab's fork), so "invalid" agrees with what execution would report.
  const typescript = (): typeof TS => (ts ??= createRequire(createRequire(import.meta.url).resolve('tslab/dist/converter'))('@tslab/typescript-for-tslab') as typeof TS);

  async function execute(source: string, options: ExecuteOptions): Promise<CellOutcome> {
    const target = helpTarget(source);
    if (target === undefined) return inner.execute(source, options);
    const info = inner.inspect(target, target.length);
    if (!info.found) {
      return { kind: 'error', ename: 'NameError', evalue: `Object \`${target}\` not found.`, traceback: [`NameError: Object \`${target}\` not found.`] };
    }
    page = { source: 'page', data: { 'text/plain': info.text }, start: 0 };
    return { kind: 'ok', value: undefined, declared: {} };
  }

  function isComplete(source: string): { status: 'complete' | 'incomplete' | 'invalid'; indent: string } {
    if (helpTarget(source) !== undefined) return { status: 'complete', indent: '' };
    const verdict = inner.isComplete(source);
    if (verdict.status !== 'complete') return verdict;
    const file = typescript().createSourceFile('cell.ts', source, typescript().ScriptTarget.Latest, false, typescript().ScriptKind.TS) as unknown as ParsedSource;
    const diagnostics = file.parseDiagnostics ?? [];
    if (diagnostics.length === 0) return verdict;
    // An unterminated template literal may still be closed on a later line.
    if (diagnostics.some((d) => d.code === 1160)) return { status: 'incomplete', indent: '' };
    return { status: 'invalid', indent: '' };
  }

  const compiler: CellCompiler = {
    execute,
    complete: (source, cursorPos) => inner.complete(source, cursorPos),
    inspect: (source, cursorPos) => inner.inspect(source, cursorPos),
    isComplete,
    rebind: (name, value) => inner.rebind(name, value),
    interrupt: () => inner.interrupt(),
    close: () => inner.close(),
  };
  return {
    compiler,
    takePage() {
      const p = page;
      page = undefined;
      return p;
    },
  };
}
