/**
 * Which interior execution is running in the current async context: a model-authored expression or
 * generated code. The Harness run-time tier refuses code-from-text intrinsics while a mark is present;
 * host infrastructure reached from interior code (a capability gateway, a Natural execution's own
 * machinery) runs with the mark cleared. The latest `runInterior` / `runOutsideInterior` wins.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export type InteriorMark =
  | { readonly kind: 'expression'; readonly executionId: string; readonly operationId: string | undefined }
  | { readonly kind: 'generated'; readonly nodeId: string; readonly definitionId: string };

/** Why interior code may not run now: its execution ended, it is between operations, its dispatch node ended. */
export type InteriorRefusal = 'execution-ended' | 'between-operations' | 'dispatch-ended';

const marks = new AsyncLocalStorage<InteriorMark | null>();
const operations = new AsyncLocalStorage<string>();
/** Each mark's liveness, asked by callbacks interior code left behind (timers, listeners) before they run. */
const probes = new WeakMap<InteriorMark, () => InteriorRefusal | undefined>();
const probeGet = WeakMap.prototype.get;
const probeSet = WeakMap.prototype.set;
const apply = Reflect.apply;
/** Marks runInterior and probedMark made: the only ones reenterInterior takes (never null, never a look-alike). */
const issued = new WeakSet<InteriorMark>();
const issuedAdd = WeakSet.prototype.add;
const issuedHas = WeakSet.prototype.has;

/** The id interior work is recorded under: the operation for expressions, the dispatch node for generated code. */
export function interiorParentId(mark: InteriorMark): string {
  return mark.kind === 'expression' ? (mark.operationId ?? mark.executionId) : mark.nodeId;
}

export function currentInterior(): InteriorMark | undefined {
  return marks.getStore() ?? undefined;
}

const scheduleMicrotask = queueMicrotask;
let unmarked: InteriorMark | undefined;
const clearUnmarked = (): void => {
  unmarked = undefined;
};

/**
 * A function a model expression made was called by code with no interior mark (an operator inspector reading a
 * getter with `JSON.stringify`, host code calling a built-in the expression replaced). Its body runs under the
 * mark (ExpressionGuard.enter and enterGenerator), and until the current job ends the run-time tier treats
 * execution as interior anyway, so what the call left behind in built-ins (a reaction, a tick) cannot reach the
 * Function constructor, `vm` or `require` either.
 */
export function noteUnmarkedModelCode(mark: InteriorMark): void {
  if (unmarked === undefined) scheduleMicrotask(clearUnmarked);
  unmarked = mark;
  // And for everything this job starts, however it is scheduled (a tick, a thenable's adoption job, an event a
  // timer of it dispatches, a stream's write callback): the tier follows the async context, not a list of APIs.
  if (tainted.getStore() !== mark) tainted.enterWith(mark);
}

const tainted = new AsyncLocalStorage<InteriorMark>();

/** The mark of model code an unmarked caller ran in the current job (see noteUnmarkedModelCode), if any. */
export function unmarkedModelCode(): InteriorMark | undefined {
  return unmarked;
}

/**
 * For the run-time tier only: model code an unmarked caller ran in this job, or in the job that started this
 * async context. (Host work scheduled from such a job carries it too, so it is not used to bind registrations:
 * a host timer must not become the model's.)
 */
export function taintedByModelCode(): InteriorMark | undefined {
  return unmarked ?? tainted.getStore();
}

/** Runs `fn` under `mark`; `live` says when code it leaves behind may no longer run (see interiorRefusal). */
export function runInterior<T>(mark: InteriorMark, fn: () => T, live?: () => InteriorRefusal | undefined): T {
  const stored = Object.freeze({ ...mark });
  apply(issuedAdd, issued, [stored]);
  if (live) apply(probeSet, probes, [stored, live]);
  return marks.run(stored, fn);
}

/** A mark (frozen) whose liveness `live` answers, for code that registers under it without running under it. */
export function probedMark(mark: InteriorMark, live: () => InteriorRefusal | undefined): InteriorMark {
  const stored = Object.freeze({ ...mark });
  apply(issuedAdd, issued, [stored]);
  apply(probeSet, probes, [stored, live]);
  return stored;
}

/**
 * Whether code under `mark` may run now: undefined when it may (or when its runner gave no probe), else why not.
 * Read through captured WeakMap methods: interior code may have replaced them.
 */
export function interiorRefusal(mark: InteriorMark): InteriorRefusal | undefined {
  const live = apply(probeGet, probes, [mark]) as (() => InteriorRefusal | undefined) | undefined;
  return live?.();
}

/**
 * Runs host code that reads a value interior code made (a capability request) under that code's mark, as returned by
 * currentInterior(): the same mark object, so callbacks left meanwhile keep its liveness probe.
 */
export function reenterInterior<T>(mark: InteriorMark, fn: () => T): T {
  if (!apply(issuedHas, issued, [mark])) throw new TypeError('reenterInterior needs a mark currentInterior() returned (one runInterior made).');
  return marks.run(mark, fn);
}

/** Runs host infrastructure reached from interior code without the interior mark. */
export function runOutsideInterior<T>(fn: () => T): T {
  return marks.getStore() ? marks.run(null, fn) : fn();
}

/** The operation whose body is running (so the interior mark of an expression names its operation). */
export function runAsOperation<T>(operationId: string, fn: () => T): T {
  return operations.run(operationId, fn);
}

export function currentOperationId(): string | undefined {
  return operations.getStore();
}
