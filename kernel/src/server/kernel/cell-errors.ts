/**
 * Structured Jupyter errors for failed cells: TypeScript diagnostics (ename `TypeScriptError`, evalue
 * `line:col - message`) and runtime errors (ename from the error's name, traceback with cell line numbers).
 */
import { inspect } from 'node:util';
import type { CellOutcome } from './cell-compiler.js';

interface Diagnostic {
  start: { line: number; character: number };
  messageText: string;
  code: number;
  fileName?: string;
}

type ErrorOutcome = Extract<CellOutcome, { kind: 'error' }>;

export function typeScriptError(diagnostics: readonly Diagnostic[], source: string): ErrorOutcome {
  const lines = source.split('\n');
  const describe = (d: Diagnostic): string =>
    `${d.fileName ? d.fileName + ' ' : ''}${d.start.line + 1}:${d.start.character + 1} - ${d.messageText}`;
  const first = diagnostics[0]!;
  const traceback: string[] = [];
  for (const d of diagnostics) {
    traceback.push(`TypeScriptError: ${describe(d)} (TS${d.code})`);
    const text = d.fileName ? undefined : lines[d.start.line];
    if (text !== undefined) {
      traceback.push(`  ${String(d.start.line + 1).padStart(4)} | ${text}`);
      traceback.push(`       | ${' '.repeat(d.start.character)}^`);
    }
  }
  const more = diagnostics.length > 1 ? ` (and ${diagnostics.length - 1} more)` : '';
  return { kind: 'error', ename: 'TypeScriptError', evalue: describe(first) + more, traceback };
}

const CELL_FRAME = /cell-(\d+):(\d+):(\d+)/;

export function runtimeError(
  error: unknown,
  lineMap: ((jsLine: number) => number | undefined) | undefined,
  executionCount: number,
  lastJsLine?: number,
): ErrorOutcome {
  if (!(error instanceof Error) && !(typeof error === 'object' && error !== null && 'stack' in error)) {
    const evalue = typeof error === 'string' ? error : inspect(error, { depth: 2 });
    return { kind: 'error', ename: 'Error', evalue, traceback: [`Uncaught ${evalue}`] };
  }
  const e = error as Error;
  const ename = typeof e.name === 'string' && e.name ? e.name : 'Error';
  const evalue = typeof e.message === 'string' ? e.message : String(e.message);
  const frames: string[] = [];
  for (const raw of String(e.stack ?? '').split('\n').slice(1)) {
    const line = raw.trim();
    if (!line.startsWith('at ')) continue;
    // Everything below the vm entry is the kernel's own stack, noise to the operator.
    if (line.includes('node:vm')) break;
    if (line.includes('node:internal')) continue;
    const match = CELL_FRAME.exec(line);
    if (match && Number(match[1]) === executionCount) {
      const cellLine = lineMap?.(Number(match[2]));
      // The last compiled line is the wrapper's own invocation.
      if (cellLine === undefined && lastJsLine !== undefined && Number(match[2]) >= lastJsLine) continue;
      const where = cellLine === undefined ? `Cell [${match[1]}], compiled line ${match[2]}` : `Cell [${match[1]}], line ${cellLine}`;
      frames.push('    ' + line.replace(CELL_FRAME, where));
    } else {
      frames.push('    ' + line);
    }
  }
  return { kind: 'error', ename, evalue, traceback: [`${ename}: ${evalue}`, ...frames] };
}
