/**
 * Export kinds (seed 001) and the result of the export analysis (export-rules.ts). Kept free of `typescript` types: the public declarations reach
 * this file, and a declaration file importing `typescript` makes every notebook's type checker parse
 * typescript.d.ts (574 KB, ~12 MB of kernel memory).
 */
import type { Violation } from './violation.js';

export const ExportKind = {
  function: 'function',
  asyncFunction: 'async-function',
  naturalFunction: 'natural-function',
  value: 'value',
} as const;
export type ExportKind = (typeof ExportKind)[keyof typeof ExportKind];

export interface ExportInfo {
  readonly name: string;
  readonly kind: ExportKind;
  readonly line: number;
}

/** Export analysis plus what the guard transform needs to rebind function exports to their wrappers. */
export interface ExportAnalysis {
  readonly exports: ExportInfo[];
  readonly violations: Violation[];
  /** Local bindings that hold exports, keyed by local name, with the first export name that uses them. */
  readonly exportedLocals: ReadonlyMap<string, string>;
}
