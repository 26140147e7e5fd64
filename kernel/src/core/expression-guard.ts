/**
 * Functions a model expression defines run only while an operation of the Natural execution that evaluated them
 * runs (seed 001: model-authored expressions run only inside the executor's evaluation; issue 13: code made from
 * text never outlives its check). Not after the execution ended, and not between its operations either: there
 * the host requests the model, inspects and commits, and a timer or promise job an expression left behind must
 * not act meanwhile. An expression that defines functions is rewritten so every function body,
 * catch and finally block, parameter default, and resumption after `await` or `yield` first calls a guard
 * bound to its evaluation. Expressions without function syntax are compiled unchanged.
 */
import type TS from 'typescript';
import { NighthawkError } from './errors.js';
import type { InteriorRefusal } from './interior.js';
import { typescript } from './transform/typescript-module.js';

/** Why a function a model expression defined may not run now (an expression has no dispatch node). */
export type ExpressionCodeRefusal = Exclude<InteriorRefusal, 'dispatch-ended'>;

/**
 * A function a model expression defined was called, or resumed, outside an operation of its Natural execution:
 * after that execution ended, or while it was between operations (the host requesting the model, inspecting,
 * committing), when only host code may run.
 */
export class ExpressionCodeOutsideExecutionError extends NighthawkError {
  readonly executionId: string;
  readonly refusal: ExpressionCodeRefusal;
  constructor(options: { executionId: string; refusal?: ExpressionCodeRefusal }) {
    const refusal = options.refusal ?? 'execution-ended';
    super(
      'expression-code-outside-execution',
      refusal === 'execution-ended'
        ? `A function defined by a model expression of ${options.executionId} was called after that Natural execution ended; ` +
            'code made from model text runs only inside its execution.'
        : `A function defined by a model expression of ${options.executionId} was called while no operation of that Natural ` +
            'execution was running; code made from model text runs only inside an operation of its execution.',
    );
    this.executionId = options.executionId;
    this.refusal = refusal;
  }
}

/**
 * Where a late refusal is recorded: the Harness registers this once, capturing its host at evaluation.
 * `refused` receives the error after `report` recorded it: a late callback's caller may be the event loop,
 * which has nobody to throw to, so the Harness keeps the error to absorb it there instead of ending the process.
 */
export interface LateRefusalSink {
  capture(): unknown;
  report(captured: unknown, detail: { executionId: string; operationId: string | undefined; refusal: ExpressionCodeRefusal }): void;
  refused?(error: Error): void;
}
let sink: LateRefusalSink | undefined;

/** Registers the recorder of late refusals; the first registration stands. */
export function setLateRefusalSink(value: LateRefusalSink): void {
  sink ??= value;
}

/** A guard pair for one evaluation: `live` refuses (and records) whenever `refusal()` names a reason. */
export function expressionGuard(
  ids: { executionId: string; operationId: string | undefined },
  refusal: () => ExpressionCodeRefusal | undefined,
): { live: () => void; resumed: <T>(value: T) => T } {
  let captured: unknown;
  try {
    captured = sink?.capture();
  } catch {
    captured = undefined;
  }
  const live = (): void => {
    const reason = refusal();
    if (reason === undefined) return;
    try {
      sink?.report(captured, { ...ids, refusal: reason });
    } catch {
      /* the refusal below is the outcome */
    }
    const error = new ExpressionCodeOutsideExecutionError({ executionId: ids.executionId, refusal: reason });
    try {
      sink?.refused?.(error);
    } catch {
      /* thrown either way */
    }
    throw error;
  };
  return { live, resumed: (value) => (live(), value) };
}

export const LIVE_NAME = '__nh_live';
export const RESUMED_NAME = '__nh_resumed';

/** Cheap pre-check: only text that could define a function is parsed. */
const MAY_DEFINE_FUNCTION = /=>|\bfunction\b|\bclass\b|\)\s*\{|\b(?:get|set|static)\b/;

/** The expression with guards inserted, or the expression itself when it defines no function. */
export function guardExpressionFunctions(expression: string): string {
  if (!MAY_DEFINE_FUNCTION.test(expression)) return expression;
  const ts = typescript();
  // Parsed as the async arrow it is compiled into, so top-level `await` parses as it will run.
  const source = ts.createSourceFile('expression.js', `(async () => (\n${expression}\n));`, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  if ((source as unknown as { parseDiagnostics?: unknown[] }).parseDiagnostics?.length) return expression; // the compiler reports it
  const outer = wrapperOf(ts, source);
  if (!outer) return expression;
  let changed = false;
  const result = ts.transform(source, [(context) => (root) => ts.visitNode(root, visitorFor(ts, context, outer, () => (changed = true))) as TS.SourceFile]);
  try {
    if (!changed) return expression;
    const transformedOuter = wrapperOf(ts, result.transformed[0]!);
    if (!transformedOuter) return expression;
    return ts.createPrinter({ removeComments: false }).printNode(ts.EmitHint.Expression, transformedOuter.body as TS.Expression, result.transformed[0]!);
  } finally {
    result.dispose();
  }
}

function wrapperOf(ts: typeof TS, file: TS.SourceFile): TS.ArrowFunction | undefined {
  const statement = file.statements[0];
  if (!statement || !ts.isExpressionStatement(statement) || !ts.isParenthesizedExpression(statement.expression)) return undefined;
  const arrow = statement.expression.expression;
  return ts.isArrowFunction(arrow) ? arrow : undefined;
}

function visitorFor(ts: typeof TS, context: TS.TransformationContext, outer: TS.Node, onChange: () => void): (node: TS.Node) => TS.Node {
  const f = context.factory;
  const call = (name: string, args: TS.Expression[] = []) => f.createCallExpression(f.createIdentifier(name), undefined, args);
  const liveStatement = () => f.createExpressionStatement(call(LIVE_NAME));
  const prepend = (block: TS.Block) => f.updateBlock(block, [liveStatement(), ...block.statements]);
  const visit = (node: TS.Node): TS.Node => {
    if (node === outer) return ts.visitEachChild(node, visit, context);
    if (ts.isBlock(node)) {
      const parent = node.parent;
      const visited = ts.visitEachChild(node, visit, context);
      const isBody = parent && ((ts.isFunctionLike(parent) && (parent as TS.FunctionLikeDeclaration).body === node) || ts.isCatchClause(parent) || (ts.isTryStatement(parent) && parent.finallyBlock === node) || ts.isClassStaticBlockDeclaration(parent));
      if (!isBody) return visited;
      onChange();
      return prepend(visited);
    }
    if (ts.isArrowFunction(node) && !ts.isBlock(node.body)) {
      const visited = ts.visitEachChild(node, visit, context);
      onChange();
      const body = f.createBlock([liveStatement(), f.createReturnStatement(visited.body as TS.Expression)], true);
      return f.updateArrowFunction(visited, visited.modifiers, visited.typeParameters, visited.parameters, visited.type, visited.equalsGreaterThanToken, body);
    }
    if (ts.isAwaitExpression(node) || ts.isYieldExpression(node)) {
      // Resumption is guarded only inside a function the expression defines; the expression's own awaits run in its evaluation.
      const visited = ts.visitEachChild(node, visit, context) as TS.Expression;
      if (!insideDefinedFunction(ts, node, outer)) return visited;
      onChange();
      return call(RESUMED_NAME, [visited]);
    }
    if (ts.isParameter(node) && node.initializer) {
      const visited = ts.visitEachChild(node, visit, context);
      onChange();
      return f.updateParameterDeclaration(visited, visited.modifiers, visited.dotDotDotToken, visited.name, visited.questionToken, visited.type, f.createParenthesizedExpression(f.createCommaListExpression([call(LIVE_NAME), visited.initializer!])));
    }
    if ((ts.isClassDeclaration(node) || ts.isClassExpression(node)) && !node.members.some(ts.isConstructorDeclaration)) {
      const visited = ts.visitEachChild(node, visit, context) as TS.ClassExpression;
      onChange();
      const derived = visited.heritageClauses?.some((h) => h.token === ts.SyntaxKind.ExtendsKeyword) ?? false;
      const args = f.createUniqueName('args');
      const ctor = f.createConstructorDeclaration(
        undefined,
        derived ? [f.createParameterDeclaration(undefined, f.createToken(ts.SyntaxKind.DotDotDotToken), args)] : [],
        f.createBlock([liveStatement(), ...(derived ? [f.createExpressionStatement(f.createCallExpression(f.createSuper(), undefined, [f.createSpreadElement(args)]))] : [])], true),
      );
      return ts.isClassExpression(visited)
        ? f.updateClassExpression(visited, visited.modifiers, visited.name, visited.typeParameters, visited.heritageClauses, [ctor, ...visited.members])
        : visited;
    }
    return ts.visitEachChild(node, visit, context);
  };
  return visit;
}

function insideDefinedFunction(ts: typeof TS, node: TS.Node, outer: TS.Node): boolean {
  for (let p = node.parent; p && p !== outer; p = p.parent) if (ts.isFunctionLike(p)) return true;
  return false;
}
