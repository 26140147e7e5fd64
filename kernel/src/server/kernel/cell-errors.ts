/**
 * Structured Jupyter errors for failed cells: TypeScript diagnostics (ename `TypeScriptError`, evalue
 * `line:col - message`) and runtime errors (ename from the error's name, traceback with cell line numbers).
 */
import { inspect } from 'node:util';
import type { CellOutcome } from './cell-compiler.js';
import type { CellSyntaxProblem } from './cell-module-syntax.js';

interface Diagnostic {
  start: { line: number; character: number };
  messageText: string;
  code: number;
  fileName?: string;
}

type ErrorOutcome = Extract<CellOutcome, { kind: 'error' }>;

/** A cell stopped by an interrupt (while running, or before it started). */
export function interruptedOutcome(): CellOutcome {
  return { kind: 'interrupted', ename: 'KeyboardInterrupt', evalue: 'Execution interrupted', traceback: ['KeyboardInterrupt: Execution interrupted'] };
}

export function typeScriptError(diagnostics: readonly Diagnostic[], source: string): ErrorOutcome {
  return placedError('TypeScriptError', diagnostics.map((d) => ({ ...d, tag: ` (TS${d.code})` })), source);
}

/** Module syntax a cell cannot hold (cell-module-syntax.ts), placed as a TypeScript diagnostic is. */
export function cellSyntaxError(problems: readonly CellSyntaxProblem[], source: string): ErrorOutcome {
  return placedError('CellSyntaxError', problems.map((p) => ({ ...p, tag: '' })), source);
}

function placedError(ename: string, items: ReadonlyArray<Omit<Diagnostic, 'code'> & { tag: string }>, source: string): ErrorOutcome {
  const lines = source.split('\n');
  const describe = (d: (typeof items)[number]): string =>
    `${d.fileName ? d.fileName + ' ' : ''}${d.start.line + 1}:${d.start.character + 1} - ${d.messageText}`;
  const first = items[0]!;
  const traceback: string[] = [];
  for (const d of items) {
    traceback.push(`${ename}: ${describe(d)}${d.tag}`);
    const text = d.fileName ? undefined : lines[d.start.line];
    if (text !== undefined) {
      traceback.push(`  ${String(d.start.line + 1).padStart(4)} | ${text}`);
      traceback.push(`       | ${' '.repeat(d.start.character)}^`);
    }
  }
  const more = items.length > 1 ? ` (and ${items.length - 1} more)` : '';
  return { kind: 'error', ename, evalue: describe(first) + more, traceback };
}

/** How a cell's compiled lines map back to its source, kept per execution count for later tracebacks. */
interface CellLines {
  map: ((jsLine: number) => number | undefined) | undefined;
  /** The compiled wrapper's own invocation line: not user code. */
  wrapperLine: number | undefined;
}

/**
 * Line maps of the cells that ran, so a frame in a function an earlier cell defined reads `Cell [4], line 2`
 * like the current cell's frames. Bounded: a very old cell's frames fall back to its compiled line.
 */
export class CellFrames {
  readonly #cells = new Map<number, CellLines>();
  constructor(private readonly limit = 2_000) {}

  remember(executionCount: number, map: CellLines['map'], wrapperLine?: number): void {
    this.#cells.delete(executionCount);
    this.#cells.set(executionCount, { map, wrapperLine });
    if (this.#cells.size > this.limit) this.#cells.delete(this.#cells.keys().next().value!);
  }

  lookup(executionCount: number): CellLines | undefined {
    return this.#cells.get(executionCount);
  }
}

/** `at name (location)` or `at location`, as V8 prints a frame. */
const FRAME = /^at (?:(.+?) \((.+)\)|(.+))$/;
const CELL_LOCATION = /^cell-(\d+):(\d+):(\d+)$/;

/** A cell frame in the one naming scheme, or undefined for the compiled wrapper's own line. */
function cellFrame(name: string | undefined, location: RegExpExecArray, frames: CellFrames): string | undefined {
  const count = Number(location[1]);
  const jsLine = Number(location[2]);
  const cell = frames.lookup(count);
  const line = cell?.map?.(jsLine);
  if (line === undefined && cell?.wrapperLine !== undefined && jsLine >= cell.wrapperLine) return undefined;
  const where = line === undefined ? `Cell [${count}], compiled line ${jsLine}` : `Cell [${count}], line ${line}`;
  // Cell functions are called through the kernel's scope proxy; V8 names them `Proxy.f`.
  const fn = name?.replace(/^(async )?(?:Proxy|Object)\./, '$1');
  return fn ? `at ${fn} (${where})` : `at ${where}`;
}

/**
 * Splits a stack into the operator's frames (cells, in the `Cell [N], line L` scheme) and the library's and
 * runtime's frames (internals, shown only on request). Below the vm entry is the kernel itself: dropped.
 */
export function splitFrames(stack: string, frames: CellFrames): { user: string[]; internals: string[] } {
  const user: string[] = [];
  const internals: string[] = [];
  for (const raw of stack.split('\n').slice(1)) {
    const line = raw.trim();
    if (!line.startsWith('at ')) continue;
    if (line.includes('node:vm')) break;
    const parts = FRAME.exec(line);
    const location = parts ? CELL_LOCATION.exec(parts[2] ?? parts[3] ?? '') : null;
    if (!location) {
      internals.push(line);
      continue;
    }
    const frame = cellFrame(parts![1], location, frames);
    if (frame && user.at(-1) !== frame) user.push('    ' + frame);
  }
  return { user, internals };
}

/** A failure the host already shows elsewhere (a run view) is named briefly instead of told twice. */
export type DescribeError = (error: unknown) => { ename: string; evalue: string } | undefined;

export function runtimeError(error: unknown, frames: CellFrames, describe?: DescribeError): ErrorOutcome {
  if (!(error instanceof Error) && !(typeof error === 'object' && error !== null && 'stack' in error)) {
    const evalue = typeof error === 'string' ? error : inspect(error, { depth: 2 });
    return { kind: 'error', ename: 'Error', evalue, traceback: [`Uncaught ${evalue}`] };
  }
  const e = error as Error;
  const brief = describe?.(error);
  const ename = brief?.ename ?? (typeof e.name === 'string' && e.name ? e.name : 'Error');
  const evalue = brief?.evalue ?? (typeof e.message === 'string' ? e.message : String(e.message));
  const { user, internals } = splitFrames(String(e.stack ?? ''), frames);
  return { kind: 'error', ename, evalue, traceback: [`${ename}: ${evalue}`, ...user], ...(internals.length ? { internals } : {}) };
}

/**
 * An error that escaped every cell (a throw in a timer, a rejection nobody awaited), as text for the cell's
 * stderr: the name, message and cell frames a cell's own error shows, not the raw stack's compiled lines and
 * kernel frames. Never throws: it is called from the process's last-resort handlers.
 */
export function escapedErrorText(error: unknown, frames: CellFrames | undefined): string {
  try {
    const errorLike = error instanceof Error || (typeof error === 'object' && error !== null && 'stack' in error);
    if (!errorLike) return typeof error === 'string' ? error : inspect(error, { depth: 2 });
    if (!frames) return String((error as Error).stack ?? (error as Error).message);
    return runtimeError(error, frames).traceback.join('\n');
  } catch {
    return 'an error that could not be described';
  }
}

/** An error shown as a cell's value: its name, message and cell frames, then its own properties as inspect lists them. */
export function errorValueText(error: Error, frames: CellFrames): string {
  const text = runtimeError(error, frames).traceback.join('\n');
  const own = Object.keys(error).filter((key) => key !== 'stack' && key !== 'message');
  if (own.length === 0) return text;
  return `${text} ${inspect(Object.fromEntries(own.map((key) => [key, (error as unknown as Record<string, unknown>)[key]])), { depth: 2 })}`;
}
