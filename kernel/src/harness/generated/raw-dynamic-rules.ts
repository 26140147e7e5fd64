/**
 * The raw-dynamic-execution check of seed 001 over one parsed source file. It is detective-grade:
 * it rejects every spelling the parser can see; spellings it cannot see meet the runtime shadows
 * (runtime-shadows.ts) or are documented gaps. Guard names (`__nh_*`) are reserved here too.
 */
import type TS from 'typescript';
import { ts } from './typescript-lazy.js';
import type { Violation, ViolationRule } from './violation.js';
import { violationAt } from './violation-at.js';
import { FORBIDDEN_MODULES, RESERVED_PREFIX } from './forbidden-names.js';

const GLOBAL_OBJECT_NAMES = new Set(['globalThis', 'window', 'self', 'global']);
const TIMER_NAMES = new Set(['setTimeout', 'setInterval', 'setImmediate']);
const REFLECTIVE_KEY_CALLS = new Set([
  'Reflect.get',
  'Reflect.set',
  'Reflect.has',
  'Reflect.getOwnPropertyDescriptor',
  'Reflect.defineProperty',
  'Object.getOwnPropertyDescriptor',
  'Object.defineProperty',
]);
const PROCESS_INTERNALS = new Set(['binding', '_linkedBinding', 'dlopen']);

function unparen(node: TS.Expression): TS.Expression {
  while (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isNonNullExpression(node) || ts.isSatisfiesExpression(node)) {
    node = node.expression;
  }
  return node;
}

/** The key of a member access or binding key when it is a literal; undefined when computed. */
function literalKey(node: TS.Node | undefined): string | undefined {
  if (!node) return undefined;
  if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) return node.text;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isNumericLiteral(node)) return node.text;
  if (ts.isComputedPropertyName(node)) return expressionKey(node.expression);
  return undefined;
}

/** The value of an expression used as a key or specifier when it is a literal; undefined when computed. */
function expressionKey(node: TS.Expression): string | undefined {
  const e = unparen(node);
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e) || ts.isNumericLiteral(e)) return e.text;
  return undefined;
}

function isStringish(node: TS.Expression): boolean {
  node = unparen(node);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) return true;
  return ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken && (isStringish(node.left) || isStringish(node.right));
}

function dottedName(node: TS.Expression): string | undefined {
  node = unparen(node);
  if (ts.isIdentifier(node)) return node.text;
  if (ts.isPropertyAccessExpression(node)) {
    const left = dottedName(node.expression);
    return left === undefined ? undefined : `${left}.${node.name.text}`;
  }
  return undefined;
}

/** Names declared anywhere in the file: a local `self` or `global` is not the global object. */
function declaredNames(sourceFile: TS.SourceFile): Set<string> {
  const names = new Set<string>();
  const visit = (node: TS.Node): void => {
    if ((ts.isVariableDeclaration(node) || ts.isParameter(node) || ts.isBindingElement(node)) && ts.isIdentifier(node.name)) names.add(node.name.text);
    if ((ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node)) && node.name) names.add(node.name.text);
    if (ts.isImportClause(node) && node.name) names.add(node.name.text);
    if ((ts.isNamespaceImport(node) || ts.isImportSpecifier(node)) && ts.isIdentifier(node.name)) names.add(node.name.text);
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return names;
}

export function checkRawDynamicExecution(sourceFile: TS.SourceFile): Violation[] {
  const out: Violation[] = [];
  const declared = declaredNames(sourceFile);
  const processNames = new Set(declared.has('process') ? [] : ['process']);
  const exempt = new Set<TS.Node>();
  const flag = (node: TS.Node, rule: ViolationRule, message: string): void => {
    out.push(violationAt(sourceFile, node, rule, message));
  };
  const isGlobalObject = (expr: TS.Expression): boolean => {
    const e = unparen(expr);
    if (ts.isIdentifier(e)) return GLOBAL_OBJECT_NAMES.has(e.text) && !declared.has(e.text);
    if (ts.isPropertyAccessExpression(e)) return GLOBAL_OBJECT_NAMES.has(e.name.text) && isGlobalObject(e.expression);
    return false;
  };
  const checkModuleSpecifier = (node: TS.Node, spec: TS.Expression | undefined, computedRule: ViolationRule, what: string): void => {
    const literal = spec ? expressionKey(spec) : undefined;
    if (spec && literal === undefined) flag(node, computedRule, `${what} of a constructed specifier runs code chosen at run time; use a literal specifier.`);
    else if (literal !== undefined && FORBIDDEN_MODULES.has(literal)) flag(node, 'forbidden-module', `Module '${literal}' runs constructed code or reaches the engine; it is not available to generated code.`);
  };
  /** Rules for a statically known property key read from some object. */
  const checkKey = (node: TS.Node, key: string, receiver: TS.Expression | undefined, parent: TS.Node): void => {
    if (key === 'eval') flag(node, 'eval', 'eval is raw dynamic execution.');
    else if (key === 'Function') flag(node, 'function-constructor', 'The Function constructor is raw dynamic execution.');
    else if (key === 'constructor' && !isHarmlessConstructorRead(parent))
      flag(node, 'function-constructor', "Reading '.constructor' can reach the Function constructor; only '.constructor.name' and comparisons are allowed.");
    else if (key === 'callee' || key === 'caller') flag(node, 'arguments-callee', `'.${key}' introspection is not allowed.`);
    else if (key === '_load' || key === 'mainModule') flag(node, 'module-load', `'${key}' loads modules outside the module rules.`);
    else if (key.startsWith(RESERVED_PREFIX)) flag(node, 'reserved-name', `'${key}' is a reserved guard name.`);
    else if (PROCESS_INTERNALS.has(key) && receiver && ts.isIdentifier(unparen(receiver)) && processNames.has((unparen(receiver) as TS.Identifier).text))
      flag(node, 'process-binding', `process.${key} reaches engine internals.`);
  };

  let functionDepth = 0;
  const visit = (node: TS.Node): void => {
    if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return;
    if (ts.isImportDeclaration(node) && node.importClause?.isTypeOnly) return;
    if (ts.isTypeNode(node) && !isClassExtends(node)) return;
    const isFunction = ts.isFunctionLike(node) && !ts.isTypeNode(node);
    if (isFunction) functionDepth++;
    try {
      checkNode(node);
      ts.forEachChild(node, visit);
    } finally {
      if (isFunction) functionDepth--;
    }
  };

  const checkNode = (node: TS.Node): void => {
    if (ts.isIdentifier(node)) {
      const parent = node.parent;
      if (node.text.startsWith(RESERVED_PREFIX)) return flag(node, 'reserved-name', `'${node.text}' is a reserved guard name.`);
      if (ts.isPropertyAccessExpression(parent) && parent.name === node) return; // checked as a member key
      if (ts.isBindingElement(parent) && ts.isObjectBindingPattern(parent.parent)) return; // checked as a binding key
      if ((ts.isPropertyAssignment(parent) || ts.isShorthandPropertyAssignment(parent)) && parent.name === node) return; // object keys
      if (node.text === 'eval' && !exempt.has(parent)) flag(node, 'eval', 'eval is raw dynamic execution.');
      else if (node.text === 'Function' && !declared.has('Function') && !isHarmlessFunctionReference(node))
        flag(node, 'function-constructor', 'The Function constructor is raw dynamic execution.');
      return;
    }
    if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
      const key = ts.isPropertyAccessExpression(node) ? node.name.text : expressionKey(node.argumentExpression);
      if (key === undefined) {
        if (isGlobalObject(node.expression)) flag(node, 'computed-global-access', 'A computed key on the global object can reach eval or Function; use a literal property name.');
      } else checkKey(node, key, node.expression, node.parent);
      return;
    }
    if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
      const key = literalKey(node.propertyName ?? node.name);
      if (key !== undefined) checkKey(node, key, undefined, node);
      if (node.propertyName && ts.isIdentifier(node.name) && node.name.text === 'eval') flag(node.name, 'eval', "A binding named 'eval' is not allowed.");
      return;
    }
    if ((ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) && ts.isObjectLiteralExpression(node.parent)) {
      const key = literalKey(node.name);
      if (key === 'eval' && !exempt.has(node)) flag(node, 'eval', "A property named 'eval' is not allowed in generated source.");
      else if (key === 'Function' && ts.isShorthandPropertyAssignment(node) && !declared.has('Function'))
        flag(node, 'function-constructor', 'The Function constructor is raw dynamic execution.');
      else if (key !== undefined && key !== 'eval' && isAssignmentPattern(node.parent)) checkKey(node, key, undefined, node);
      else if (key?.startsWith(RESERVED_PREFIX)) flag(node, 'reserved-name', `'${key}' is a reserved guard name.`);
      return;
    }
    if (ts.isCallExpression(node)) return checkCall(node);
    if (ts.isNewExpression(node)) return checkNew(node);
    if (ts.isWithStatement(node)) return flag(node, 'with-statement', "'with' evaluates names chosen at run time.");
    if (ts.isDebuggerStatement(node)) return flag(node, 'debugger', "'debugger' is not allowed in generated source.");
    // Generator declarations are compiled to guarded proxies; expressions (generator lambdas) and methods are not (seed 001).
    if ((ts.isFunctionExpression(node) || ts.isMethodDeclaration(node)) && node.asteriskToken)
      return flag(node, 'generator', 'Generator function expressions and generator methods are not allowed; declare the generator with a function* declaration.');
    if (ts.isMethodDeclaration(node) && node.modifiers?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword))
      return flag(node, 'coroutine-method', 'Async (coroutine) methods are not allowed in generated source; use an async function declaration.');
    if (ts.isAwaitExpression(node) && functionDepth === 0) return flag(node, 'top-level-await', 'Top-level await is not supported; module evaluation is synchronous.');
    if (ts.isForOfStatement(node) && node.awaitModifier && functionDepth === 0) return flag(node, 'top-level-await', 'Top-level for-await is not supported.');
    if (ts.isVariableDeclarationList(node) && (node.flags & ts.NodeFlags.Using) !== 0)
      return flag(node, 'unsupported-syntax', "'using' declarations are not supported in generated source.");
    if (ts.isMetaProperty(node) && node.keywordToken === ts.SyntaxKind.ImportKeyword) return flag(node, 'unsupported-syntax', "'import.meta' is not available to generated source.");
    if (ts.isImportDeclaration(node)) return checkImport(node);
    if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      return checkModuleSpecifier(node, node.moduleReference.expression, 'dynamic-require', 'require');
    if (ts.isExportDeclaration(node) && node.moduleSpecifier && !node.isTypeOnly) return checkModuleSpecifier(node, node.moduleSpecifier, 'dynamic-import', 'export from');
  };

  const checkImport = (node: TS.ImportDeclaration): void => {
    checkModuleSpecifier(node, node.moduleSpecifier, 'dynamic-import', 'import');
    const spec = expressionKey(node.moduleSpecifier);
    if (spec !== 'process' && spec !== 'node:process') return;
    const clause = node.importClause;
    if (clause?.name) processNames.add(clause.name.text);
    const bindings = clause?.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) processNames.add(bindings.name.text);
    if (bindings && ts.isNamedImports(bindings)) {
      for (const el of bindings.elements) {
        const imported = (el.propertyName ?? el.name).text;
        if (PROCESS_INTERNALS.has(imported)) flag(el, 'process-binding', `process.${imported} reaches engine internals.`);
      }
    }
  };

  const checkCall = (node: TS.CallExpression): void => {
    const callee = unparen(node.expression);
    const first = node.arguments[0];
    if (node.expression.kind === ts.SyntaxKind.ImportKeyword) return checkModuleSpecifier(node, first ?? node, 'dynamic-import', 'import()');
    const name = dottedName(callee);
    const last = ts.isPropertyAccessExpression(callee) ? callee.name.text : name;
    if ((name === 'require' && !declared.has('require')) || (last === 'require' && ts.isPropertyAccessExpression(callee)))
      return checkModuleSpecifier(node, first ?? node, 'dynamic-require', 'require');
    if (last === 'getBuiltinModule') return checkModuleSpecifier(node, first ?? node, 'dynamic-require', 'getBuiltinModule');
    if (last !== undefined && TIMER_NAMES.has(last) && first && isStringish(first))
      return flag(node, 'timer-string', `${last} with a string argument evaluates that string as code.`);
    if (name && REFLECTIVE_KEY_CALLS.has(name) && node.arguments.length >= 2) {
      const [target, keyArg] = node.arguments as unknown as [TS.Expression, TS.Expression];
      const key = expressionKey(keyArg);
      if (key === undefined) {
        if (isGlobalObject(target)) flag(node, 'computed-global-access', `${name} with a computed key on the global object can reach eval or Function.`);
      } else checkKey(node, key, target, node);
    }
  };

  const checkNew = (node: TS.NewExpression): void => {
    const callee = unparen(node.expression);
    const last = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
    if (last !== 'Worker' || !node.arguments || node.arguments.length < 2) return;
    const options = unparen(node.arguments[1]!);
    if (!ts.isObjectLiteralExpression(options) || options.properties.some((p) => ts.isSpreadAssignment(p))) {
      return flag(node, 'worker-eval', 'Worker options must be a literal object so an eval option is visible.');
    }
    for (const property of options.properties) {
      if (literalKey(property.name) === 'eval') {
        exempt.add(property);
        flag(property, 'worker-eval', 'A Worker with eval: true runs constructed code.');
      }
    }
  };

  visit(sourceFile);
  return out;
}

/** `x.constructor.name` and `x.constructor === Y` cannot reach a constructor's call. */
function isHarmlessConstructorRead(parent: TS.Node): boolean {
  if (ts.isPropertyAccessExpression(parent) && parent.name.text === 'name') return true;
  if (!ts.isBinaryExpression(parent)) return false;
  const op = parent.operatorToken.kind;
  return (
    op === ts.SyntaxKind.EqualsEqualsEqualsToken ||
    op === ts.SyntaxKind.ExclamationEqualsEqualsToken ||
    op === ts.SyntaxKind.EqualsEqualsToken ||
    op === ts.SyntaxKind.ExclamationEqualsToken
  );
}

/** `x instanceof Function`, `typeof Function` and `Function.prototype.x` do not construct. */
function isHarmlessFunctionReference(node: TS.Identifier): boolean {
  const parent = node.parent;
  if (ts.isBinaryExpression(parent) && parent.right === node && parent.operatorToken.kind === ts.SyntaxKind.InstanceOfKeyword) return true;
  if (ts.isTypeOfExpression(parent)) return true;
  return ts.isPropertyAccessExpression(parent) && parent.expression === node && parent.name.text === 'prototype';
}

function isClassExtends(node: TS.Node): boolean {
  return ts.isExpressionWithTypeArguments(node) && ts.isHeritageClause(node.parent) && node.parent.token === ts.SyntaxKind.ExtendsKeyword && ts.isClassLike(node.parent.parent);
}

function isAssignmentPattern(literal: TS.ObjectLiteralExpression): boolean {
  const parent = literal.parent;
  return ts.isBinaryExpression(parent) && parent.left === literal && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken;
}
