/**
 * The mutable context of one running step, and the operation engine every executor goes through:
 * argument validation, then inspection, then the body, then exactly one OperationFinished record
 * and its delivery. Fail closed: an inspector that throws or returns garbage ends the step.
 */
import type { ZodType } from 'zod';
import {
  NighthawkError,
  OperationDeliveryError,
  OperationRejectedError,
  OversightContractError,
  StepAbortedError,
  UnassignedWriteBindingError,
  describeError,
  isInstance,
  isTerminalOperationError,
  StepControlRefusedError,
} from './errors.js';
import { FrozenSet } from './frozen-collections.js';
import { reportRefusal } from './refusal-sink.js';
import { compileExpression, createScope, parseTargetPath } from './expression.js';
import { nextModelFacingEpoch, operatorValue, operatorValueDeep } from './model-facing.js';
import { currentInterior, currentOperationId, noteUnmarkedModelCode, probedMark, runAsOperation, runInterior, type InteriorMark } from './interior.js';
import { hasRegisteredSecrets, secretsIn } from './secrets.js';
import { ExpressionNotGuardableError, expressionGuard, type ExpressionCodeRefusal } from './expression-guard.js';
import { monotonicMs, newId, wallClockMs } from './ids.js';
import { markCoreRecord } from './provenance.js';
import { runOperationBody } from './operation-body.js';
import type {
  OperationFailure,
  OperationFinished,
  OperationKind,
  OperationRejection,
  OperationRequest,
  OperationStatus,
} from './operation.js';
import { isModelFrozenWrite, previewValue } from './operation.js';
import { firstSight, frozenWriteMessage, type SeenAt } from './frozen-write-sight.js';
import { untilStopped } from './until-stopped.js';
import { checkRealmSeam } from './realm-seam.js';
import { checkOperationDecision, type Oversight } from './oversight.js';
import type { NaturalProgram, OutcomeKind } from './program.js';

export type OperationResult<T> =
  | { readonly status: 'completed'; readonly value: T; readonly record: OperationFinished }
  | { readonly status: 'failed'; readonly error: unknown; readonly record: OperationFinished }
  | { readonly status: 'rejected'; readonly rejection: OperationRejection; readonly record: OperationFinished };

export interface StepContextInit {
  readonly stepId: string;
  readonly runId: string;
  readonly parent: StepContext | undefined;
  readonly program: NaturalProgram;
  readonly locals: Record<string, unknown>;
  readonly references: Readonly<Record<string, unknown>>;
  readonly inputBindings: Readonly<Record<string, unknown>>;
  readonly bindingSchemas: Readonly<Record<string, ZodType>>;
  readonly returnSchema: ZodType | undefined;
  readonly allowedOutcomes: readonly OutcomeKind[];
  readonly oversight: Oversight | undefined;
  readonly errorTypes: Readonly<Record<string, new (message?: string) => unknown>>;
  readonly signal: AbortSignal;
}

export type AssignResult = {
  readonly targetPath: string;
  readonly revision: number;
  readonly value: unknown;
  /** Set when the name is not a declared write binding: the model learns it assigned scratch state. */
  readonly note?: string;
};

/** Core-internal (the agent executor's decide output): marks a write binding assigned. Installed by StepContext. */
export let markAssigned: (ctx: StepContext, name: string) => void;
/** Core-internal (the step runner): the step has its outcome (see StepContext.markFinished). */
export let finishStep: (ctx: StepContext) => void;
/** Core-internal: the step's binding and return types, read while model values are validated (under the model's mark). */
export let typesOf: (ctx: StepContext) => { readonly bindings: Readonly<Record<string, ZodType>>; readonly returns: ZodType | undefined };

/** Thrown inside an operation body when a value fails its binding schema; reported as invalid input. */
export class BindingValidationError extends NighthawkError {
  readonly targetPath: string;
  constructor(targetPath: string, detail: string) {
    super('binding-validation', `Value for '${targetPath}' does not satisfy its type: ${detail}`);
    this.targetPath = targetPath;
  }
}

export class StepContext {
  readonly stepId: string;
  readonly executionId = newId('exe_');
  readonly runId: string;
  readonly parent: StepContext | undefined;
  readonly program: NaturalProgram;
  /** Live step locals. Objects keep their identity; nh_assign rebinds names here. */
  readonly locals: Record<string, unknown>;
  readonly references: Readonly<Record<string, unknown>>;
  readonly inputBindings: Readonly<Record<string, unknown>>;
  readonly readBindingNames: ReadonlySet<string>;
  readonly writeBindingNames: ReadonlySet<string>;
  readonly #bindingSchemas: Readonly<Record<string, ZodType>>;
  readonly #returnSchema: ZodType | undefined;
  readonly allowedOutcomes: readonly OutcomeKind[];
  readonly errorTypes: Readonly<Record<string, new (message?: string) => unknown>>;
  readonly signal: AbortSignal;
  // The step's evidence is private: model code reaches the step context (nh.currentStepContext()) and must not erase a
  // failed operation before commit inspection, which may refuse a result that ignored one (seed 000), or mark a write
  // binding assigned that no operation assigned.
  readonly #operations: OperationFinished[] = [];
  // Private so no expression or executor that reaches the step context can clear or replace it.
  readonly #oversight: Oversight | undefined;
  readonly #assigned = new Set<string>();
  readonly #dirty = new Set<string>();
  readonly #stepLocal = new Set<string>();
  #revision = 0;

  static {
    markAssigned = (ctx, name) => void ctx.#assigned.add(name);
    // The step runner finishes a step in the caller's context, which may be a model expression that called nh.step().
    finishStep = (ctx) => void (ctx.#finished = true);
    typesOf = (ctx) => ({ bindings: ctx.#bindingSchemas, returns: ctx.#returnSchema });
  }

  /**
   * The executor's members refuse model code: the step context is reachable from it (nh.currentStepContext()), and a
   * call would run an operation whose record says a tool ran when the model's own function did, compile text outside
   * any inspected operation, or end the step with an error of the model's choosing.
   */
  #executorOnly(member: string): void {
    // Marked code only: the flag for a model-made function an unmarked caller ran (unmarkedModelCode) lasts the rest of
    // the job, and the executor's own next call in that job (after a replaced built-in the host ran) would be refused.
    if (currentInterior() === undefined) return;
    reportRefusal('step_control_from_model_code', { member, executionId: this.executionId, stepId: this.stepId });
    throw new StepControlRefusedError({ member, stepId: this.stepId });
  }

  /** Every operation record of this step so far, in order (a frozen copy). */
  get operations(): readonly OperationFinished[] {
    return Object.freeze([...this.#operations]);
  }

  /** Write bindings an operation assigned. */
  get assignedBindingNames(): ReadonlySet<string> {
    return new Set(this.#assigned);
  }

  /** Write bindings an operation mutated in place (through a nested target path). */
  get dirtyBindingNames(): ReadonlySet<string> {
    return new Set(this.#dirty);
  }

  /** Names nh_assign bound that are not write bindings (step-local scratch state). */
  get stepLocalAssignments(): ReadonlySet<string> {
    return new Set(this.#stepLocal);
  }
  #terminalError: unknown = undefined;
  #terminal = false;
  readonly #failedErrors = new Map<string, unknown>();
  #scope: object | undefined;
  readonly #secretsRead = new Map<string, readonly string[]>();
  #finished = false;
  /** Operation bodies and evaluations of this step running now: its expressions' functions run only then. */
  #running = 0;

  constructor(init: StepContextInit) {
    this.stepId = init.stepId;
    this.runId = init.runId;
    this.parent = init.parent;
    this.program = init.program;
    this.locals = init.locals;
    this.references = init.references;
    this.inputBindings = init.inputBindings;
    this.readBindingNames = new FrozenSet(init.program.readBindingNames);
    this.writeBindingNames = new FrozenSet(init.program.writeBindingNames);
    // Copies, frozen: model code reaches the step context, and the commit validates and admits by these (a binding
    // schema record emptied, an outcome added, would pass what the step's type refuses).
    this.#bindingSchemas = Object.freeze({ ...init.bindingSchemas });
    this.#returnSchema = init.returnSchema;
    this.allowedOutcomes = Object.freeze([...init.allowedOutcomes]);
    this.#oversight = init.oversight;
    this.errorTypes = Object.freeze({ ...init.errorTypes });
    this.signal = init.signal;
    // Every field read-only (the step's mutable state is private), no own property may shadow a getter, and the
    // prototype cannot be swapped. `locals` stays the model's scratch object.
    Object.freeze(this);
  }

  /**
   * The write bindings' types. Executor-only: a zod schema is a mutable object (its `safeParse` an own property), and
   * an edit by model code would change what this step commits and every later step with the same types. The core
   * reads them through `typesOf`.
   */
  get bindingSchemas(): Readonly<Record<string, ZodType>> {
    this.#executorOnly('bindingSchemas');
    return this.#bindingSchemas;
  }

  /** The return value's type (see bindingSchemas). */
  get returnSchema(): ZodType | undefined {
    this.#executorOnly('returnSchema');
    return this.#returnSchema;
  }

  /** Increments with every assignment through nh_assign (reported back to the model). */
  get revision(): number {
    return this.#revision;
  }

  /** The oversight fixed when the step started. */
  get oversight(): Oversight | undefined {
    return this.#oversight;
  }

  /** The error that ended this step (abort, contract violation, delivery failure), if any. */
  get terminalError(): unknown {
    return this.#terminalError;
  }
  get isTerminal(): boolean {
    return this.#terminal;
  }

  /** Operations that failed and were recovered from, for commit inspection. */
  get failedOperations(): OperationFinished[] {
    return this.#operations.filter((o) => o.status === 'failed');
  }

  /** The original error object of a failed operation (for raise with raise_operation_id). */
  failedOperationError(operationId: string): { found: true; error: unknown } | { found: false } {
    return this.#failedErrors.has(operationId) ? { found: true, error: this.#failedErrors.get(operationId) } : { found: false };
  }

  /** Builds a frozen request for an operation about to be proposed. */
  newRequest(kind: OperationKind, fields: Partial<Omit<OperationRequest, 'operationId' | 'kind' | 'stepId' | 'executionId' | 'runId'>> = {}): OperationRequest {
    return markCoreRecord(Object.freeze({
      operationId: newId('op_'),
      kind,
      stepId: this.stepId,
      executionId: this.executionId,
      runId: this.runId,
      ...fields,
    }));
  }

  /**
   * Called once the step has its outcome: functions its expressions defined may no longer run, and an operation
   * proposed on it afterwards (a custom executor's leftover task) is cut off, recorded aborted, never run.
   */
  markFinished(): void {
    this.#executorOnly('markFinished');
    this.#finished = true;
  }

  /** Marks the step as ended. The first terminal error wins; later ones are dropped. */
  endStep(error: unknown): void {
    this.#executorOnly('endStep');
    this.#endStep(error);
  }

  #endStep(error: unknown): void {
    if (this.#terminal) return;
    this.#terminal = true;
    this.#terminalError = error;
  }

  /**
   * Runs one operation: inspection, then (if accepted) the body, then one record and its delivery.
   * Rejections and body failures are returned; aborts, contract violations, delivery failures and
   * TerminalOperationErrors end the step and are thrown.
   */
  async runOperation<T>(request: OperationRequest, body: () => T | Promise<T>): Promise<OperationResult<T>> {
    this.#executorOnly('runOperation');
    const startedAt = wallClockMs();
    const t0 = monotonicMs();
    // Every proposed operation gets exactly one record, also one cut off by a stop before it began.
    // The stop for a finished step is made only when someone still proposes on it (never on a step's normal path).
    if (this.#finished) this.#endStep(new StepAbortedError({ subject: 'operation', reason: `step ${this.stepId} has finished: no operation may start after its outcome`, stepId: this.stepId }));
    this.checkHostStop();
    if (this.#terminal) return this.#endCutOff(request, startedAt, t0);
    const inspect = this.#oversight?.inspectOperation;
    if (inspect) {
      let raw: unknown;
      try {
        raw = inspect(request);
        if (raw instanceof Promise) raw = await raw;
      } catch (cause) {
        return this.#endWithContractError(request, startedAt, t0, `inspectOperation threw ${describeError(cause)}`, cause);
      }
      // A stop that arrived while the inspector decided wins over its decision (seed 000): the body never starts.
      this.checkHostStop();
      if (this.#terminal) return this.#endCutOff(request, startedAt, t0);
      const decision = checkOperationDecision(raw);
      if (typeof decision === 'string') {
        return this.#endWithContractError(request, startedAt, t0, `inspectOperation returned an invalid decision: ${decision}`);
      }
      if (decision.kind === 'reject-operation') {
        const rejection: OperationRejection = Object.freeze({ request, reason: decision.reason, guidance: decision.guidance });
        const record = this.#record(request, 'rejected', startedAt, t0, { rejection });
        await this.#deliver(record);
        return { status: 'rejected', rejection, record };
      }
      if (decision.kind === 'abort-step') {
        const record = this.#record(request, 'aborted', startedAt, t0, { abortReason: decision.reason });
        return this.#endWith(record, new StepAbortedError({ subject: 'operation', reason: decision.reason, stepId: this.stepId, operationId: request.operationId }));
      }
    }
    let value: T;
    let valuePreview: string | undefined;
    try {
      this.#running++;
      try {
        const out = runOperationBody(request, () => runAsOperation(request.operationId, body));
        value = out instanceof Promise ? await untilStopped(out, this.signal) : (out as T);
        // Previewing runs the value's toJSON, getters and proxy traps: while the operation still runs, under its mark.
        if (request.kind === 'evaluate') valuePreview = runAsOperation(request.operationId, () => this.readModelValue(() => safePreview(value)));
      } finally {
        this.#running--;
      }
    } catch (caught) {
      // What the body threw through the membrane (an operator's error model code did not catch) fails it as the
      // operator's own; looked up on failure only, so a completed operation pays nothing.
      const error = operatorValue(caught);
      // A stop that arrived during the body (host stop, rejected perimeter effect) wins over its failure.
      this.checkHostStop();
      if (this.#terminal) return this.#endCutOff(request, startedAt, t0);
      const record = this.#record(request, 'failed', startedAt, t0, { failure: toFailure(error) });
      this.#failedErrors.set(request.operationId, error);
      if (isTerminalOperationError(error)) {
        return this.#endWith(record, terminalOperationAbort(this.stepId, request, error));
      }
      await this.#deliver(record);
      return { status: 'failed', error, record };
    }
    // The host ended the step while the body ran (a rejected perimeter effect inside it): cut off.
    if (this.#terminal) return this.#endCutOff(request, startedAt, t0);
    const secretsRead = this.#secretsRead.get(request.operationId);
    this.#secretsRead.delete(request.operationId);
    const record = this.#record(request, 'completed', startedAt, t0, {
      ...(valuePreview !== undefined ? { valuePreview } : {}),
      ...(secretsRead ? { secretsRead } : {}),
    });
    await this.#deliver(record);
    // Seed 000: host stops remain effective even after an output candidate was accepted.
    this.checkHostStop();
    if (this.#terminal) throw this.#terminalError;
    return { status: 'completed', value, record };
  }

  /** Ends the step for a host stop once the step's signal has aborted (the first terminal error wins). */
  checkHostStop(): void {
    if (this.#terminal || !this.signal.aborted) return;
    const reason: unknown = this.signal.reason;
    this.#endStep(
      isInstance(reason, StepAbortedError)
        ? reason
        : new StepAbortedError({ subject: 'operation', reason: `host stop: ${describeError(reason ?? 'cancelled')}`, stepId: this.stepId, cause: reason }),
    );
  }

  /** Records an operation the step's stop cut off as aborted, then propagates the stop. */
  async #endCutOff(request: OperationRequest, startedAt: number, t0: number): Promise<never> {
    const record = this.#record(request, 'aborted', startedAt, t0, { abortReason: stopReason(this.#terminalError) });
    await this.#deliver(record);
    throw this.#terminalError;
  }

  /** Records an operation that never ran because an earlier sibling was refused. */
  async skipOperation(request: OperationRequest, blockedByOperationId: string): Promise<OperationFinished> {
    this.#executorOnly('skipOperation');
    const record = this.#record(request, 'skipped', wallClockMs(), monotonicMs(), { blockedByOperationId });
    await this.#deliver(record);
    return record;
  }

  /** Records an operation whose arguments failed validation; no inspector or body ran. */
  async failBeforeInspection(request: OperationRequest, error: unknown): Promise<OperationFinished> {
    this.#executorOnly('failBeforeInspection');
    const record = this.#record(request, 'failed', wallClockMs(), monotonicMs(), { failure: toFailure(error) });
    this.#failedErrors.set(request.operationId, error);
    // A TerminalOperationError from an argument validator ends the step as one from a body does (seed 000).
    if (isTerminalOperationError(error)) return this.#endWith(record, terminalOperationAbort(this.stepId, request, error));
    await this.#deliver(record);
    return record;
  }

  readonly #settled = (): void => {
    this.#running--;
  };

  /** Whether code this step's expressions left behind may run now (see interiorRefusal). */
  readonly #refusal = (): ExpressionCodeRefusal | undefined => (this.#finished ? 'execution-ended' : this.#running === 0 ? 'between-operations' : undefined);

  /**
   * The guard of the functions an expression defines. Between operations it refuses only a caller that continues
   * an expression of this step (a timer, a promise job or an async function it started: their async context keeps
   * the interior mark). Host code that calls a built-in an expression replaced runs unmarked; the realm checks
   * restore and record those, and the host's own call is not broken off.
   */
  /** The mark model code of this step runs under when an unmarked caller runs it (see noteUnmarkedModelCode). */
  #unmarked: InteriorMark | undefined;

  readonly #guardRefusal = (): ExpressionCodeRefusal | undefined => {
    const refusal = this.#refusal();
    const mark = currentInterior();
    // Run by a caller with no mark: the run-time tier still applies to it for the rest of this job.
    if (mark === undefined && refusal !== 'execution-ended') noteUnmarkedModelCode(this.#unmarkedMark());
    if (refusal !== 'between-operations') return refusal;
    // Under the mark an unmarked caller's call runs under (ExpressionGuard.enter), nested model functions are let
    // through as the outer one was: that call is the host's, not a continuation of an expression.
    return mark !== undefined && mark !== this.#unmarked && mark.kind === 'expression' && mark.executionId === this.executionId ? refusal : undefined;
  };

  /**
   * What a catch block of the model's expression code caught, or what left one of its functions: an engine refusal of
   * a frozen write is a refused attempt even when the model's code swallows it, noted under the operation running
   * that code (once: see firstSight).
   */
  readonly #noteCaught = (caught: unknown, seenAt: SeenAt): void => {
    const message = frozenWriteMessage(caught);
    if (message === undefined || !firstSight(caught)) return;
    const operationId = currentOperationId();
    reportRefusal('frozen_value_write', { operationId, message, seenAt }, operationId);
  };

  readonly #unmarkedMark = (): InteriorMark => (this.#unmarked ??= probedMark({ kind: 'expression', executionId: this.executionId, operationId: undefined }, this.#refusal));

  /**
   * Runs host code that reads a value this step's expressions made (validation, a preview, a field assignment)
   * under the expression's interior mark. Getters, setters, proxy traps, `toJSON` the model wrote then run as if the
   * expression itself read them: refused and recorded between operations (the mark makes #guardRefusal apply), and
   * under the run-time raw-dynamic tier inside one. Unmarked, they would run as host code with the tier off.
   */
  readModelValue<T>(read: () => T): T {
    return runInterior({ kind: 'expression', executionId: this.executionId, operationId: currentOperationId() }, read, this.#refusal);
  }

  /** Evaluates an expression against this step's locals and references (the body of nh_evaluate). */
  evaluateBody(expression: string): Promise<unknown> {
    this.#executorOnly('evaluateBody');
    const operationId = currentOperationId();
    let fn: ReturnType<typeof compileExpression>;
    try {
      fn = compileExpression(expression);
    } catch (error) {
      // A host run refuses such text before the operation starts (and records it); without one (a core-only run),
      // this refusal is the only one, so it is noted here.
      if (error instanceof ExpressionNotGuardableError) reportRefusal('expression_not_guardable', { operationId, rule: ExpressionNotGuardableError.RULE, problem: error.problem, expression }, operationId);
      throw error;
    }
    this.#scope ??= createScope(this.locals, this.references);
    const scope = this.#scope;
    // Operator code may have stored a SessionFunction in plain data since the last expression: looked at again.
    nextModelFacingEpoch();
    const guard = expressionGuard({ executionId: this.executionId, operationId }, this.#guardRefusal, this.#unmarkedMark, this.#noteCaught);
    this.#running++;
    let result: Promise<unknown>;
    try {
      // Callbacks the expression leaves behind (timers, listeners, even built-ins bound to arguments) ask #refusal.
      result = runInterior({ kind: 'expression', executionId: this.executionId, operationId }, () => fn(scope, guard), this.#refusal);
    } catch (error) {
      this.#running--;
      throw error;
    }
    void result.then(this.#settled, this.#settled);
    if (!hasRegisteredSecrets() || operationId === undefined) return result;
    // A value carrying a registered secret back to the model is the model reading it: noted on the record. The scan
    // may run the value's proxy traps, and resolving with it looks up its `then`: the reaction is registered under the mark.
    return this.readModelValue(() =>
      result.then((value) => {
        const names = secretsIn(value);
        if (names.length > 0) this.#secretsRead.set(operationId, Object.freeze(names));
        return value;
      }),
    );
  }

  /**
   * Assigns a validated value to a path (the body of nh_assign after evaluation). Validating, walking the path and
   * setting the field may run the model's getters and setters: under its mark (see readModelValue).
   */
  assignValue(targetPath: string, segments: readonly string[], value: unknown): AssignResult {
    this.#executorOnly('assignValue');
    // Operator data the model read through its membrane (model-facing.ts) is assigned as the operator's own object,
    // also inside plain data the model built around it.
    const assigned = operatorValueDeep(value);
    return this.readModelValue(() => this.#assignValue(targetPath, segments, assigned));
  }

  #assignValue(targetPath: string, segments: readonly string[], value: unknown): AssignResult {
    const root = segments[0]!;
    if (segments.length === 1) {
      if (this.readBindingNames.has(root)) {
        throw new BindingValidationError(
          targetPath,
          `<${root}> is a read binding and cannot be rebound; mutate it through nh_evaluate or declare <:${root}>.`,
        );
      }
      // Checked now, so the model can retry an unfit value; the step holds the value as assigned and the commit
      // parses it, once (a zod transform applied here and again at the commit would run twice).
      const schema = this.#bindingSchemas[root];
      if (schema) validateWith(schema, value, targetPath);
      this.locals[root] = value;
      this.#revision++;
      if (this.writeBindingNames.has(root)) {
        this.#assigned.add(root);
        return { targetPath, revision: this.#revision, value };
      }
      // Assigning a new name is step-local scratch state (as designed); a misspelling must not pass silently.
      this.#stepLocal.add(root);
      const declared = this.writeBindingNames.size ? `declared write bindings: ${[...this.writeBindingNames].join(', ')}` : 'this step declares no write bindings';
      return { targetPath, revision: this.#revision, value, note: `'${root}' is step-local, not a write binding; ${declared}` };
    }
    if (!Object.prototype.hasOwnProperty.call(this.locals, root)) {
      throw new ReferenceError(`'${root}' is not a local of this step.`);
    }
    let target: unknown = this.locals[root];
    for (const segment of segments.slice(1, -1)) {
      if (target === null || typeof target !== 'object') throw new TypeError(`Cannot read '${segment}' of ${describeError(target)}.`);
      target = (target as Record<string, unknown>)[segment];
    }
    if (target === null || typeof target !== 'object') throw new TypeError(`Cannot set a field on a non-object at '${targetPath}'.`);
    const rootSchema = this.#bindingSchemas[root];
    if (rootSchema && this.writeBindingNames.has(root)) {
      // Validate the would-be root before mutating, so a failed assignment changes nothing: a copy of the
      // objects along the path (prototypes kept, so an instance type still recognises its class) with the field set.
      validateWith(rootSchema, withFieldSet(this.locals[root], segments.slice(1), value), targetPath);
    }
    (target as Record<string, unknown>)[segments[segments.length - 1]!] = value;
    if (this.writeBindingNames.has(root)) this.#dirty.add(root);
    this.#revision++;
    return { targetPath, revision: this.#revision, value };
  }

  /**
   * Declared write bindings the step never assigned (nor dirtied) whose current value fails their type;
   * undefined when there are none. Such a step would commit a value its caller cannot use.
   */
  unassignedWriteBindingError(): UnassignedWriteBindingError | undefined {
    return this.readModelValue(() => this.#unassignedWriteBindingError());
  }

  #unassignedWriteBindingError(): UnassignedWriteBindingError | undefined {
    const names: string[] = [];
    const details: string[] = [];
    for (const name of this.writeBindingNames) {
      if (this.#assigned.has(name) || this.#dirty.has(name)) continue;
      const schema = this.#bindingSchemas[name];
      const parsed = schema?.safeParse(this.locals[name]);
      if (!parsed || parsed.success) continue;
      names.push(name);
      details.push(`${describeError(this.locals[name], 80)}: ${issueText(parsed.error.issues[0])}`);
    }
    if (names.length === 0) return undefined;
    const detail = names.length === 1 ? `it is ${details[0]}` : names.map((n, i) => `<:${n}> is ${details[i]}`).join('; ');
    return new UnassignedWriteBindingError({ bindingNames: names, stepId: this.stepId, detail, stepLocals: [...this.#stepLocal] });
  }

  /** The write bindings an agent executor should propose: rebound or dirtied ones. */
  touchedWriteBindings(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const name of this.writeBindingNames) {
      if (this.#assigned.has(name) || this.#dirty.has(name)) out[name] = this.locals[name];
    }
    return out;
  }

  async #endWithContractError(
    request: OperationRequest,
    startedAt: number,
    t0: number,
    detail: string,
    cause?: unknown,
  ): Promise<never> {
    const record = this.#record(request, 'aborted', startedAt, t0, { abortReason: detail });
    return this.#endWith(record, new OversightContractError({ hook: 'inspectOperation', stepId: this.stepId, detail, cause }));
  }

  /**
   * Ends the step with `ending` (unless it had already ended), delivers the record whose outcome ended it, and
   * throws the step's terminal error. A failed delivery of that record takes the ending's place (seed 000: an
   * AbortStep propagates StepAbortedError "unless terminal delivery raises a host exception").
   */
  async #endWith(record: OperationFinished, ending: unknown): Promise<never> {
    this.#endStep(ending);
    await this.#deliver(record, ending);
    throw this.#terminalError;
  }

  #record(
    request: OperationRequest,
    status: OperationStatus,
    startedAt: number,
    t0: number,
    extra: { rejection?: OperationRejection; abortReason?: string; failure?: OperationFailure; blockedByOperationId?: string; valuePreview?: string; secretsRead?: readonly string[] },
  ): OperationFinished {
    const record: OperationFinished = Object.freeze({
      request,
      status,
      ...extra,
      sequence: this.#operations.length,
      startedAt,
      durationMs: monotonicMs() - t0,
    });
    this.#operations.push(markCoreRecord(record));
    return record;
  }

  /**
   * Delivers one record. A failure ends the step (the first terminal error wins), except that it replaces
   * `ending`, the terminal error this record's own outcome set, so the notification failure is never lost.
   */
  async #deliver(record: OperationFinished, ending?: unknown): Promise<void> {
    // Before the oversight sees the record, so it runs on the built-ins the process loaded with.
    checkRealmSeam('hot', record.request.runId, record.request.operationId);
    const deliver = this.#oversight?.onOperationFinished;
    try {
      const out = deliver?.(record);
      if (out instanceof Promise) await out;
    } catch (deliveryCause) {
      const failure = new OperationDeliveryError({ finished: record, deliveryCause });
      if (ending !== undefined && this.#terminalError === ending) this.#terminalError = failure;
      else this.#endStep(failure);
      throw this.#terminalError;
    } finally {
      // The engine refused the model a write to something frozen (a granted object, a library class): a refused
      // attempt, noted after the record it belongs to (a host run appends that record in the delivery).
      if (isModelFrozenWrite(record) && firstSight(this.#failedErrors.get(record.request.operationId))) {
        reportRefusal('frozen_value_write', { operationId: record.request.operationId, message: record.failure!.message }, record.request.operationId);
      }
    }
  }
}

/** The stop a TerminalOperationError (from a body or an argument validator) makes of its operation (seed 000). */
function terminalOperationAbort(stepId: string, request: OperationRequest, error: unknown): StepAbortedError {
  return new StepAbortedError({ subject: 'operation', reason: `terminal operation failure: ${describeError(error)}`, stepId, operationId: request.operationId, cause: error });
}

/** The record's preview; a value whose reading throws (a trap refused, say) is described, not a failed operation. */
function safePreview(value: unknown): string {
  try {
    return previewValue(value);
  } catch {
    return '[unreadable value]';
  }
}

function stopReason(error: unknown): string {
  if (isInstance(error, StepAbortedError)) return error.reason;
  return describeError(error);
}

/** One zod issue as a short clause ("expected string, received undefined"), not the issue object. */
export function issueText(issue: { path: readonly PropertyKey[]; message: string } | undefined): string {
  if (!issue) return 'invalid';
  const message = issue.message.replace(/^Invalid input: /, '');
  return issue.path.length ? `${issue.path.map(String).join('.')}: ${message}` : message;
}

/**
 * The exception's class as the model and the record name it: an own `name`, else one its class's prototype
 * declares, else the class itself (`class QuotaExceeded extends Error {}` inherits Error's name but is not an
 * Error to the model). Read through property descriptors, so a getter in a model-made error does not run here.
 */
function errorClassOf(error: Error): string {
  const valueOf = (target: object | null, key: string): unknown => {
    if (target === null) return undefined;
    const descriptor = Object.getOwnPropertyDescriptor(target, key);
    return descriptor && 'value' in descriptor ? descriptor.value : undefined;
  };
  const named = (value: unknown): value is string => typeof value === 'string' && value !== '';
  const own = valueOf(error, 'name');
  if (named(own)) return own;
  const proto = Object.getPrototypeOf(error) as object | null;
  const declared = valueOf(proto, 'name');
  if (named(declared)) return declared;
  const ctor = valueOf(proto, 'constructor');
  const ctorName = typeof ctor === 'function' ? valueOf(ctor, 'name') : undefined;
  return named(ctorName) ? ctorName : 'Error';
}

function toFailure(error: unknown): OperationFailure {
  const errorClass = error instanceof Error ? errorClassOf(error) : error === null ? 'null' : typeof error;
  const message = error instanceof Error ? error.message : describeError(error);
  return Object.freeze({ errorClass, message: message.length > 500 ? message.slice(0, 499) + '…' : message });
}

/** Validates with zod and returns the parsed value, or throws BindingValidationError. */
export function validateWith(schema: ZodType, value: unknown, targetPath: string): unknown {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const detail = parsed.error.issues
    .map((i) => `${i.path.length ? i.path.map(String).join('.') + ': ' : ''}${i.message}`)
    .join('; ');
  throw new BindingValidationError(targetPath, detail);
}

/** A shallow copy that keeps the prototype (own enumerable fields only; an array stays an array). */
function shallowCopy(value: object): Record<string, unknown> {
  if (Array.isArray(value)) return value.slice() as unknown as Record<string, unknown>;
  return Object.assign(Object.create(Object.getPrototypeOf(value) as object | null) as object, value) as Record<string, unknown>;
}

/** `root` as it would be with `path` set to `value`: copies of the objects along the path, the rest shared. */
function withFieldSet(root: unknown, path: readonly string[], value: unknown): unknown {
  const top = shallowCopy(root as object);
  let target = top;
  for (const segment of path.slice(0, -1)) {
    const next = shallowCopy(target[segment] as object);
    target[segment] = next;
    target = next;
  }
  target[path[path.length - 1]!] = value;
  return top;
}

/** Direct operation API: evaluate an expression as an inspected operation. Throws on refusal. */
export async function evaluateExpression(stepContext: StepContext, expression: string): Promise<unknown> {
  const request = stepContext.newRequest('evaluate', { expression, toolName: 'nh_evaluate' });
  const result = await stepContext.runOperation(request, () => stepContext.evaluateBody(expression));
  if (result.status === 'completed') return result.value;
  if (result.status === 'rejected') throw new OperationRejectedError({ rejection: result.rejection });
  throw result.error;
}

/** Direct operation API: assign the value of an expression to a binding path. Throws on refusal. */
export async function assignBinding(stepContext: StepContext, targetPath: string, expression: string): Promise<AssignResult> {
  const request = stepContext.newRequest('assign', { expression, targetPath, toolName: 'nh_assign' });
  const segments = parseTargetPath(targetPath);
  if (typeof segments === 'string') {
    const error = new TypeError(segments);
    await stepContext.failBeforeInspection(request, error);
    throw error;
  }
  const result = await stepContext.runOperation(request, async () =>
    stepContext.assignValue(targetPath, segments, await stepContext.evaluateBody(expression)),
  );
  if (result.status === 'completed') return result.value;
  if (result.status === 'rejected') throw new OperationRejectedError({ rejection: result.rejection });
  throw result.error;
}

// An authority class: no method of it can be replaced (a leaked path to the prototype cannot patch `append`, say).
Object.freeze(StepContext.prototype);
