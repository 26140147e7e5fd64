/**
 * Functions a model expression defines run only while an operation of the Natural execution that evaluated them
 * runs (seed 001: model-authored expressions run only inside the executor's evaluation; issue 13: code made from
 * text never outlives its check). Not after the execution ended, and not between its operations either: there
 * the host requests the model, inspects and commits, and a timer or promise job an expression left behind must
 * not act meanwhile. An expression that defines functions is rewritten so every function body,
 * catch and finally block, parameter default, and resumption after `await` or `yield` first calls a guard
 * bound to its evaluation. Text without `{` or `=>` cannot define a function and is compiled unchanged; other text is
 * compiled as the parser read it, and text the parser cannot read cleanly is refused (fail closed).
 */
import type TS from 'typescript';
import { NighthawkError } from './errors.js';
import { currentInterior, reenterInterior, type InteriorMark, type InteriorRefusal } from './interior.js';
import type { SeenAt } from './frozen-write-sight.js';
import { resumingIterator } from './resuming-iterator.js';
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

export interface ExpressionGuard {
  /**
   * At the entry of a function the expression defined (its parameters' defaults, catch and finally blocks too). A
   * catch block passes what it caught, so a refusal the model's own code catches still reaches the host.
   */
  readonly live: (caught?: unknown) => void;
  /** After each `await` (or `yield`) inside such a function. */
  readonly resumed: <T>(value: T) => T;
  /** Runs a function's body (see `live`): an unmarked caller's call runs under `unmarkedMark()`. */
  readonly enter: <T>(body: () => T) => T;
  /** The same for a generator's body (`isAsync` 1 for an async generator): each resumption, as `enter`. */
  readonly enterGenerator: (inner: Generator | AsyncGenerator, isAsync: number) => object;
  /**
   * What leaves a function the expression defined as an exception, before any caller (a `.catch` of the model's, an
   * operator's try) can swallow it. Only noted: the function's own guards already decided whether it may run.
   */
  readonly escaping: (error: unknown) => void;
}

/**
 * The guards of one evaluation: `live` refuses (and records) whenever `refusal()` names a reason. What a catch block
 * caught (once the block may run) and what leaves a function as an exception go to `noteCaught`.
 */
export function expressionGuard(
  ids: { executionId: string; operationId: string | undefined },
  refusal: () => ExpressionCodeRefusal | undefined,
  unmarkedMark?: () => InteriorMark,
  noteCaught?: (caught: unknown, seenAt: SeenAt) => void,
): ExpressionGuard {
  let captured: unknown;
  try {
    captured = sink?.capture();
  } catch {
    captured = undefined;
  }
  // A catch block's guard hands over what it caught once the block may run; an exception leaving a function the same.
  const note = (caught: unknown, seenAt: SeenAt): void => {
    if (caught === undefined || noteCaught === undefined) return;
    try {
      noteCaught(caught, seenAt);
    } catch {
      /* a note that fails changes nothing the model's code does */
    }
  };
  const live = (caught?: unknown): void => {
    const reason = refusal();
    if (reason === undefined) {
      if (caught !== undefined) note(caught, 'catch-block');
      return;
    }
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
  // Code an unmarked caller runs (an inspector serialising a getter) runs under a mark, as every refusal that asks
  // whether model code is calling expects; the caller's own code after the call stays unmarked.
  const underMark = <T>(go: () => T): T => (unmarkedMark === undefined || currentInterior() !== undefined ? go() : reenterInterior(unmarkedMark(), go));
  return {
    live,
    escaping: (error) => note(error, 'function-exit'),
    resumed: (value) => (live(), value),
    enter: (body) => (live(), underMark(body)),
    enterGenerator: (inner, isAsync) => resumingIterator(inner, isAsync === 1, underMark),
  };
}

export const LIVE_NAME = '__nh_live';
export const RESUMED_NAME = '__nh_resumed';
export const ENTER_NAME = '__nh_enter';
export const ENTER_GENERATOR_NAME = '__nh_enter_gen';
export const ESCAPING_NAME = '__nh_escaping';

/**
 * Cheap pre-check, conservative: every function, method, accessor, class or arrow has a `{` or a `=>` in its text,
 * and neither punctuator can be spelled with escapes. Text with neither is compiled as it is.
 */
const MAY_DEFINE_FUNCTION = /[{]|=>/;

/**
 * The guard could not read an expression the way the engine will, or could not put what it defines under the
 * guard, so it refuses it instead of running it unguarded.
 */
export class ExpressionNotGuardableError extends NighthawkError {
  /** The rule name recorded with the refusal. */
  static readonly RULE = 'expression_not_guardable';
  readonly problem: string;
  constructor(problem: string | Unguardable) {
    const found = typeof problem === 'string' ? parseProblem(problem) : problem;
    super('expression-not-guardable', `${found.reason} (${found.problem}). ${found.guidance}`);
    this.problem = found.problem;
  }
}

/** Why the guard refuses an expression: what it found, and the reason and guidance the model is refused with. */
export interface Unguardable {
  readonly problem: string;
  readonly reason: string;
  readonly guidance: string;
}

export const UNGUARDABLE_REASON = 'The expression could not be checked: it does not parse as one strict modern JavaScript expression';
export const UNGUARDABLE_GUIDANCE =
  'Rewrite it as a single expression in plain modern JavaScript: no legacy octal literals or escapes (write 0o10, \\x08), ' +
  'no HTML-style comments (<!--, -->), no JSX, and no text that closes the expression early; then call again.';
export const SUPER_GENERATOR_REASON = 'The expression defines a generator method that uses super, and such a body cannot run under the guard of model code';
export const SUPER_GENERATOR_GUIDANCE =
  'Do not use super inside a generator method: read what the generator needs from super in an ordinary method or ' +
  'outside the object and pass it in, or write a generator function instead; then call again.';

const parseProblem = (problem: string): Unguardable => ({ problem, reason: UNGUARDABLE_REASON, guidance: UNGUARDABLE_GUIDANCE });

type GuardResult = { readonly text: string; readonly unguardable?: undefined } | { readonly text?: undefined; readonly unguardable: Unguardable };
/** Parsed texts, bounded: the host inspection and the compiler ask about the same text. Captured methods: see interior.ts. */
const results = new Map<string, GuardResult>();
const resultGet = Map.prototype.get;
const resultSet = Map.prototype.set;
const resultClear = Map.prototype.clear;
const sizeOf = Reflect.getOwnPropertyDescriptor(Map.prototype, 'size')!.get!;
const apply = Reflect.apply;
const regExpTest = RegExp.prototype.test;

/**
 * Why the guard cannot guard `expression` (it would be refused), or undefined when it can. The host asks before
 * evaluation so the model gets a recoverable refusal that says how to fix the text.
 */
export function unguardableExpression(expression: string): string | undefined {
  return guarded(expression).unguardable?.problem;
}

/** As unguardableExpression, with the reason and guidance to refuse the model with; undefined when it can be guarded. */
export function expressionRefusal(expression: string): Unguardable | undefined {
  return guarded(expression).unguardable;
}

/**
 * The expression with guards inserted, or the expression itself when it cannot define a function. Fails closed:
 * text the parser does not read cleanly (sloppy-only syntax the engine accepts, such as legacy octal or HTML-like
 * comments, or text that leaves the wrapper) throws ExpressionNotGuardableError instead of running unguarded.
 */
export function guardExpressionFunctions(expression: string): string {
  const result = guarded(expression);
  if (result.unguardable !== undefined) throw new ExpressionNotGuardableError(result.unguardable);
  return result.text;
}

function guarded(expression: string): GuardResult {
  if (!apply(regExpTest, MAY_DEFINE_FUNCTION, [expression])) return { text: expression };
  let result = apply(resultGet, results, [expression]) as GuardResult | undefined;
  if (result) return result;
  try {
    result = rewrite(expression);
  } catch (error) {
    result = { unguardable: parseProblem(`the parser failed: ${error instanceof Error ? error.message : String(error)}`) };
  }
  if ((apply(sizeOf, results, []) as number) > 1_000) apply(resultClear, results, []);
  apply(resultSet, results, [expression, result]);
  return result;
}

function rewrite(expression: string): GuardResult {
  const ts = typescript();
  // Parsed as the async arrow it is compiled into, so top-level `await` parses as it will run.
  const source = ts.createSourceFile('expression.js', `(async () => (\n${expression}\n));`, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const diagnostics = (source as unknown as { parseDiagnostics?: readonly TS.Diagnostic[] }).parseDiagnostics;
  const first = diagnostics?.[0];
  if (first) return { unguardable: parseProblem(ts.flattenDiagnosticMessageText(first.messageText, ' ')) };
  const outer = wrapperOf(ts, source);
  // More than the one wrapper: the text closed the expression and continued after it.
  if (!outer || source.statements.length !== 1) return { unguardable: parseProblem('it is not a single expression') };
  const unmovable: string[] = [];
  const result = ts.transform(source, [(context) => (root) => ts.visitNode(root, visitorFor(ts, context, outer, unmovable)) as TS.SourceFile]);
  try {
    if (unmovable.length > 0) return { unguardable: { problem: unmovable.join('; '), reason: SUPER_GENERATOR_REASON, guidance: SUPER_GENERATOR_GUIDANCE } };
    const transformedOuter = wrapperOf(ts, result.transformed[0]!);
    if (!transformedOuter) return { unguardable: parseProblem('it is not a single expression') };
    // Always the parser's reading, printed without comments, even when nothing was inserted: the engine then
    // compiles what was checked, and no comment is left to start an HTML-like comment the parser did not see
    // (`x <!-- \`` hides the next lines from the engine but not from the parser).
    return { text: ts.createPrinter({ removeComments: true }).printNode(ts.EmitHint.Expression, transformedOuter.body as TS.Expression, result.transformed[0]!) };
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

/** `unmovable` collects the generator methods whose bodies cannot move under the guard (they use `super`). */
function visitorFor(ts: typeof TS, context: TS.TransformationContext, outer: TS.Node, unmovable: string[]): (node: TS.Node) => TS.Node {
  const f = context.factory;
  const call = (name: string, args: TS.Expression[] = []) => f.createCallExpression(f.createIdentifier(name), undefined, args);
  const liveStatement = () => f.createExpressionStatement(call(LIVE_NAME));
  const prepend = (block: TS.Block) => f.updateBlock(block, [liveStatement(), ...block.statements]);
  const isAsync = (fn: TS.Node): boolean => (ts.canHaveModifiers(fn) ? (ts.getModifiers(fn) ?? []) : []).some((m) => m.kind === ts.SyntaxKind.AsyncKeyword);
  // The body as an arrow (same `this`, `arguments`, `super` and `new.target`) that the guard runs: under the
  // evaluation's mark when an unmarked caller (an operator inspector reading a getter) called the function.
  // An async function awaits its body's promise: returned, it would be adopted through its `then`, a reaction the
  // guard drops once the execution ended, and the function's promise would never settle.
  // `{ try { body } catch (e) { escaping(e); throw e; } }`: an exception leaving the function is seen before any caller
  // can swallow it (the body keeps its own scope: everything it declares is inside the one try block).
  const observed = (body: TS.ConciseBody): TS.Block => {
    const escaping = f.createUniqueName('escaping');
    const handler = f.createCatchClause(escaping, f.createBlock([f.createExpressionStatement(call(ESCAPING_NAME, [escaping])), f.createThrowStatement(escaping)], true));
    return f.createBlock([f.createTryStatement(f.createBlock(ts.isBlock(body) ? body.statements : [f.createReturnStatement(body)], true), handler, undefined)], true);
  };
  const entered = (body: TS.ConciseBody, async: boolean): TS.Expression => {
    const run = call(ENTER_NAME, [f.createArrowFunction(async ? [f.createModifier(ts.SyntaxKind.AsyncKeyword)] : undefined, undefined, [], undefined, f.createToken(ts.SyntaxKind.EqualsGreaterThanToken), observed(body))]);
    return async ? f.createAwaitExpression(run) : run;
  };
  // A generator's body cannot move into an arrow (`yield`): it moves into a generator of its own, started with the
  // same `this` and arguments, which the outer one delegates to through an iterator the guard resumes (under the
  // mark for a caller with none). A body that uses `super` cannot move out of its method, and with only an entry
  // check an unmarked caller would resume it unmarked: the expression is refused.
  const enteredGenerator = (body: TS.Block, async: boolean): TS.Statement => {
    const inner = f.createFunctionExpression(async ? [f.createModifier(ts.SyntaxKind.AsyncKeyword)] : undefined, f.createToken(ts.SyntaxKind.AsteriskToken), undefined, undefined, [], undefined, prepend(observed(body)));
    const started = f.createCallExpression(f.createPropertyAccessExpression(f.createParenthesizedExpression(inner), 'apply'), undefined, [f.createThis(), f.createIdentifier('arguments')]);
    return f.createReturnStatement(f.createYieldExpression(f.createToken(ts.SyntaxKind.AsteriskToken), call(ENTER_GENERATOR_NAME, [started, f.createNumericLiteral(async ? 1 : 0)])));
  };
  const wrap = (block: TS.Block, fn: TS.FunctionLikeDeclaration): TS.Block => {
    if (fn.asteriskToken && usesSuper(ts, block)) {
      unmovable.push(`generator method ${fn.name ? fn.name.getText().slice(0, 80) : '(anonymous)'} uses super`);
      return block;
    }
    // Directives stay where they apply to the whole function (a 'use strict' decides its `this`).
    let k = 0;
    while (k < block.statements.length && isDirective(ts, block.statements[k]!)) k++;
    const rest = f.createBlock(block.statements.slice(k), true);
    const run = fn.asteriskToken ? enteredGenerator(rest, isAsync(fn)) : f.createReturnStatement(entered(rest, isAsync(fn)));
    return f.updateBlock(block, [...block.statements.slice(0, k), run]);
  };
  const visit = (node: TS.Node): TS.Node => {
    if (node === outer) return ts.visitEachChild(node, visit, context);
    if (ts.isBlock(node)) {
      const parent = node.parent;
      const visited = ts.visitEachChild(node, visit, context);
      if (parent && ts.isFunctionLike(parent) && (parent as TS.FunctionLikeDeclaration).body === node) return wrap(visited, parent as TS.FunctionLikeDeclaration);
      // A catch block gets its guard with the catch clause (below).
      const isBody = parent && ((ts.isTryStatement(parent) && parent.finallyBlock === node) || ts.isClassStaticBlockDeclaration(parent));
      if (!isBody) return visited;
      return prepend(visited);
    }
    if (ts.isCatchClause(node)) return guardedCatch(ts, f, ts.visitEachChild(node, visit, context), (binding) => f.createExpressionStatement(call(LIVE_NAME, [binding])));
    if (ts.isArrowFunction(node) && !ts.isBlock(node.body)) {
      const visited = ts.visitEachChild(node, visit, context);
      return f.updateArrowFunction(visited, visited.modifiers, visited.typeParameters, visited.parameters, visited.type, visited.equalsGreaterThanToken, entered(visited.body as TS.Expression, isAsync(node)));
    }
    if (ts.isAwaitExpression(node) || ts.isYieldExpression(node)) {
      // Resumption is guarded only inside a function the expression defines; the expression's own awaits run in its evaluation.
      const visited = ts.visitEachChild(node, visit, context) as TS.Expression;
      if (!insideDefinedFunction(ts, node, outer)) return visited;
      return call(RESUMED_NAME, [visited]);
    }
    if (ts.isParameter(node) && node.initializer) {
      const visited = ts.visitEachChild(node, visit, context);
      return f.updateParameterDeclaration(visited, visited.modifiers, visited.dotDotDotToken, visited.name, visited.questionToken, visited.type, f.createParenthesizedExpression(f.createCommaListExpression([call(LIVE_NAME), visited.initializer!])));
    }
    if ((ts.isClassDeclaration(node) || ts.isClassExpression(node)) && !node.members.some(ts.isConstructorDeclaration)) {
      const visited = ts.visitEachChild(node, visit, context) as TS.ClassExpression;
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

/**
 * `catch (binding) { guard(binding); … }`: the block starts with its guard, given what was caught. A catch without a
 * binding gets one; a destructured binding is unpacked after the guard, with `let` as the catch itself binds it.
 * (Generated code's transform guards its catch blocks the same way, with its own guard call.)
 */
function guardedCatch(ts: typeof TS, f: TS.NodeFactory, clause: TS.CatchClause, guard: (caught: TS.Identifier) => TS.Statement): TS.CatchClause {
  const declared = clause.variableDeclaration;
  const name = declared && ts.isIdentifier(declared.name) ? declared.name.text : undefined;
  const binding = name === undefined ? f.createUniqueName('caught') : f.createIdentifier(name);
  const unpack = declared && name === undefined ? [f.createVariableStatement(undefined, f.createVariableDeclarationList([f.createVariableDeclaration(declared.name, undefined, undefined, binding)], ts.NodeFlags.Let))] : [];
  const block = f.updateBlock(clause.block, [guard(binding), ...unpack, ...clause.block.statements]);
  return f.updateCatchClause(clause, f.createVariableDeclaration(name === undefined ? binding : f.createIdentifier(name)), block);
}

function insideDefinedFunction(ts: typeof TS, node: TS.Node, outer: TS.Node): boolean {
  for (let p = node.parent; p && p !== outer; p = p.parent) if (ts.isFunctionLike(p)) return true;
  return false;
}

/** A directive of a function's prologue: a leading statement that is only a string literal ('use strict'). */
function isDirective(ts: typeof TS, statement: TS.Statement): boolean {
  return ts.isExpressionStatement(statement) && ts.isStringLiteral(statement.expression);
}

/** Whether `super` appears in `body` outside any nested function that has its own (arrows share it). */
function usesSuper(ts: typeof TS, body: TS.Node): boolean {
  let found = false;
  const visit = (node: TS.Node): void => {
    if (found) return;
    if (node.kind === ts.SyntaxKind.SuperKeyword) {
      found = true;
      return;
    }
    if (ts.isFunctionLike(node) && !ts.isArrowFunction(node)) return;
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(body, visit);
  return found;
}
