/**
 * Which cell declarations survive a cell that threw. Apart from tslab-compiler.ts, whose declarations the public
 * ones reach (display → kernel index): a declaration file importing `typescript` makes every notebook's type
 * checker parse typescript.d.ts (574 KB, ~12 MB of kernel memory).
 */
import type * as TS from 'typescript';

export function bindingNames(ts: typeof TS, statement: TS.VariableStatement): string[] {
  const out: string[] = [];
  const visit = (name: TS.BindingName): void => {
    if (ts.isIdentifier(name)) out.push(name.text);
    else for (const element of name.elements) if (!ts.isOmittedExpression(element)) visit(element.name);
  };
  for (const d of statement.declarationList.declarations) visit(d.name);
  return out;
}

/** Value names a declaration-file statement declares (types declare none: they never fail at runtime). */
function declaredValueNames(ts: typeof TS, statement: TS.Statement): string[] {
  if (ts.isVariableStatement(statement)) return bindingNames(ts, statement);
  if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isEnumDeclaration(statement)) && statement.name) {
    return [statement.name.text];
  }
  if (ts.isModuleDeclaration(statement) && ts.isIdentifier(statement.name)) return [statement.name.text];
  return [];
}

/**
 * The declarations later cells see after a cell threw: the cell's own declarations for the names it
 * reached, and for names it declared but never reached, whatever was declared for them before.
 */
export function survivingDeclarations(ts: typeof TS, before: string, after: string, names: ReadonlySet<string>, assigned: ReadonlySet<string>): string {
  const unreached = new Set([...names].filter((n) => !assigned.has(n)));
  const parse = (text: string): TS.SourceFile => ts.createSourceFile('decl.d.ts', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const kept: string[] = [];
  const next = parse(after);
  for (const statement of next.statements) {
    const declared = declaredValueNames(ts, statement);
    if (declared.length > 0 && declared.every((n) => unreached.has(n))) continue;
    kept.push(after.slice(statement.pos, statement.end).trim());
  }
  const previous = parse(before);
  for (const statement of previous.statements) {
    const declared = declaredValueNames(ts, statement);
    if (declared.length > 0 && declared.every((n) => unreached.has(n))) kept.push(before.slice(statement.pos, statement.end).trim());
  }
  return kept.join('\n') + '\n';
}
