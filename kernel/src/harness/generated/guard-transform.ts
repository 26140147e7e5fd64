/**
 * Instruments validated source so it runs only inside a live dispatch (seed 001, "Generated code runs
 * only inside its dispatch"). A guard call under a reserved name is injected at:
 *  - every function, method, accessor, constructor and arrow body, and class static blocks (entry);
 *    a class without a constructor is given a guarded one;
 *  - every catch and finally block (handler), so exceptional resumption cannot run handlers late; a catch block
 *    passes what it caught (`__nh_guard(1, e)`), so a refusal the code catches itself still reaches the host;
 *  - after every `await`, `yield` and `yield*` resumes, and at each for-await iteration and loop exit (resume);
 *  - parameter defaults, destructuring defaults and class field initializers (initializer), which run
 *    before a body's first statement.
 * Every function body also sits in a try whose catch hands the exception to `__nh_escaping` and rethrows it, so an
 * exception leaving the function reaches the host before a caller can swallow it.
 * Normal resumption runs through `__nh_resume(await x)`; exceptional resumption throws at the await and
 * can only land in a guarded handler or leave the function. Every generator and async generator
 * declaration becomes an ordinary function that returns a host proxy (`__nh_gen`) over the original
 * generator, whose next/throw/return consult the guard before resuming it (seed 001); validation
 * rejects generator expressions and methods, so no other resumption points exist. Function exports
 * are rebound to their host wrappers at the end of the module, so sibling calls enter dispatch too.
 */
import type TS from 'typescript';
import { ts } from './typescript-lazy.js';
import { GuardSite } from './errors.js';

export const GUARD_NAME = '__nh_guard';
export const RESUME_NAME = '__nh_resume';
export const WRAP_NAME = '__nh_wrap';
export const GEN_NAME = '__nh_gen';
/** Receives what leaves a function as an exception, before any caller can swallow it. */
export const ESCAPING_NAME = '__nh_escaping';

/** Site codes passed to the guard; numbers keep the injected calls short. */
export const SITE_CODES = [GuardSite.entry, GuardSite.handler, GuardSite.resume, GuardSite.initializer] as const;
const ENTRY = 0;
const HANDLER = 1;
const RESUME = 2;
const INITIALIZER = 3;
/**
 * A function's body: its entry guard, then the body observed for exceptions leaving it, before a caller can swallow
 * them (a promise's `.catch`, `Promise.allSettled`, an operator's try).
 */
const FUNCTION_BODY = -1;

export function guardTransformer(exportedLocals: ReadonlyMap<string, string>): TS.TransformerFactory<TS.SourceFile> {
  return (context) => {
    const f = context.factory;
    const guardExpr = (site: number): TS.Expression => f.createCallExpression(f.createIdentifier(GUARD_NAME), undefined, [f.createNumericLiteral(site)]);
    const guardStmt = (site: number): TS.Statement => f.createExpressionStatement(guardExpr(site));
    const guarded = (site: number, expr: TS.Expression): TS.Expression => f.createParenthesizedExpression(f.createCommaListExpression([guardExpr(site), expr]));
    // `try { rest } catch (e) { __nh_escaping(e); throw e; }`: everything the body declares stays in the one block.
    const observed = (statements: readonly TS.Statement[]): TS.Statement => {
      const escaping = f.createUniqueName('escaping');
      const note = f.createExpressionStatement(f.createCallExpression(f.createIdentifier(ESCAPING_NAME), undefined, [escaping]));
      return f.createTryStatement(f.createBlock(statements, true), f.createCatchClause(escaping, f.createBlock([note, f.createThrowStatement(escaping)], true)), undefined);
    };
    const prepend = (block: TS.Block, site: number, observe = false): TS.Block => {
      const split = block.statements.findIndex((s) => !isDirective(s));
      const at = split === -1 ? block.statements.length : split;
      const rest = block.statements.slice(at);
      return f.updateBlock(block, [...block.statements.slice(0, at), guardStmt(site), ...(observe ? [observed(rest)] : rest)]);
    };
    const isForAwait = (node: TS.Node): node is TS.ForOfStatement => ts.isForOfStatement(node) && node.awaitModifier !== undefined;

    const blockSite = (block: TS.Block): number | undefined => {
      const parent = block.parent;
      if (!parent) return undefined;
      if (ts.isFunctionLike(parent) && (parent as TS.FunctionLikeDeclaration).body === block) return FUNCTION_BODY;
      if (ts.isClassStaticBlockDeclaration(parent)) return ENTRY;
      // A catch block gets its guard with the catch clause (in `visit`).
      if (ts.isTryStatement(parent) && parent.finallyBlock === block) return HANDLER;
      if (isForAwait(parent) && parent.statement === block) return RESUME;
      return undefined;
    };

    /**
     * `function* g(p) { body }` → `function g(p) { guard; return __nh_gen(function* () { body }.apply(this, arguments), async) }`.
     * Parameters still bind at call time, as for a generator; the body keeps its own entry guard.
     */
    const guardedGenerator = (node: TS.FunctionDeclaration): TS.FunctionDeclaration => {
      const visited = ts.visitEachChild(node, visit, context);
      const isAsync = hasModifier(visited, ts.SyntaxKind.AsyncKeyword);
      const inner = f.createFunctionExpression(
        isAsync ? [f.createModifier(ts.SyntaxKind.AsyncKeyword)] : undefined,
        f.createToken(ts.SyntaxKind.AsteriskToken),
        undefined,
        undefined,
        [],
        undefined,
        visited.body!,
      );
      const started = f.createCallExpression(f.createPropertyAccessExpression(f.createParenthesizedExpression(inner), 'apply'), undefined, [f.createThis(), f.createIdentifier('arguments')]);
      const proxied = f.createCallExpression(f.createIdentifier(GEN_NAME), undefined, [started, f.createNumericLiteral(isAsync ? 1 : 0)]);
      const modifiers = (ts.getModifiers(visited) ?? []).filter((m) => m.kind !== ts.SyntaxKind.AsyncKeyword);
      return f.updateFunctionDeclaration(visited, modifiers, undefined, visited.name, visited.typeParameters, visited.parameters, undefined, f.createBlock([guardStmt(ENTRY), f.createReturnStatement(proxied)], true));
    };

    const visit = (node: TS.Node): TS.Node | TS.Node[] => {
      if (ts.isFunctionDeclaration(node) && node.asteriskToken && node.body) return guardedGenerator(node);
      if (ts.isBlock(node)) {
        const site = blockSite(node);
        const visited = ts.visitEachChild(node, visit, context);
        if (site === FUNCTION_BODY) return prepend(visited, ENTRY, true);
        return site === undefined ? visited : prepend(visited, site);
      }
      if (ts.isCatchClause(node)) {
        // `catch (e) { __nh_guard(1, e); … }`, a binding added when there is none; a destructured one is unpacked after.
        const visited = ts.visitEachChild(node, visit, context);
        const declared = visited.variableDeclaration;
        const named = declared && ts.isIdentifier(declared.name) ? declared.name.text : undefined;
        const caught = named === undefined ? f.createUniqueName('caught') : f.createIdentifier(named);
        const unpack = declared && named === undefined ? [f.createVariableStatement(undefined, f.createVariableDeclarationList([f.createVariableDeclaration(declared.name, undefined, undefined, caught)], ts.NodeFlags.Let))] : [];
        const guard = f.createExpressionStatement(f.createCallExpression(f.createIdentifier(GUARD_NAME), undefined, [f.createNumericLiteral(HANDLER), caught]));
        return f.updateCatchClause(visited, f.createVariableDeclaration(named === undefined ? caught : f.createIdentifier(named)), f.updateBlock(visited.block, [guard, ...unpack, ...visited.block.statements]));
      }
      if (ts.isArrowFunction(node) && !ts.isBlock(node.body)) {
        const visited = ts.visitEachChild(node, visit, context);
        const body = f.createBlock([guardStmt(ENTRY), observed([f.createReturnStatement(visited.body as TS.Expression)])], true);
        return f.updateArrowFunction(visited, visited.modifiers, visited.typeParameters, visited.parameters, visited.type, visited.equalsGreaterThanToken, body);
      }
      // `yield` (and `yield*`) also resumes the body later: from a next() queued while the node was live, and in an
      // async generator after the implicit await of its operand. The proxy's check covers only the next() call.
      if (ts.isAwaitExpression(node) || ts.isYieldExpression(node)) {
        const visited = ts.visitEachChild(node, visit, context);
        return f.createCallExpression(f.createIdentifier(RESUME_NAME), undefined, [visited]);
      }
      if (ts.isParameter(node) && node.initializer) {
        const visited = ts.visitEachChild(node, visit, context);
        return f.updateParameterDeclaration(visited, visited.modifiers, visited.dotDotDotToken, visited.name, visited.questionToken, visited.type, guarded(INITIALIZER, visited.initializer!));
      }
      if (ts.isBindingElement(node) && (node.initializer || (node.propertyName && ts.isComputedPropertyName(node.propertyName)))) {
        const visited = ts.visitEachChild(node, visit, context);
        const propertyName =
          visited.propertyName && ts.isComputedPropertyName(visited.propertyName)
            ? f.updateComputedPropertyName(visited.propertyName, guarded(INITIALIZER, visited.propertyName.expression))
            : visited.propertyName;
        const initializer = visited.initializer ? guarded(INITIALIZER, visited.initializer) : undefined;
        return f.updateBindingElement(visited, visited.dotDotDotToken, propertyName, visited.name, initializer);
      }
      if (ts.isPropertyDeclaration(node) && node.initializer) {
        const visited = ts.visitEachChild(node, visit, context);
        return f.updatePropertyDeclaration(visited, visited.modifiers, visited.name, visited.questionToken ?? visited.exclamationToken, visited.type, guarded(INITIALIZER, visited.initializer!));
      }
      if (isForAwait(node)) {
        const visited = ts.visitEachChild(node, visit, context);
        const loop = ts.isBlock(node.statement)
          ? visited
          : f.updateForOfStatement(visited, visited.awaitModifier, visited.initializer, visited.expression, f.createBlock([guardStmt(RESUME), visited.statement], true));
        // The loop's exit also resumes from an await; a labelled loop gets its exit guard from the label.
        return node.parent && ts.isLabeledStatement(node.parent) ? loop : f.createBlock([loop, guardStmt(RESUME)], true);
      }
      if ((ts.isClassDeclaration(node) || ts.isClassExpression(node)) && !node.members.some(ts.isConstructorDeclaration)) {
        // A class without a constructor gets a guarded one, so constructing an escaped class is refused too.
        const visited = ts.visitEachChild(node, visit, context) as TS.ClassDeclaration | TS.ClassExpression;
        const derived = visited.heritageClauses?.some((h) => h.token === ts.SyntaxKind.ExtendsKeyword) ?? false;
        const args = f.createUniqueName('args');
        const ctor = f.createConstructorDeclaration(
          undefined,
          derived ? [f.createParameterDeclaration(undefined, f.createToken(ts.SyntaxKind.DotDotDotToken), args)] : [],
          f.createBlock([guardStmt(ENTRY), ...(derived ? [f.createExpressionStatement(f.createCallExpression(f.createSuper(), undefined, [f.createSpreadElement(args)]))] : [])], true),
        );
        const members = [ctor, ...visited.members];
        return ts.isClassDeclaration(visited)
          ? f.updateClassDeclaration(visited, visited.modifiers, visited.name, visited.typeParameters, visited.heritageClauses, members)
          : f.updateClassExpression(visited, visited.modifiers, visited.name, visited.typeParameters, visited.heritageClauses, members);
      }
      if (ts.isLabeledStatement(node) && isForAwait(node.statement)) {
        return f.createBlock([ts.visitEachChild(node, visit, context), guardStmt(RESUME)], true);
      }
      return ts.visitEachChild(node, visit, context);
    };

    return (sourceFile) => {
      const visited = ts.visitEachChild(sourceFile, visit, context);
      const statements = visited.statements.map((s) => (ts.isVariableStatement(s) ? letForExportedLocals(f, s, exportedLocals) : s));
      const split = statements.findIndex((s) => !isDirective(s));
      const at = split === -1 ? statements.length : split;
      const rebinds = [...exportedLocals].map(([local, exportName]) =>
        f.createIfStatement(
          f.createStrictEquality(f.createTypeOfExpression(f.createIdentifier(local)), f.createStringLiteral('function')),
          f.createExpressionStatement(
            f.createAssignment(f.createIdentifier(local), f.createCallExpression(f.createIdentifier(WRAP_NAME), undefined, [f.createStringLiteral(exportName), f.createIdentifier(local)])),
          ),
        ),
      );
      return f.updateSourceFile(visited, [...statements.slice(0, at), guardStmt(ENTRY), ...statements.slice(at), ...rebinds]);
    };
  };
}

/** `export const f = …` becomes `let` so the end-of-module rebind to the host wrapper is legal. */
function letForExportedLocals(f: TS.NodeFactory, statement: TS.VariableStatement, exportedLocals: ReadonlyMap<string, string>): TS.VariableStatement {
  const list = statement.declarationList;
  if ((list.flags & ts.NodeFlags.Const) === 0) return statement;
  if (!list.declarations.some((d) => ts.isIdentifier(d.name) && exportedLocals.has(d.name.text))) return statement;
  return f.updateVariableStatement(statement, statement.modifiers, f.createVariableDeclarationList(list.declarations, ts.NodeFlags.Let));
}

function hasModifier(node: TS.Node, kind: TS.SyntaxKind): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === kind);
}

function isDirective(statement: TS.Statement): boolean {
  return ts.isExpressionStatement(statement) && ts.isStringLiteral(statement.expression);
}
