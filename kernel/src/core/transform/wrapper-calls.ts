/**
 * Recognising calls of the library's function wrapper: `nh.function(fn)`, `naturalFunction(fn)`,
 * and any local name or namespace imported from the runtime module.
 */
import type TS from 'typescript';
import { typescript } from './typescript-module.js';

const WRAPPER_EXPORTS: ReadonlySet<string> = new Set(['function', 'naturalFunction']);

export interface WrapperNames {
  /** Local identifiers bound to the wrapper (`naturalFunction`, or an alias of an import). */
  readonly functions: ReadonlySet<string>;
  /** Local identifiers whose `.function` / `.naturalFunction` is the wrapper (`nh`, namespace imports). */
  readonly namespaces: ReadonlySet<string>;
}

/** Resolves the wrapper's local names from the file's imports of `modules`, plus the common spellings. */
export function wrapperNames(file: TS.SourceFile, modules: ReadonlySet<string>): WrapperNames {
  const ts = typescript();
  const functions = new Set(['naturalFunction']);
  const namespaces = new Set(['nh']);
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    if (!modules.has(statement.moduleSpecifier.text)) continue;
    const clause = statement.importClause;
    if (!clause || clause.isTypeOnly) continue;
    if (clause.name) namespaces.add(clause.name.text);
    const bindings = clause.namedBindings;
    if (!bindings) continue;
    if (ts.isNamespaceImport(bindings)) {
      namespaces.add(bindings.name.text);
      continue;
    }
    for (const spec of bindings.elements) {
      const imported = (spec.propertyName ?? spec.name).text;
      if (WRAPPER_EXPORTS.has(imported) && !spec.isTypeOnly) functions.add(spec.name.text);
    }
  }
  return { functions, namespaces };
}

export interface WrapperCall {
  readonly call: TS.CallExpression;
  readonly fn: TS.FunctionExpression | TS.ArrowFunction;
  /** The user's second argument (`{ bindings: { x: z.number() } }`), if any. */
  readonly options: TS.Expression | undefined;
}

function isWrapperCallee(callee: TS.Expression, names: WrapperNames): boolean {
  const ts = typescript();
  if (ts.isIdentifier(callee)) return names.functions.has(callee.text);
  if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.name)) {
    const member = callee.name.text;
    if (member === 'naturalFunction') return true;
    return member === 'function' && ts.isIdentifier(callee.expression) && names.namespaces.has(callee.expression.text);
  }
  return false;
}

/** The wrapper call whose first argument is `fn`, or undefined. */
export function wrapperCallOf(fn: TS.SignatureDeclaration, names: WrapperNames): WrapperCall | undefined {
  const ts = typescript();
  if (!ts.isFunctionExpression(fn) && !ts.isArrowFunction(fn)) return undefined;
  let argument: TS.Node = fn;
  while (ts.isParenthesizedExpression(argument.parent)) argument = argument.parent;
  const call = argument.parent;
  if (!call || !ts.isCallExpression(call) || call.arguments[0] !== argument) return undefined;
  if (!isWrapperCallee(call.expression, names)) return undefined;
  return { call, fn, options: call.arguments[1] };
}

/** Every wrapper call in the file, in source order. */
export function findWrapperCalls(file: TS.SourceFile, names: WrapperNames): WrapperCall[] {
  const ts = typescript();
  const calls: WrapperCall[] = [];
  const visit = (node: TS.Node): void => {
    if (ts.isFunctionExpression(node) || ts.isArrowFunction(node)) {
      const call = wrapperCallOf(node, names);
      if (call) calls.push(call);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return calls;
}

/**
 * Where explicit schema `name` comes from in the user's options: a copy of the property's text for
 * an object literal (`{ bindings: { x: z.number() } }`), a run-time lookup for an identifier
 * (`opts.bindings?.["x"]`), `unreadable` for anything else, undefined when not given.
 */
export function explicitSchemaText(
  options: TS.Expression | undefined,
  name: string,
  sourceText: string,
): { kind: 'literal' | 'lookup'; text: string } | { kind: 'unreadable' } | undefined {
  const ts = typescript();
  if (!options) return undefined;
  if (ts.isIdentifier(options)) return { kind: 'lookup', text: `${options.text}.bindings?.[${JSON.stringify(name)}]` };
  if (!ts.isObjectLiteralExpression(options)) return { kind: 'unreadable' };
  for (const property of options.properties) {
    if (!property.name || !ts.isIdentifier(property.name) || property.name.text !== 'bindings') continue;
    if (!ts.isPropertyAssignment(property) || !ts.isObjectLiteralExpression(property.initializer)) return { kind: 'unreadable' };
    for (const entry of property.initializer.properties) {
      if (!entry.name || !(ts.isIdentifier(entry.name) || ts.isStringLiteral(entry.name)) || entry.name.text !== name) continue;
      if (ts.isPropertyAssignment(entry)) return { kind: 'literal', text: sourceText.slice(entry.initializer.getStart(), entry.initializer.end) };
      if (ts.isShorthandPropertyAssignment(entry)) return { kind: 'literal', text: entry.name.text };
      return { kind: 'unreadable' };
    }
  }
  return undefined;
}
