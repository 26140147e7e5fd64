/**
 * The project's interface to a TypeScript cell engine. The kernel only talks to this; the tslab-based
 * implementation sits behind it so the engine can be replaced.
 */
import type { MimeBundle } from '../../../../shared/index.js';

/** Applied to each cell's source before compilation (the Natural-block transform plugs in here). */
export type SourceTransform = (source: string, context?: { executionCount?: number }) => { code: string };

export type CellOutcome =
  | {
      kind: 'ok';
      value: MimeBundle | undefined;
      /** Top-level names the cell declared, with their values after it ran. */
      declared: Readonly<Record<string, unknown>>;
    }
  | {
      kind: 'error';
      ename: string;
      evalue: string;
      /** `ename: evalue` and the operator's frames (cells); what Jupyter frontends print. */
      traceback: string[];
      /** Library and runtime frames, shown only on request ("show internals"). */
      internals?: string[];
    }
  | { kind: 'interrupted'; ename: 'KeyboardInterrupt'; evalue: string; traceback: string[] };

export interface ExecuteOptions {
  executionCount: number;
  /**
   * Called synchronously as the cell's code starts, inside the SIGINT-sensitive region: a SIGINT sent after
   * this call stops synchronous code, so the kernel tells the server only then that signals will land.
   */
  onStart?: () => void;
  /**
   * Called as the cell gives each name it declares a function value, while it runs; the cell (and later
   * cells) see what it returns. The host approves the submitted cell's functions here, so a function is
   * callable as approved later in the same cell.
   */
  bind?: (name: string, value: unknown) => unknown;
  /** Names a failure the host already shows (a failed run in its run view) briefly instead of twice. */
  describeError?: (error: unknown) => { ename: string; evalue: string } | undefined;
  /**
   * True for a final value the cell should wait for, as if the cell had awaited it: a SessionFunction's run,
   * whose result (or failure) is what the operator asked for.
   */
  awaitValue?: (value: unknown) => boolean;
}

export interface CompletionResult {
  matches: string[];
  cursorStart: number;
  cursorEnd: number;
  /** The TypeScript kind of each match (`function`, `const`, `property` …), same order as `matches`. */
  types?: string[];
}

/** A type error or warning in a cell that has not run (0-based line and character in the cell). */
export interface CellDiagnostic {
  line: number;
  character: number;
  message: string;
  code: number;
  severity: 'error' | 'warning';
}

export interface InspectionResult {
  found: boolean;
  /** Plain-text signature and documentation. */
  text: string;
}

export interface CellCompiler {
  /** Compiles and runs one cell; state carries over to later cells. Never throws for user errors. */
  execute(source: string, options: ExecuteOptions): Promise<CellOutcome>;
  complete(source: string, cursorPos: number): CompletionResult;
  inspect(source: string, cursorPos: number): InspectionResult;
  /** Type-checks a cell against the session's declarations without running it (live diagnostics). */
  diagnose?(source: string): CellDiagnostic[];
  isComplete(source: string): { status: 'complete' | 'incomplete' | 'invalid'; indent: string };
  /** Replaces the value later cells see under `name` (e.g. a declared function by its approved adapter). */
  rebind(name: string, value: unknown): void;
  /** Stops an awaiting cell; synchronous loops are stopped by SIGINT (see kernel-process). */
  interrupt(): void;
  close(): void;
}
