/**
 * Observed definition materialization (seed 001): a callable is approved for a cell only if that
 * cell's source defines it. A cell that merely binds an existing value (`const f = generated`,
 * `const f = await make()`, `const f = g.bind(x)`) defines nothing, so nothing is approved.
 */
import { createRequire } from 'node:module';
import type ts from 'typescript';

// Required on first use: a static import made every importer of the library (each kernel process) load, lex and
// parse the 9 MB compiler, about half a second and tens of megabytes.
const requireHere = createRequire(import.meta.url);
let loaded: typeof ts | undefined;
const typescript = (): typeof ts => (loaded ??= requireHere('typescript') as typeof ts);

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

/**
 * The callables a cell's source defines at its top level, by name, with how each is defined. A name the cell
 * also binds to something else (assigns anywhere in the cell, destructures into, redeclares without a
 * definition, sets through `globalThis`) is left out: the value it ends with may not be the one defined.
 */
export function definedCallables(source: string): ReadonlyMap<string, DefinitionKind> {
  // Every function, class and object literal has a `{`, and an arrow function its `=>`: without either, the
  // cell defines nothing and the compiler need not load (`1 + 1`, `import * as nh from "nighthawk-ts"`).
  const names = new Map<string, DefinitionKind>();
  if (!source.includes('{') && !source.includes('=>')) return names;
  const ts = typescript();
  const file = ts.createSourceFile('cell.ts', source, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const rebound = new Set<string>();
  for (const statement of file.statements) {
    if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name) {
      if (names.has(statement.name.text)) rebound.add(statement.name.text);
      names.set(statement.name.text, 'literal');
    }
    if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) {
        for (const name of boundNames(d.name)) if (names.has(name)) rebound.add(name);
        const kind = ts.isIdentifier(d.name) && d.initializer ? definitionKind(d.initializer) : undefined;
        if (kind) names.set((d.name as ts.Identifier).text, kind);
        else for (const name of boundNames(d.name)) rebound.add(name);
      }
    }
  }
  if (names.size === 0) return names;
  collectReassigned(file, names, rebound);
  for (const name of rebound) names.delete(name);
  return names;
}

/** The identifiers a declaration name or an assignment target binds (destructuring included). */
function boundNames(target: ts.Node): string[] {
  const ts = typescript();
  const out: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isIdentifier(n)) out.push(n.text);
    else if (ts.isParenthesizedExpression(n) || ts.isNonNullExpression(n) || ts.isAsExpression(n) || ts.isSatisfiesExpression(n) || ts.isTypeAssertionExpression(n)) visit(n.expression);
    else if (ts.isArrayLiteralExpression(n) || ts.isArrayBindingPattern(n)) n.elements.forEach(visit);
    else if (ts.isObjectLiteralExpression(n)) {
      for (const p of n.properties) {
        if (ts.isShorthandPropertyAssignment(p)) out.push(p.name.text);
        else if (ts.isPropertyAssignment(p)) visit(p.initializer);
        else if (ts.isSpreadAssignment(p)) visit(p.expression);
      }
    } else if (ts.isObjectBindingPattern(n)) n.elements.forEach(visit);
    else if (ts.isBindingElement(n)) visit(n.name);
    else if (ts.isSpreadElement(n)) visit(n.expression);
    // `[f = other] = []`: the target is the left side of the default.
    else if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.EqualsToken) visit(n.left);
  };
  visit(target);
  return out;
}

const GLOBAL_OBJECTS = new Set(['globalThis', 'global', 'self', 'window']);

/** Adds to `rebound` each defined name the cell assigns anywhere, unless a nearer declaration shadows it there. */
function collectReassigned(file: ts.SourceFile, names: ReadonlyMap<string, DefinitionKind>, rebound: Set<string>): void {
  const ts = typescript();
  const note = (name: string, at: ts.Node): void => {
    if (names.has(name) && !shadowed(name, at)) rebound.add(name);
  };
  const visit = (n: ts.Node): void => {
    if (ts.isBinaryExpression(n) && n.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && n.operatorToken.kind <= ts.SyntaxKind.LastAssignment) {
      const left = n.left;
      if ((ts.isPropertyAccessExpression(left) || ts.isElementAccessExpression(left)) && globalTarget(left)) {
        const key = ts.isPropertyAccessExpression(left) ? left.name.text : ts.isStringLiteralLike(left.argumentExpression) ? left.argumentExpression.text : undefined;
        // A computed key could name any of them.
        if (key === undefined) for (const name of names.keys()) rebound.add(name);
        else if (names.has(key)) rebound.add(key);
      } else for (const name of boundNames(left)) note(name, n);
    } else if ((ts.isPrefixUnaryExpression(n) || ts.isPostfixUnaryExpression(n)) && (n.operator === ts.SyntaxKind.PlusPlusToken || n.operator === ts.SyntaxKind.MinusMinusToken)) {
      for (const name of boundNames(n.operand)) note(name, n);
    } else if ((ts.isForOfStatement(n) || ts.isForInStatement(n)) && !ts.isVariableDeclarationList(n.initializer)) {
      for (const name of boundNames(n.initializer)) note(name, n);
    }
    ts.forEachChild(n, visit);
  };
  visit(file);

  function globalTarget(access: ts.PropertyAccessExpression | ts.ElementAccessExpression): boolean {
    const object = access.expression;
    return (ts.isIdentifier(object) && GLOBAL_OBJECTS.has(object.text)) || object.kind === ts.SyntaxKind.ThisKeyword;
  }

  /** True when a function, block or catch clause between `at` and the top level declares its own `name`. */
  function shadowed(name: string, at: ts.Node): boolean {
    for (let n: ts.Node | undefined = at.parent; n && !ts.isSourceFile(n); n = n.parent) {
      if (ts.isFunctionLike(n) && n.parameters.some((p) => boundNames(p.name).includes(name))) return true;
      if (ts.isCatchClause(n) && n.variableDeclaration && boundNames(n.variableDeclaration.name).includes(name)) return true;
      if ((ts.isForStatement(n) || ts.isForOfStatement(n) || ts.isForInStatement(n)) && n.initializer && ts.isVariableDeclarationList(n.initializer) && n.initializer.declarations.some((d) => boundNames(d.name).includes(name))) return true;
      if (ts.isBlock(n) || ts.isModuleBlock(n)) {
        for (const s of n.statements) {
          if ((ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s)) && s.name?.text === name) return true;
          if (ts.isVariableStatement(s) && s.declarationList.declarations.some((d) => boundNames(d.name).includes(name))) return true;
        }
      }
    }
    return false;
  }
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
