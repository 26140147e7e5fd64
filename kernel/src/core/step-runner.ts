/**
 * Runs one Natural block: resolves read bindings (before any model call), builds the step context,
 * calls the executor, then validates, inspects and commits the candidate all or nothing, and
 * delivers exactly one StepFinished record to the step lifecycle.
 */
import type { ZodType } from 'zod';
import { inferSchema } from './binding-types.js';
import type { BlockResult, BlockSpec } from './block-spec.js';
import { requireState, withStepContext, type RuntimeState } from './context.js';
import {
  BindingResolutionError,
  ExecutionError,
  OutputValidationError,
  OversightContractError,
  StepAbortedError,
  UsageError,
  describeError,
} from './errors.js';
import { markCoreRecord } from './provenance.js';
import { checkStepCommitDecision, type Oversight } from './oversight.js';
import { allowedOutcomes, parseProgram, type NaturalProgram, type OutcomeKind } from './program.js';
import type { StepCandidate, StepCommit, StepFinished, StepOutcome, StepStatus } from './step.js';
import { finishStep, StepContext, typesOf } from './step-context.js';
import { currentInterior, reenterInterior } from './interior.js';
import { monotonicMs } from './ids.js';
import { checkRealmSeam } from './realm-seam.js';

const NEVER_ABORTED = new AbortController().signal;

type ErrorClass = new (message?: string) => unknown;

/** Runs a block described by `spec` in the current run. Used by the runtime form and the transform. */
export async function runBlock(spec: BlockSpec): Promise<BlockResult> {
  const state = requireState('A Natural block');
  const stepId = spec.stepId ?? 'natural-block';
  let program: NaturalProgram | undefined;
  let ctx: StepContext;
  try {
    program = parseProgram(spec.program);
    const { locals, inputBindings } = resolveLocals(program, spec, state.taskReferences);
    const references = spec.references ? { ...state.taskReferences, ...spec.references } : state.taskReferences;
    const bindingSchemas = resolveWriteSchemas(program, spec, locals);
    const allowed = allowedOutcomes(program, {
      inLoop: spec.inLoop === true,
      returnAllowed: spec.returnAllowed ?? spec.returns !== undefined,
    }).filter((k) => !state.deniedOutcomes.includes(k));
    ctx = new StepContext({
      stepId,
      runId: state.runId,
      parent: state.stepContext,
      program,
      locals,
      references,
      inputBindings,
      bindingSchemas,
      returnSchema: spec.returns,
      allowedOutcomes: allowed,
      oversight: state.oversight,
      errorTypes: collectErrorTypes(program, locals, references),
      signal: state.signal ?? NEVER_ABORTED,
    });
  } catch (error) {
    // Seed 001: a core stage the executor never sees (the program's parse, its read bindings, its write types) still
    // ends the step with its one terminal record, and the error reaches the caller as every step failure does.
    return await failBeforeExecutor(state, spec, stepId, program, error);
  }
  try {
    // The spec's `assign` is the code that called runBlock (emitted block code, or whatever a model expression passed
    // to runBlock itself): it runs under that caller's interior mark, never as the step's host machinery.
    const caller = currentInterior();
    const given = spec.assign;
    const assign = given && caller ? (bindings: Readonly<Record<string, unknown>>) => reenterInterior(caller, () => given(bindings)) : given;
    return await withStepContext(ctx, () => executeStep(ctx, state.executor, assign));
  } finally {
    finishStep(ctx);
  }
}

/**
 * Ends a step that failed before its executor saw it: a context with nothing to run (no locals, no outcome allowed)
 * carries the one failed record through the lifecycle and the host's translation. A program that did not parse
 * gets a stand-in holding its source, so the record still names the step and nothing of the failure is cached.
 */
async function failBeforeExecutor(
  state: RuntimeState,
  spec: BlockSpec,
  stepId: string,
  parsed: NaturalProgram | undefined,
  error: unknown,
): Promise<never> {
  const program = parsed ?? unparsedProgram(spec.program);
  const failed = new StepContext({
    stepId, runId: state.runId, parent: state.stepContext, program, locals: Object.create(null) as Record<string, unknown>,
    references: state.taskReferences, inputBindings: {}, bindingSchemas: {}, returnSchema: spec.returns, allowedOutcomes: [],
    oversight: state.oversight, errorTypes: {}, signal: state.signal ?? NEVER_ABORTED,
  });
  try {
    const finish = makeFinisher(failed, monotonicMs());
    await finishTranslated(failed, finish, 'failed', undefined, error);
    throw translate(failed, error, finish.record);
  } finally {
    finishStep(failed);
  }
}

function unparsedProgram(source: unknown): NaturalProgram {
  const none = Object.freeze([]) as readonly never[];
  return Object.freeze({
    sentinel: 'execute',
    text: typeof source === 'string' ? source : '',
    readBindingNames: none,
    writeBindingNames: none,
    referenceRoots: none,
    deniedOutcomes: none,
  });
}

async function executeStep(
  ctx: StepContext,
  executor: { runStep: (r: never) => Promise<StepCandidate> },
  assign: BlockSpec['assign'],
): Promise<BlockResult> {
  const t0 = monotonicMs();
  const finish = makeFinisher(ctx, t0);
  let candidate: StepCandidate;
  try {
    candidate = await (executor.runStep as (r: unknown) => Promise<StepCandidate>)({
      stepContext: ctx,
      program: ctx.program,
      allowedOutcomes: ctx.allowedOutcomes,
      signal: ctx.signal,
    });
  } catch (error) {
    // An abort recorded in the step (or a host stop) wins over whatever the executor threw afterwards.
    ctx.checkHostStop();
    const terminal = ctx.isTerminal ? ctx.terminalError : error;
    await finishTranslated(ctx, finish, 'failed', undefined, terminal);
    throw translate(ctx, terminal, finish.record);
  }
  // The candidate is validated (and the commit inspected) on the built-ins the process loaded with.
  checkRealmSeam('full', ctx.runId, ctx.executionId);
  let raised: { error: unknown } | undefined;
  try {
    ctx.checkHostStop();
    if (ctx.isTerminal) throw ctx.terminalError; // seed 000: success cannot replace the stop
    // Validation reads the model's values between operations: under the expression's mark, so a getter or trap it
    // wrote is refused and recorded (the step fails) rather than run as host code (see StepContext.readModelValue).
    const proposed = ctx.readModelValue(() => validateCandidate(ctx, candidate));
    const decided = await inspectCommit(ctx, proposed, candidate);
    // Seed 001: an execution terminated while the commit was inspected commits nothing, whatever was decided.
    ctx.checkHostStop();
    if (ctx.isTerminal) throw ctx.terminalError;
    const committed = decided.rewritten ? ctx.readModelValue(() => validateCandidate(ctx, decided.candidate)) : proposed;
    if (committed.outcome.kind === 'raise') {
      await finish('raised', 'raise', proposed.bindings, {}, decided.rewritten, committed.outcome.error);
      raised = { error: translate(ctx, committed.outcome.error, finish.record) };
      throw raised.error;
    }
    // Block form: the locals are assigned first, so the lifecycle receives the record after assignment (seed 001).
    assign?.(committed.bindings);
    await finish('completed', committed.outcome.kind, proposed.bindings, committed.bindings, decided.rewritten, undefined);
    return committed.outcome.kind === 'return'
      ? { kind: 'return', bindings: committed.bindings, value: committed.outcome.value }
      : { kind: committed.outcome.kind, bindings: committed.bindings };
  } catch (error) {
    if (raised && raised.error === error) throw error;
    if (!finish.done) await finishTranslated(ctx, finish, 'failed', candidate.outcome?.kind, error);
    throw translate(ctx, error, finish.record);
  }
}

/**
 * Delivers a failed step's terminal record. A lifecycle that throws there ends the step with its own failure,
 * which reaches the caller translated like any other (seed 001: every failure as the library's typed exception).
 */
async function finishTranslated(ctx: StepContext, finish: Finisher, status: StepStatus, outcomeKind: OutcomeKind | undefined, error: unknown): Promise<void> {
  try {
    await finish(status, outcomeKind, {}, {}, false, error);
  } catch (notificationError) {
    throw translate(ctx, notificationError, finish.record);
  }
}

/** Lets a host turn every step failure into its own typed error (chained to the original). */
function translate(ctx: StepContext, error: unknown, record: StepFinished | undefined): unknown {
  const hook = ctx.oversight?.translateStepFailure;
  if (!hook || !record) return error;
  try {
    return hook(error, record);
  } catch (hookError) {
    return hookError;
  }
}

interface ValidatedCandidate {
  readonly outcome: StepOutcome;
  readonly bindings: Readonly<Record<string, unknown>>;
}

/** Kind check, then binding and return validation. Nothing is assigned here. */
function validateCandidate(ctx: StepContext, candidate: StepCandidate): ValidatedCandidate {
  const outcome = candidate?.outcome;
  if (!outcome || typeof outcome !== 'object' || typeof (outcome as { kind?: unknown }).kind !== 'string') {
    throw new ExecutionError(`Step ${ctx.stepId} produced an invalid step outcome: ${describeError(outcome)}`, { stepId: ctx.stepId });
  }
  if (!ctx.allowedOutcomes.includes(outcome.kind as OutcomeKind)) {
    throw new ExecutionError(
      `Step '${outcome.kind}' is not allowed in ${ctx.stepId}; allowed outcomes: ${ctx.allowedOutcomes.join(', ') || 'none'}.`,
      { stepId: ctx.stepId },
    );
  }
  if (outcome.kind === 'raise') return { outcome, bindings: {} };
  const bindings: Record<string, unknown> = {};
  const raw = candidate.bindings ?? {};
  for (const name of ctx.writeBindingNames) {
    if (!Object.prototype.hasOwnProperty.call(raw, name)) continue;
    const schema = typesOf(ctx).bindings[name];
    bindings[name] = schema ? parseOrThrow(schema, raw[name], { kind: 'binding', name }, ctx.stepId) : raw[name];
  }
  if (ctx.program.sentinel === 'decide') {
    const name = ctx.program.writeBindingNames[0]!;
    if (!(name in bindings)) {
      throw new ExecutionError(`Decide block ${ctx.stepId} must commit its write binding <:${name}>.`, { stepId: ctx.stepId });
    }
  }
  const returns = typesOf(ctx).returns;
  if (outcome.kind === 'return' && returns) {
    const value = parseOrThrow(returns, outcome.value, { kind: 'return' }, ctx.stepId);
    return { outcome: value === outcome.value ? outcome : { kind: 'return', value }, bindings };
  }
  return { outcome, bindings };
}

function parseOrThrow(schema: ZodType, value: unknown, target: OutputValidationError['target'], stepId: string): unknown {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new OutputValidationError({
    target,
    stepId,
    issues: parsed.error.issues.map((i) => ({ path: i.path, message: i.message })),
  });
}

async function inspectCommit(
  ctx: StepContext,
  proposed: ValidatedCandidate,
  asProposed: StepCandidate,
): Promise<{ rewritten: boolean; candidate: StepCandidate }> {
  const inspect = ctx.oversight?.inspectStepCommit;
  if (!inspect) return { rewritten: false, candidate: proposed };
  const commit: StepCommit = markCoreRecord(Object.freeze({
    stepId: ctx.stepId,
    executionId: ctx.executionId,
    runId: ctx.runId,
    program: ctx.program.text,
    inputBindings: ctx.inputBindings,
    outcome: proposed.outcome,
    bindings: Object.freeze({ ...proposed.bindings }),
    allowedOutcomes: ctx.allowedOutcomes,
    failedOperations: Object.freeze(ctx.failedOperations),
  }));
  let raw: unknown;
  try {
    raw = inspect(commit);
    if (raw instanceof Promise) raw = await raw;
  } catch (cause) {
    throw new OversightContractError({ hook: 'inspectStepCommit', stepId: ctx.stepId, detail: `threw ${describeError(cause)}`, cause });
  }
  const decision = checkStepCommitDecision(raw);
  if (typeof decision === 'string') {
    throw new OversightContractError({ hook: 'inspectStepCommit', stepId: ctx.stepId, detail: `returned an invalid decision: ${decision}` });
  }
  if (decision.kind === 'abort-step') {
    // Ends the step itself, not only this call: an operation proposed on it afterwards is cut off (seed 000).
    ctx.endStep(new StepAbortedError({ subject: 'step_commit', reason: decision.reason, stepId: ctx.stepId }));
    throw ctx.terminalError;
  }
  if (decision.kind === 'accept') return { rewritten: false, candidate: proposed };
  // A rewrite is validated like a proposal; the parts it keeps are taken as proposed (before validation), so
  // they too are parsed once.
  return {
    rewritten: true,
    candidate: { outcome: decision.outcome ?? asProposed.outcome, bindings: decision.bindings ?? asProposed.bindings ?? {} },
  };
}

type Finisher = ((
  status: StepStatus,
  outcomeKind: OutcomeKind | undefined,
  proposed: Readonly<Record<string, unknown>>,
  committed: Readonly<Record<string, unknown>>,
  rewritten: boolean,
  error: unknown,
) => Promise<void>) & { done: boolean; record: StepFinished | undefined };

/** Delivers the single terminal record. A lifecycle that throws fails the step (fail closed). */
function makeFinisher(ctx: StepContext, t0: number): Finisher {
  const finish = (async (status, outcomeKind, proposed, committed, rewritten, error) => {
    if (finish.done) return;
    finish.done = true;
    const record: StepFinished = markCoreRecord(Object.freeze({
      stepId: ctx.stepId,
      executionId: ctx.executionId,
      parentExecutionId: ctx.parent?.executionId,
      runId: ctx.runId,
      status,
      outcomeKind,
      proposedBindings: Object.freeze({ ...proposed }),
      committedBindings: Object.freeze({ ...committed }),
      rewritten,
      operations: Object.freeze([...ctx.operations]),
      failedOperations: Object.freeze(ctx.failedOperations),
      error,
      durationMs: monotonicMs() - t0,
    }));
    finish.record = record;
    checkRealmSeam('full', ctx.runId, ctx.executionId);
    await deliverStepFinished(ctx.oversight, record);
  }) as Finisher;
  finish.done = false;
  finish.record = undefined;
  return finish;
}

async function deliverStepFinished(oversight: Oversight | undefined, record: StepFinished): Promise<void> {
  const deliver = oversight?.onStepFinished;
  if (!deliver) return;
  try {
    const out = deliver(record);
    if (out instanceof Promise) await out;
  } catch (cause) {
    throw new OversightContractError({ hook: 'onStepFinished', stepId: record.stepId, detail: `threw ${describeError(cause)}`, cause });
  }
}


/** Reads locals (thunks or values) and resolves read bindings eagerly, before the executor runs. */
function resolveLocals(
  program: NaturalProgram,
  spec: BlockSpec,
  taskReferences: Readonly<Record<string, unknown>>,
): { locals: Record<string, unknown>; inputBindings: Record<string, unknown> } {
  const locals: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const unbound = new Map<string, unknown>();
  const decide = program.sentinel === 'decide';
  const wanted = (name: string) => !decide || program.readBindingNames.includes(name) || program.writeBindingNames.includes(name);
  if (spec.scope) {
    for (const name of Object.keys(spec.scope)) {
      if (!wanted(name)) continue;
      try {
        locals[name] = spec.scope[name]!();
      } catch (error) {
        unbound.set(name, error);
      }
    }
  }
  if (spec.values) {
    for (const name of Object.keys(spec.values)) if (wanted(name)) locals[name] = spec.values[name];
  }
  const inputBindings: Record<string, unknown> = {};
  for (const name of program.readBindingNames) {
    if (name in locals) inputBindings[name] = locals[name];
    else if (unbound.has(name)) throw new BindingResolutionError({ bindingName: name, reason: 'unbound', cause: unbound.get(name) });
    else if (name in taskReferences || (spec.references && name in spec.references)) {
      inputBindings[name] = spec.references?.[name] ?? taskReferences[name];
    } else if (name in globalThis) inputBindings[name] = (globalThis as Record<string, unknown>)[name];
    else throw new BindingResolutionError({ bindingName: name, reason: 'not-defined' });
  }
  return { locals, inputBindings: Object.freeze(inputBindings) };
}

function resolveWriteSchemas(program: NaturalProgram, spec: BlockSpec, locals: Record<string, unknown>): Record<string, ZodType> {
  const out: Record<string, ZodType> = {};
  for (const name of program.writeBindingNames) {
    const given = spec.writes?.[name];
    if (given !== undefined && (typeof given !== 'object' || given === null || typeof (given as ZodType).safeParse !== 'function')) {
      throw new UsageError(`The schema for write binding <:${name}> must be a zod schema.`);
    }
    out[name] = given ?? inferSchema(locals[name]);
  }
  return out;
}

/** Error classes a `raise` may name: referenced by `<Name>` or held by a local, with a matching name. */
function collectErrorTypes(
  program: NaturalProgram,
  locals: Record<string, unknown>,
  references: Readonly<Record<string, unknown>>,
): Record<string, ErrorClass> {
  const out: Record<string, ErrorClass> = {};
  const consider = (name: string, value: unknown) => {
    if (typeof value === 'function' && value.prototype instanceof Error && value.name === name) out[name] = value as ErrorClass;
  };
  for (const name of program.referenceRoots) {
    consider(name, name in locals ? locals[name] : name in references ? references[name] : (globalThis as Record<string, unknown>)[name]);
  }
  for (const name of Object.keys(locals)) consider(name, locals[name]);
  return out;
}
