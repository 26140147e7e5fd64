/**
 * Deterministic validation of a CodeProposal before anything runs: syntax, the raw-dynamic-execution
 * rule, reserved guard names, export kinds, intent/source mismatch and dependency declarations.
 */
import { ts } from './typescript-lazy.js';
import type { CodeProposal } from './code-proposal.js';
import { checkDependencyNames } from './dependencies.js';
import { analyzeExports, checkIntent } from './export-rules.js';
import type { ExportAnalysis, ExportInfo } from './export-kind.js';
import { diagnosticViolations, parseGenerated, sourceFileName } from './parse-generated.js';
import { checkRawDynamicExecution } from './raw-dynamic-rules.js';
import { sortViolations, type Violation } from './violation.js';

export interface ValidateOptions {
  /** Callee names whose call result is a Natural function export (default: `naturalFunction`). */
  readonly naturalFunctionNames?: readonly string[];
}

export type ValidationResult =
  | { readonly ok: true; readonly exports: readonly ExportInfo[] }
  | { readonly ok: false; readonly violations: readonly Violation[] };

export const DEFAULT_NATURAL_FUNCTION_NAMES: readonly string[] = ['naturalFunction'];

/** Everything but syntax, from one parse; compilation reuses the parse and takes syntax from its own transpile. */
export function analyzeProposal(proposal: CodeProposal, options: ValidateOptions = {}): { analysis: ExportAnalysis; violations: Violation[] } {
  const sourceFile = parseGenerated(proposal);
  const analysis = analyzeExports(sourceFile, options.naturalFunctionNames ?? DEFAULT_NATURAL_FUNCTION_NAMES);
  const violations = [
    ...checkRawDynamicExecution(sourceFile),
    ...analysis.violations,
    ...checkIntent(proposal, analysis.exports),
    ...checkDependencyNames(proposal.dependencies ?? []),
  ];
  return { analysis, violations };
}

export function validateGeneratedSource(proposal: CodeProposal, options: ValidateOptions = {}): ValidationResult {
  const { analysis, violations } = analyzeProposal(proposal, options);
  const syntax = diagnosticViolations(
    ts.transpileModule(proposal.source, {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, allowJs: true },
      fileName: sourceFileName(proposal),
      reportDiagnostics: true,
    }).diagnostics,
  );
  const all = [...syntax, ...violations];
  if (all.length > 0) return { ok: false, violations: sortViolations(all) };
  return { ok: true, exports: analysis.exports };
}
