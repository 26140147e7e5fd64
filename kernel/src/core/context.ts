/**
 * Runtime context (a private async context, never a store on the async resource): `run()` starts an independent run, `scope()` narrows or
 * extends it. State objects are immutable; entering a scope creates a new one and exiting restores
 * the enclosing one (never `enterWith`).
 */
import { ScopeAuthorityError, UsageError } from './errors.js';
import { newId } from './ids.js';
import { PrivateAsyncContext } from './private-context.js';
import { currentInterior, runOutsideInterior } from './interior.js';
import { reportRefusal } from './refusal-sink.js';
import { prepareRealm } from './realm-seam.js';
import { outsideOperationBody } from './operation-body.js';
import type { Oversight } from './oversight.js';
import type { OutcomeKind } from './program.js';
import type { StepExecutor } from './step.js';
import type { StepContext } from './step-context.js';
import type { ToolSpec } from './tool.js';
import { UsageMeter, type Usage } from './usage.js';

/**
 * Called by executors around every provider request: `admit` before (throwing refuses it, and no
 * request is sent), `request` wraps the provider call itself (the host runs it as infrastructure),
 * `observe` reports the response usage immediately afterwards.
 */
export interface RequestAdmission {
  admit(info: { stepId: string; executionId: string; requestIndex: number }): void | Promise<void>;
  /**
   * Sends the request; the host may pass `reportUsage` for the client (see ModelRequest.reportUsage). `origins`: where
   * the client connects (its ModelClient.networkOrigins); omitted, the request reaches no network.
   */
  request?<T>(send: (reportUsage?: (usage: Partial<Usage>) => void) => Promise<T>, origins?: readonly string[]): Promise<T>;
  observe(usage: Partial<Usage>): void;
}

/** Admissions handed to one step's executor privately (see handStepAdmission), by the StepRequest. */
const stepAdmissions = new WeakMap<object, RequestAdmission>();
const admissionGet = WeakMap.prototype.get;
const admissionHas = WeakMap.prototype.has;
const admissionSet = WeakMap.prototype.set;
const applyMethod = Reflect.apply;

/**
 * Hands `admission` to the executor of `request` only: it is never in the ambient state, where any code running
 * inside the step (a model's getter the host reads, say) could reach it. Set once; a later call changes nothing.
 */
export function handStepAdmission(request: object, admission: RequestAdmission): void {
  if (applyMethod(admissionHas, stepAdmissions, [request])) return;
  applyMethod(admissionSet, stepAdmissions, [request, admission]);
}

/** The admission handed to this step's executor, if any (not exported from the core's index). */
export function stepAdmissionOf(request: object): RequestAdmission | undefined {
  return applyMethod(admissionGet, stepAdmissions, [request]) as RequestAdmission | undefined;
}

export interface RuntimeState {
  readonly runId: string;
  readonly scopeId: string;
  readonly executor: StepExecutor;
  readonly taskReferences: Readonly<Record<string, unknown>>;
  readonly oversight: Oversight | undefined;
  readonly usageMeter: UsageMeter;
  readonly requestAdmission: RequestAdmission | undefined;
  readonly systemPromptFragments: readonly string[];
  readonly userPromptFragments: readonly string[];
  readonly stepContext: StepContext | undefined;
  readonly tools: readonly ToolSpec[];
  readonly model: string | undefined;
  /** Outcome kinds removed from every block's allowed set in this scope (the Harness denies `return`). */
  readonly deniedOutcomes: readonly OutcomeKind[];
  /** When true, scopes may not replace the step executor (a host owns it for the whole run). */
  readonly executorLocked: boolean;
  readonly signal: AbortSignal | undefined;
  /** Free-form slots for outer layers (the Harness keeps its host here). Inherited by scopes. */
  readonly extensions: Readonly<Record<symbol, unknown>>;
}

const storage = new PrivateAsyncContext<RuntimeState>();

export interface CoreRunOptions {
  runId?: string;
  deniedOutcomes?: readonly OutcomeKind[];
  lockExecutor?: boolean;
  oversight?: Oversight;
  taskReferences?: Record<string, unknown>;
  tools?: readonly ToolSpec[];
  requestAdmission?: RequestAdmission;
  usageMeter?: UsageMeter;
  signal?: AbortSignal;
  extensions?: Record<symbol, unknown>;
}

/** Starts a new, independent run: fresh ids and meter, no oversight, no references. */
export function run<T>(executor: StepExecutor, fn: () => T, options: CoreRunOptions = {}): T {
  if (!executor || typeof (executor as StepExecutor).runStep !== 'function') {
    throw new UsageError('run() needs a step executor: an object with a runStep(request) method.');
  }
  prepareRealm();
  const state: RuntimeState = Object.freeze({
    runId: options.runId ?? newId('run_'),
    scopeId: newId('scp_'),
    executor,
    taskReferences: Object.freeze({ ...(options.taskReferences ?? {}) }),
    oversight: options.oversight,
    usageMeter: options.usageMeter ?? new UsageMeter(),
    requestAdmission: options.requestAdmission,
    systemPromptFragments: Object.freeze([]),
    userPromptFragments: Object.freeze([]),
    stepContext: undefined,
    tools: Object.freeze([...(options.tools ?? [])]),
    model: undefined,
    deniedOutcomes: Object.freeze([...(options.deniedOutcomes ?? [])]),
    executorLocked: options.lockExecutor === true,
    signal: options.signal,
    extensions: Object.freeze({ ...(options.extensions ?? {}) }),
  });
  return storage.run(state, fn);
}

export interface ScopeOptions {
  /** Names visible to the model as GLOBALS and to its expressions. Same name, different object: error. */
  taskReferences?: Record<string, unknown>;
  /** Omit to inherit; `null` clears. */
  oversight?: Oversight | null;
  usageMeter?: UsageMeter;
  requestAdmission?: RequestAdmission | null;
  executor?: StepExecutor;
  systemPromptFragments?: readonly string[];
  userPromptFragments?: readonly string[];
  /** Tools visible to agent executors in this scope, as inspected operations of kind `tool`. */
  tools?: readonly ToolSpec[];
  /** Replaces (instead of merging) the task references; a host uses it to attenuate authority. */
  replaceTaskReferences?: Record<string, unknown>;
  /** Replaces (instead of extending) the visible tools; a host uses it to attenuate authority. */
  replaceTools?: readonly ToolSpec[];
  /** Model choice for agent executors in this scope (the client's default when absent). */
  model?: string;
  signal?: AbortSignal;
  extensions?: Record<symbol, unknown>;
}

/** What only operator code may set in a scope: each decides something for every step inside it. */
const OPERATOR_ONLY: readonly (keyof ScopeOptions)[] = Object.freeze(['executor', 'oversight', 'model', 'usageMeter', 'requestAdmission', 'signal', 'extensions']);
const SCOPE_KEYS: readonly (keyof ScopeOptions)[] = Object.freeze([
  ...OPERATOR_ONLY,
  'taskReferences',
  'replaceTaskReferences',
  'systemPromptFragments',
  'userPromptFragments',
  'tools',
  'replaceTools',
]);

/**
 * Runs `fn` in a nested scope of the current run. Requires an active run. The options are read once each (a getter
 * answering the executor check with the run's executor and the state with another would replace a locked executor);
 * from model code (a model expression, generated code it called) the operator-only ones are refused.
 */
export function scope<T>(options: ScopeOptions, fn: () => T): T {
  const parent = storage.getStore();
  if (!parent) throw new UsageError('scope() must be called inside run(executor, fn).');
  if (options === null || typeof options !== 'object') throw new UsageError('scope() needs an options object as its first argument.');
  // Index loops, no Array methods: model code calling this may have replaced them (a `filter` answering "nothing").
  const read: ScopeOptions = {};
  for (let i = 0; i < SCOPE_KEYS.length; i++) {
    const key = SCOPE_KEYS[i]!;
    const value: unknown = options[key];
    if (value !== undefined) (read as Record<string, unknown>)[key] = value;
  }
  const mark = currentInterior();
  if (mark !== undefined) {
    const refused: string[] = [];
    for (let i = 0; i < OPERATOR_ONLY.length; i++) if (OPERATOR_ONLY[i]! in read) refused[refused.length] = OPERATOR_ONLY[i]!;
    if (refused.length > 0) {
      reportRefusal('scope_authority_from_model_code', { options: Object.freeze(refused), runId: parent.runId, stepId: parent.stepContext?.stepId });
      throw new ScopeAuthorityError({ options: refused });
    }
  }
  return storage.run(deriveState(parent, read), fn);
}

function deriveState(parent: RuntimeState, options: ScopeOptions): RuntimeState {
  if (options.executor && parent.executorLocked && options.executor !== parent.executor) {
    throw new UsageError('This run owns its step executor: a scope inside it may not replace the executor (start a new run instead).');
  }
  let taskReferences = options.replaceTaskReferences ? Object.freeze({ ...options.replaceTaskReferences }) : parent.taskReferences;
  if (options.taskReferences) {
    // One copy is both checked and bound: enumerating the caller's object twice could answer differently.
    const added: Record<string, unknown> = { ...options.taskReferences };
    for (const [name, value] of Object.entries(added)) {
      if (name in taskReferences && taskReferences[name] !== value) {
        throw new UsageError(`Task reference '${name}' is already bound to a different object in the enclosing scope.`);
      }
    }
    taskReferences = Object.freeze({ ...taskReferences, ...added });
  }
  return Object.freeze({
    ...parent,
    scopeId: newId('scp_'),
    taskReferences,
    executor: options.executor ?? parent.executor,
    oversight: options.oversight === undefined ? parent.oversight : options.oversight ?? undefined,
    usageMeter: options.usageMeter ?? parent.usageMeter,
    requestAdmission:
      options.requestAdmission === undefined ? parent.requestAdmission : options.requestAdmission ?? undefined,
    systemPromptFragments: options.systemPromptFragments
      ? Object.freeze([...parent.systemPromptFragments, ...options.systemPromptFragments])
      : parent.systemPromptFragments,
    userPromptFragments: options.userPromptFragments
      ? Object.freeze([...parent.userPromptFragments, ...options.userPromptFragments])
      : parent.userPromptFragments,
    tools: options.replaceTools
      ? Object.freeze([...options.replaceTools])
      : options.tools
        ? Object.freeze([...parent.tools, ...options.tools])
        : parent.tools,
    model: options.model ?? parent.model,
    signal: options.signal ?? parent.signal,
    extensions: options.extensions ? Object.freeze({ ...parent.extensions, ...options.extensions }) : parent.extensions,
  });
}

/** Internal: enter a state derived for a step. */
export function withStepContext<T>(stepContext: StepContext, fn: () => T): T {
  const parent = storage.getStore();
  if (!parent) throw new UsageError('A Natural step must run inside run(executor, fn).');
  // The step is host machinery even when a model expression or generated code started it (nh.step() in its body): its
  // executor runs unmarked, and the step's own expressions are marked again when they run.
  return storage.run(Object.freeze({ ...parent, stepContext }), () => outsideOperationBody(() => runOutsideInterior(fn)));
}

/** The current runtime state, or undefined outside a run. */
export function currentState(): RuntimeState | undefined {
  return storage.getStore();
}

/** The current runtime state; throws a UsageError naming `what` outside a run. */
export function requireState(what: string): RuntimeState {
  const state = storage.getStore();
  if (!state) throw new UsageError(`${what} requires an active run: wrap the call in run(executor, fn).`);
  return state;
}

export interface ExecutionRef {
  readonly runId: string;
  readonly scopeId: string;
  readonly stepId: string | undefined;
}

/** Ids of the current run, scope and step. Throws outside a run. */
export function currentExecutionRef(): ExecutionRef {
  const s = requireState('currentExecutionRef()');
  return { runId: s.runId, scopeId: s.scopeId, stepId: s.stepContext?.stepId };
}

/** The step context of the innermost running step, or undefined. */
export function currentStepContext(): StepContext | undefined {
  return storage.getStore()?.stepContext;
}

/** The usage meter of the current scope, or undefined outside a run. */
export function currentUsageMeter(): UsageMeter | undefined {
  return storage.getStore()?.usageMeter;
}
