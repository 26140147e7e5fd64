/** Parsing a proposal and its syntax findings (apart from validate.ts, whose declarations are public). */
import type TS from 'typescript';
import { ts } from './typescript-lazy.js';
import type { CodeProposal } from './code-proposal.js';
import type { Violation } from './violation.js';

export function sourceFileName(proposal: Pick<CodeProposal, 'language'>): string {
  return proposal.language === 'typescript' ? 'generated.ts' : 'generated.js';
}

export function parseGenerated(proposal: Pick<CodeProposal, 'language' | 'source'>): TS.SourceFile {
  const kind = proposal.language === 'typescript' ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  return ts.createSourceFile(sourceFileName(proposal), proposal.source, ts.ScriptTarget.ES2022, true, kind);
}

/** Syntactic diagnostics as violations, including JavaScript-only ones such as type annotations in a .js proposal. */
export function diagnosticViolations(diagnostics: readonly TS.Diagnostic[] | undefined): Violation[] {
  return (diagnostics ?? []).map((d) => {
    const pos = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : { line: -1, character: -1 };
    return { rule: 'syntax', message: ts.flattenDiagnosticMessageText(d.messageText, '\n'), line: pos.line + 1, column: pos.character + 1 };
  });
}
