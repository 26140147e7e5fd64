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
 * True when the initializer creates the callable from text in this cell: a function or class literal,
 * or a call that wraps one (a core transformation such as `nh.function(async function f() {...})`,
 * or `nh.naturalFunction({...})` over a spec literal written here).
 */
function defines(initializer: ts.Expression): boolean {
  const ts = typescript();
  const n = unwrap(initializer);
  if (isLiteralDefinition(n)) return true;
  if (ts.isCallExpression(n)) return n.arguments.some((a) => isLiteralDefinition(unwrap(a)) || ts.isObjectLiteralExpression(unwrap(a)));
  return false;
}

/** Names of the callables a cell's source defines at its top level. */
export function definedCallableNames(source: string): ReadonlySet<string> {
  // Every function, class and object literal has a `{`, and an arrow function its `=>`: without either, the
  // cell defines nothing and the compiler need not load (`1 + 1`, `import * as nh from "nighthawk-ts"`).
  if (!source.includes('{') && !source.includes('=>')) return new Set();
  const ts = typescript();
  const file = ts.createSourceFile('cell.ts', source, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  const names = new Set<string>();
  for (const statement of file.statements) {
    if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name) names.add(statement.name.text);
    if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) {
        if (ts.isIdentifier(d.name) && d.initializer && defines(d.initializer)) names.add(d.name.text);
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
