/**
 * Module syntax at the top of a cell, fitted to tslab's converter, which already shares every top-level name of a
 * cell with the cells after it:
 * - `export` on a declaration (code pasted from a module) is dropped; `export { a, b }` of the cell's own names is
 *   dropped whole. Both are blanked with spaces, so every line and column the user sees holds.
 * - `export default`, `export =`, a renaming `export { a as b }` and re-exports (`export … from`) mean nothing in a
 *   cell: each is refused with its place and what to write instead. So is `import.meta`, which a cell (compiled
 *   to CommonJS) does not have: it failed at run time with "Cannot use 'import.meta' outside a module".
 * And whether a cell awaits outside every function. The converter learns it from TypeScript's top-level-await
 * diagnostic, which its TypeScript reports for `await x` but not for `for await (…)` or `await (x)`: those cells
 * ran in a plain function and failed ("Unexpected reserved word", "await is not defined"), the common
 * `await (await fetch(url)).json()` among them.
 */
import type * as TS from 'typescript';

export interface CellSyntaxProblem {
  start: { line: number; character: number };
  messageText: string;
}

export interface PreparedModuleSyntax {
  code: string;
  problems: CellSyntaxProblem[];
  topLevelAwait: boolean;
}

type Parser = Pick<
  typeof TS,
  | 'createSourceFile'
  | 'ScriptTarget'
  | 'ScriptKind'
  | 'SyntaxKind'
  | 'forEachChild'
  | 'isExportDeclaration'
  | 'isExportAssignment'
  | 'isNamedExports'
  | 'isForOfStatement'
  | 'isAwaitExpression'
  | 'isFunctionLike'
  | 'isClassLike'
  | 'isModuleDeclaration'
  | 'isMetaProperty'
>;

const blank = (text: string): string => text.replace(/[^\n]/g, ' ');

export function prepareModuleSyntax(code: string, ts: Parser): PreparedModuleSyntax {
  const mayExport = /\bexport\b/.test(code);
  const mayAwait = /\bawait\b/.test(code);
  const mayMeta = /\bimport\s*\.\s*meta\b/.test(code);
  if (!mayExport && !mayAwait && !mayMeta) return { code, problems: [], topLevelAwait: false };
  // Parsed as the converter sees it, a module (there, `await (x)` is an await, not a call of `await`); the
  // marker goes after the cell so every position in it holds.
  const file = ts.createSourceFile('cell.ts', `${code}\nexport {};`, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const problems: CellSyntaxProblem[] = [];
  const edits: Array<{ from: number; to: number }> = [];
  const refuse = (node: TS.Node, messageText: string): void => {
    const at = file.getLineAndCharacterOfPosition(node.getStart(file));
    problems.push({ start: { line: at.line, character: at.character }, messageText });
  };
  if (mayExport) {
    for (const statement of file.statements) {
      if (statement.getStart(file) >= code.length) break; // the module marker
      if (ts.isExportAssignment(statement)) {
        refuse(statement, statement.isExportEquals
          ? '`export =` has no meaning in a cell: remove it (the cell\'s names are shared with later cells as they are)'
          : '`export default` has no meaning in a cell: remove it, and name the value (`const answer = …`) if later cells need it');
        continue;
      }
      if (ts.isExportDeclaration(statement)) {
        if (statement.moduleSpecifier) {
          refuse(statement, '`export … from` re-exports another module, which a cell cannot: import what you need instead (`import { a } from "…"`)');
        } else if (statement.exportClause && ts.isNamedExports(statement.exportClause) && statement.exportClause.elements.some((e) => e.propertyName)) {
          refuse(statement, '`export { a as b }` renames a name, which a cell cannot: declare the new name (`const b = a`)');
        } else {
          edits.push({ from: statement.getStart(file), to: statement.end });
        }
        continue;
      }
      const modifiers = (statement as { modifiers?: readonly TS.Node[] }).modifiers ?? [];
      const exported = modifiers.find((m) => m.kind === ts.SyntaxKind.ExportKeyword);
      if (!exported) continue;
      if (modifiers.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)) {
        refuse(statement, '`export default` has no meaning in a cell: remove `export default` (a named function or class is shared with later cells as it is)');
        continue;
      }
      edits.push({ from: exported.getStart(file), to: exported.end });
    }
  }
  if (mayMeta) {
    const visit = (node: TS.Node): void => {
      if (ts.isMetaProperty(node) && node.keywordToken === ts.SyntaxKind.ImportKeyword) {
        refuse(node, '`import.meta` is not available in a cell (cells run as CommonJS scripts): use `__dirname` or `__filename` instead');
      }
      ts.forEachChild(node, visit);
    };
    ts.forEachChild(file, visit);
  }
  let topLevelAwait = false;
  if (mayAwait) {
    const visit = (node: TS.Node): void => {
      if (topLevelAwait) return;
      if (ts.isAwaitExpression(node) || (ts.isForOfStatement(node) && node.awaitModifier)) {
        topLevelAwait = true;
        return;
      }
      // A function's (or a class's, or a namespace's) awaits are its own: TypeScript checks those.
      if (ts.isFunctionLike(node) || ts.isClassLike(node) || ts.isModuleDeclaration(node)) return;
      ts.forEachChild(node, visit);
    };
    ts.forEachChild(file, visit);
  }
  // A refused cell is shown as written: its problems' positions are in that text.
  if (problems.length > 0) return { code, problems, topLevelAwait: false };
  let out = code;
  for (const { from, to } of edits.sort((a, b) => b.from - a.from)) out = out.slice(0, from) + blank(out.slice(from, to)) + out.slice(to);
  return { code: out, problems, topLevelAwait };
}
