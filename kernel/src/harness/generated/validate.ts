/**
 * Deterministic validation of a CodeProposal before anything runs: syntax, the raw-dynamic-execution
 * rule, reserved guard names, export kinds, intent/source mismatch and dependency declarations.
 */
import ts from 'typescript';
import type { CodeProposal } from './code-proposal.js';
import { checkDependencyNames } from './dependencies.js';
import { analyzeExports, checkIntent, type ExportInfo } from './export-rules.js';
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

export function sourceFileName(proposal: Pick<CodeProposal, 'language'>): string {
  return proposal.language === 'typescript' ? 'generated.ts' : 'generated.js';
}

export function parseGenerated(proposal: Pick<CodeProposal, 'language' | 'source'>): ts.SourceFile {
  const kind = proposal.language === 'typescript' ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  return ts.createSourceFile(sourceFileName(proposal), proposal.source, ts.ScriptTarget.ES2022, true, kind);
}

/** Syntactic diagnostics, including JavaScript-only ones such as type annotations in a .js proposal. */
function syntaxViolations(proposal: CodeProposal): Violation[] {
  const result = ts.transpileModule(proposal.source, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, allowJs: true },
    fileName: sourceFileName(proposal),
    reportDiagnostics: true,
  });
  return (result.diagnostics ?? []).map((d) => {
    const pos = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : { line: -1, character: -1 };
    return { rule: 'syntax', message: ts.flattenDiagnosticMessageText(d.messageText, '\n'), line: pos.line + 1, column: pos.character + 1 };
  });
}

export function validateGeneratedSource(proposal: CodeProposal, options: ValidateOptions = {}): ValidationResult {
  const sourceFile = parseGenerated(proposal);
  const analysis = analyzeExports(sourceFile, options.naturalFunctionNames ?? DEFAULT_NATURAL_FUNCTION_NAMES);
  const violations = [
    ...syntaxViolations(proposal),
    ...checkRawDynamicExecution(sourceFile),
    ...analysis.violations,
    ...checkIntent(proposal, analysis.exports),
    ...checkDependencyNames(proposal.dependencies ?? []),
  ];
  if (violations.length > 0) return { ok: false, violations: sortViolations(violations) };
  return { ok: true, exports: analysis.exports };
}
