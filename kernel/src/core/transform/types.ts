/** Public shapes of the Natural block transform. */

export const TransformDiagnosticCode = {
  /** A sentinel literal outside a function wrapped by the library's function wrapper. */
  blockOutsideNaturalFunction: 'block-outside-natural-function',
  /** A wrapped function that is not async (every Natural function is async). */
  syncNaturalFunction: 'sync-natural-function',
  /** A write binding whose target is a `const`, import, function or class. */
  writeToConstant: 'write-to-constant',
  /** A write binding with no declaration in scope (JavaScript cannot create locals). */
  undeclaredWrite: 'undeclared-write',
  /** A read binding that names nothing lexically visible at the block (a warning: task references resolve at run time). */
  unresolvedRead: 'unresolved-read',
  /** A `<...>` token that spans a `${}` interpolation. */
  spanningInterpolation: 'spanning-interpolation',
  /** Sentinel, frontmatter or binding syntax the program parser refuses. */
  invalidProgram: 'invalid-program',
  /** An explicit `bindings` option the transform cannot read statically. */
  unreadableBindingsOption: 'unreadable-bindings-option',
} as const;
export type TransformDiagnosticCode = (typeof TransformDiagnosticCode)[keyof typeof TransformDiagnosticCode];

export interface TransformDiagnostic {
  readonly code: TransformDiagnosticCode;
  readonly severity: 'error' | 'warning';
  readonly message: string;
  readonly fileName: string;
  /** 1-based line of the offending node in the input. */
  readonly line: number;
  /** 1-based column of the offending node in the input. */
  readonly column: number;
  readonly bindingName?: string;
}

export interface TransformOptions {
  /** Used in diagnostics and in step ids (`<fileName>:<line>`). */
  readonly fileName: string;
  /** When set, step ids read `<stepLabel>, line <line>` instead (a notebook cell: `Cell [3], line 4`). */
  readonly stepLabel?: string;
  /** Module the emitted code imports `runBlock` from; also recognised as a wrapper source. Default `nighthawk-ts`. */
  readonly runtimeModule?: string;
  /** Module the emitted code imports `z` from, for schemas derived from annotations. Default `zod`. */
  readonly zodModule?: string;
  /**
   * Names the environment provides without a declaration in this source (e.g. notebook cell
   * globals). Read bindings to them resolve; they join the block scope as thunks.
   */
  readonly externalNames?: readonly string[];
}

export interface TransformResult {
  /** TypeScript with each block rewritten in place; every line keeps its line number. */
  readonly code: string;
  readonly diagnostics: readonly TransformDiagnostic[];
  /** Natural blocks rewritten. */
  readonly blockCount: number;
}

/** `file:line:column: severity: message`, the shape editors and terminals link. */
export function formatTransformDiagnostic(diagnostic: TransformDiagnostic): string {
  return `${diagnostic.fileName}:${diagnostic.line}:${diagnostic.column}: ${diagnostic.severity}: ${diagnostic.message}`;
}
