/**
 * Observed definition materialization (seed 001): a callable is approved for a cell only if that
 * cell's source defines it. A cell that merely binds an existing value (`const f = generated`,
 * `const f = await make()`, `const f = g.bind(x)`) defines nothing, so nothing is approved.
 */
import { createRequire } from 'node:module';
import type ts from 'typescript';

// Required on first use: a static import made every importer of the library (each kernel process) load, lex and
// parse the 9 MB compiler, about half a second and tens of megabytes.
let loaded: typeof ts | undefined;
const typescript = (): typeof ts => (loaded ??= createRequire(import.meta.url)('typescript') as typeof ts);

function unwrap(node: ts.Expression): ts.Expression {
  const ts = typescript();
  let n = node;
  for (;;) {
    if (ts.isParenthesizedExpression(n) || ts.isAsExpression(n) || ts.isSatisfiesExpression(n) || ts.isNonNullExpression(n) || ts.isTypeAssertionExpression(n)) n = n.expression;
    else return n;
  }
}

function isLiteralDefinition(n: ts.Expression): boolean {
  const ts = typescript();
  return ts.isFunctionExpression(n) || ts.isArrowFunction(n) || ts.isClassExpression(n);
}

/**
 * How a cell's initializer creates its callable, if it does:
 * - `literal`: from a function or class literal written here, or a call wrapping one (a core transformation
 *   such as `nh.function(async function f() {...})`);
 * - `spec`: a call over an object literal written here (`nh.naturalFunction({...})`). That shape alone proves
 *   nothing (any helper can build a function from text it is handed), so the Session approves the value only
 *   when the core built it from a spec; and the spec's deterministic `then`, if any, must be a literal here,
 *   with no spread that could bring one in from elsewhere.
 */
export type DefinitionKind = 'literal' | 'spec';

function definitionKind(initializer: ts.Expression): DefinitionKind | undefined {
  const ts = typescript();
  const n = unwrap(initializer);
  if (isLiteralDefinition(n)) return 'literal';
  if (!ts.isCallExpression(n)) return undefined;
  if (n.arguments.some((a) => isLiteralDefinition(unwrap(a)))) return 'literal';
  return n.arguments.some((a) => isSpecLiteral(unwrap(a))) ? 'spec' : undefined;
}

function isSpecLiteral(n: ts.Expression): boolean {
  const ts = typescript();
  if (!ts.isObjectLiteralExpression(n)) return false;
  return n.properties.every((p) => {
    // A spread or a computed name could carry a `then` written elsewhere.
    if (ts.isSpreadAssignment(p) || !p.name || ts.isComputedPropertyName(p.name)) return false;
    // Identifiers, string and numeric literals (every name left once computed ones are refused) carry `text`.
    if ((p.name as ts.Identifier).text !== 'then') return true;
    return ts.isMethodDeclaration(p) || (ts.isPropertyAssignment(p) && isLiteralDefinition(unwrap(p.initializer)));
  });
}

/** The callables a cell's source defines at its top level, by name, with how each is defined. */
export function definedCallables(source: string): ReadonlyMap<string, DefinitionKind> {
  // Every function, class and object literal has a `{`, and an arrow function its `=>`: without either, the
  // cell defines nothing and the compiler need not load (`1 + 1`, `import * as nh from "nighthawk-ts"`).
  const names = new Map<string, DefinitionKind>();
  if (!source.includes('{') && !source.includes('=>')) return names;
  const ts = typescript();
  const file = ts.createSourceFile('cell.ts', source, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  for (const statement of file.statements) {
    if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name) names.set(statement.name.text, 'literal');
    if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) {
        const kind = ts.isIdentifier(d.name) && d.initializer ? definitionKind(d.initializer) : undefined;
        if (kind) names.set((d.name as ts.Identifier).text, kind);
      }
    }
  }
  return names;
}

/**
 * Function text that no cell can have defined: native and bound functions, and functions compiled
 * from generated source (every generated body carries the host's reserved guard names).
 */
export function neverOperatorDefined(fn: Function): boolean {
  let text: string;
  try {
    text = Function.prototype.toString.call(fn);
  } catch {
    return true;
  }
  return /\{\s*\[native code\]\s*\}\s*$/.test(text) || text.includes('__nh_');
}
