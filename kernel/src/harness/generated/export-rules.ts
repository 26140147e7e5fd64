/**
 * Export kinds (seed 001): functions (sync, async, Natural) and values, never classes; and the intent
 * check that decides intent/source mismatch deterministically before anything runs.
 */
import type TS from 'typescript';
import { ts } from './typescript-lazy.js';
import type { CodeProposal } from './code-proposal.js';
import type { Violation } from './violation.js';
import { violationAt } from './violation-at.js';
import type { ExportAnalysis, ExportInfo } from './export-kind.js';
import { ExportKind } from './export-kind.js';

type Classified = { kind: ExportKind } | { kind: 'class' };

const hasModifier = (node: TS.Node, kind: TS.SyntaxKind): boolean =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === kind);

function unparen(node: TS.Expression): TS.Expression {
  while (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) node = node.expression;
  return node;
}

export function analyzeExports(sourceFile: TS.SourceFile, naturalFunctionNames: readonly string[]): ExportAnalysis {
  const exports: ExportInfo[] = [];
  const violations: Violation[] = [];
  const exportedLocals = new Map<string, string>();
  const locals = new Map<string, Classified>();
  const line = (node: TS.Node): number => sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line + 1;

  const classify = (init: TS.Expression | undefined): Classified => {
    if (!init) return { kind: 'value' };
    const e = unparen(init);
    if (ts.isArrowFunction(e) || ts.isFunctionExpression(e)) return { kind: hasModifier(e, ts.SyntaxKind.AsyncKeyword) ? 'async-function' : 'function' };
    if (ts.isClassExpression(e)) return { kind: 'class' };
    if (ts.isCallExpression(e)) {
      const callee = unparen(e.expression);
      const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
      if (name !== undefined && naturalFunctionNames.includes(name)) return { kind: 'natural-function' };
    }
    if (ts.isIdentifier(e)) return locals.get(e.text) ?? { kind: 'value' };
    return { kind: 'value' };
  };

  // First pass: what each top-level local is, so `export { x }` and `export default x` can be classified.
  for (const statement of sourceFile.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name)
      locals.set(statement.name.text, { kind: hasModifier(statement, ts.SyntaxKind.AsyncKeyword) && !statement.asteriskToken ? 'async-function' : 'function' });
    else if (ts.isClassDeclaration(statement) && statement.name) locals.set(statement.name.text, { kind: 'class' });
    else if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) if (ts.isIdentifier(d.name)) locals.set(d.name.text, classify(d.initializer));
    }
  }

  const add = (node: TS.Node, name: string, classified: Classified, localName: string | undefined): void => {
    if (classified.kind === 'class') {
      violations.push(violationAt(sourceFile, node, 'class-export', `Export '${name}' is a class; classes may be private helpers but are not exported. Export a factory function instead.`));
      return;
    }
    exports.push({ name, kind: classified.kind, line: line(node) });
    if (localName !== undefined && !exportedLocals.has(localName)) exportedLocals.set(localName, name);
  };
  const exportForm = (node: TS.Node, detail: string): void => {
    violations.push(violationAt(sourceFile, node, 'export-form', detail));
  };

  for (const statement of sourceFile.statements) {
    const exported = hasModifier(statement, ts.SyntaxKind.ExportKeyword);
    const isDefault = hasModifier(statement, ts.SyntaxKind.DefaultKeyword);
    if (exported && hasModifier(statement, ts.SyntaxKind.DeclareKeyword)) continue;
    if (ts.isFunctionDeclaration(statement) && exported) {
      const local = statement.name?.text;
      // A generator (also an async one) returns its guarded iterator synchronously: a plain function export.
      const kind = hasModifier(statement, ts.SyntaxKind.AsyncKeyword) && !statement.asteriskToken ? 'async-function' : 'function';
      add(statement, isDefault ? 'default' : (local ?? 'default'), locals.get(local ?? '') ?? { kind }, local);
    } else if (ts.isClassDeclaration(statement) && exported) {
      add(statement, isDefault ? 'default' : (statement.name?.text ?? 'default'), { kind: 'class' }, undefined);
    } else if (ts.isVariableStatement(statement) && exported) {
      for (const d of statement.declarationList.declarations) {
        if (!ts.isIdentifier(d.name)) exportForm(d, 'Destructured exports are not supported; export each binding by name.');
        else add(d, d.name.text, classify(d.initializer), d.name.text);
      }
    } else if (ts.isExportAssignment(statement)) {
      if (statement.isExportEquals) exportForm(statement, "'export =' is not supported; use named exports.");
      else {
        const e = unparen(statement.expression);
        add(statement, 'default', classify(statement.expression), ts.isIdentifier(e) && locals.has(e.text) ? e.text : undefined);
      }
    } else if (ts.isExportDeclaration(statement)) {
      if (statement.isTypeOnly) continue;
      if (statement.moduleSpecifier) exportForm(statement, 'Re-exports from other modules are not supported; export local functions and values.');
      else if (statement.exportClause && ts.isNamedExports(statement.exportClause)) {
        for (const spec of statement.exportClause.elements) {
          if (spec.isTypeOnly) continue;
          const local = (spec.propertyName ?? spec.name).text;
          add(spec, spec.name.text, locals.get(local) ?? { kind: 'value' }, locals.has(local) ? local : undefined);
        }
      }
    } else if (exported && (ts.isEnumDeclaration(statement) || ts.isModuleDeclaration(statement) || ts.isImportEqualsDeclaration(statement))) {
      exportForm(statement, 'Only functions and values are exported; enums, namespaces and import aliases are not.');
    }
  }
  return { exports, violations, exportedLocals };
}

/** Intent/source mismatch, decided from the proposal and the export analysis alone. */
export function checkIntent(proposal: CodeProposal, exports: readonly ExportInfo[]): Violation[] {
  const mismatch = (message: string): Violation[] => [{ rule: 'intent-mismatch', message, line: 0, column: 0 }];
  if (proposal.intent === 'define') {
    if (proposal.entry !== undefined || proposal.args !== undefined)
      return mismatch("Intent 'define' materialises only; 'entry' and 'args' belong to 'define-and-invoke'.");
    return [];
  }
  if (proposal.entry === undefined) return mismatch("Intent 'define-and-invoke' needs an 'entry' naming the export to invoke.");
  const entry = exports.find((e) => e.name === proposal.entry);
  if (!entry) return mismatch(`Entry '${proposal.entry}' is not exported by the source.`);
  if (entry.kind === 'function') return [];
  const why =
    entry.kind === 'value'
      ? 'is not a function declaration or function expression'
      : entry.kind === 'natural-function'
        ? 'is a Natural function, which is asynchronous'
        : 'is asynchronous';
  return mismatch(`Entry '${proposal.entry}' ${why}; 'define-and-invoke' invokes synchronous function entries only. Use 'define' and invoke it separately.`);
}
