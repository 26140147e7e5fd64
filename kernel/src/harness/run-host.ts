/**
 * The per-run host: the only role that validates, accounts, records, admits and commits. It owns the
 * host oversight (identity-checked at every step), the wrapping step executor, the capability
 * gateway and the run's ledger entries.
 */
import {
  abortStep,
  currentInterior,
  currentOperationBody,
  currentState,
  describeError,
  handStepAdmission,
  isParsedToolArguments,
  ExpressionNotGuardableError,
  expressionRefusal,
  StepAbortedError,
  interiorParentId,
  modelCodeRunning,
  isCoreRecord,
  reenterInterior,
  rejectOperation,
  runOutsideInterior,
  scope,
  UsageMeter,
  usageCount,
  type AbortStep,
  type InteriorMark,
  type OperationDecision,
  type OperationFinished,
  type OperationRequest,
  type Oversight,
  type RequestAdmission,
  type StepCommit,
  type StepCommitDecision,
  type StepExecutor,
  type StepFinished,
  type StepContext,
  type StepRequest,
  type ToolSpec,
  type Usage,
  copyNetworkOrigins,
  describeIssues,
  isInstance,
  facingStructuredClone,
} from '../core/index.js';
import { admitPerimeterEffect, createPerimeterAttempt, type PerimeterAuditStore } from './audit-store.js';
import type { CapturedAuditStore, CapturedMethods } from './captured-methods.js';
import { PerimeterAttemptNotRecordedError } from './errors.js';
import type { Allocation } from './allocation.js';
import type { Dispatcher } from './dispatch.js';
import { validateCapabilityRequest, type Capability } from './capability.js';
import type { Authority } from './grant.js';
import { asHostInfrastructure, currentHostFrame, runInFrame, withAllowance, withoutAllowance, type HostFrame, type HostHandle } from './host-context.js';
import { HostIntegrityError } from './integrity-errors.js';
import { appendAsHost, captureForLedger, redactionsOf, type Ledger, type LedgerAppend, type LedgerEvent } from './ledger.js';
import { outsidePolicy } from './perimeter.js';
import { rawDynamicExecutionIn } from './raw-dynamic-expression.js';
import { decideOnLoadedBuiltins, recordRealmChanges } from './realm-integrity.js';
import { classNameOf, isProxy } from './snapshot-reflect.js';
import { addListener, append, mapDelete, mapGet, mapHas, mapKeyList, mapSet, objectFreeze, removeListener, setAdd, setHas, setSizeOf, signalAborted, stringIndexOf, stringSlice, weakSetAdd, weakSetHas } from './intrinsics.js';
import { AnomalyTally } from './anomaly-tally.js';
import {
  AllocationExhaustedError,
  CapabilityRefusedError,
  InspectorDeadlineError,
  NaturalExecutionError,
  RunTerminatedError,
  type NaturalExecutionFailure,
} from './run-errors.js';

/** Default host deadline for an application inspector: generous, so only a hung one misses it. */
export const DEFAULT_INSPECTOR_DEADLINE_MS = 120_000;

export type ExecutorStepObservation = 'adapter' | 'custom-admission' | 'aggregate';
export type RunState = 'running' | 'terminating' | 'terminated' | 'ended';

export interface RunHostInit {
  readonly runId: string;
  readonly ledger: Ledger;
  readonly allocation: Allocation;
  readonly authority: Authority;
  /** The executor's runStep as the Runner read it at construction (captured-methods.ts). */
  readonly delegate: CapturedMethods<StepExecutor>;
  readonly observation: ExecutorStepObservation;
  readonly auditStore: CapturedAuditStore | undefined;
  /** Anomaly kind and check for each captured operator object (noteObjectEdits). */
  readonly editChecks?: readonly (readonly [string, () => readonly string[]])[];
  readonly appOversight: Oversight | undefined;
  /** Host deadline for each application inspector decision (default DEFAULT_INSPECTOR_DEADLINE_MS). */
  readonly inspectorDeadlineMs?: number;
  /** Receives anomalies observed after run end (the run's ledger record is closed then). */
  readonly lateAnomaly?: (anomalyKind: string, detail: Record<string, unknown>, parentId: string | undefined) => void;
}

/** A dispatch node that has started and has no terminal event yet. */
export interface ActiveDispatch {
  readonly parentId: string;
  /** Marks the node terminal so its generated code refuses to start or resume. */
  close(): void;
}

export class RunHost implements HostHandle {
  readonly runId: string;
  readonly ledger: Ledger;
  readonly allocation: Allocation;
  readonly rootAuthority: Authority;
  readonly observation: ExecutorStepObservation;
  readonly abort = new AbortController();
  state: RunState = 'running';
  /** Natural executions started and not yet terminal: executionId → parent id. */
  readonly inflight = new Map<string, string>();
  /** Dispatch nodes started and not yet terminal: nodeId → node. */
  readonly activeDispatches = new Map<string, ActiveDispatch>();
  readonly #contexts = new Map<string, StepContext>();
  readonly #inspectorDeadlineMs: number;
  readonly #delegate: CapturedMethods<StepExecutor>;
  /** Which anomalies are listed one by one, per kind and parent (`kind\0parentId`). */
  readonly #anomalies = new AnomalyTally();
  /** Edit anomalies recorded in this run (noteObjectEdits). */
  readonly #notedEdits = new Set<string>();
  readonly #editChecks: readonly (readonly [string, () => readonly string[]])[];
  readonly #auditStore: CapturedAuditStore | undefined;
  /** The audit store as host infrastructure, made at the first perimeter effect and kept for the run. */
  #infrastructureStore: PerimeterAuditStore | undefined;
  readonly #app: Oversight | undefined;
  readonly #late: RunHostInit['lateAnomaly'];
  readonly #failures = new Map<string, NaturalExecutionFailure>();
  readonly #meters = new Map<string, UsageMeter>();
  /** Operation records delivered through the host seam (each once); weak, so a long run does not keep them all. */
  readonly #delivered = new WeakSet<OperationFinished>();
  readonly #toolCapability = new Map<ToolSpec, string>();
  readonly #toolByName = new Map<string, ToolSpec>();
  readonly oversight: Oversight;
  readonly executor: StepExecutor;
  /** The run's dispatcher (set by the Runner at entry). */
  dispatcher: Dispatcher | undefined;

  constructor(init: RunHostInit) {
    this.runId = init.runId;
    this.ledger = init.ledger;
    this.allocation = init.allocation;
    this.rootAuthority = init.authority;
    this.observation = init.observation;
    this.#delegate = init.delegate;
    this.#editChecks = init.editChecks ?? [];
    this.#auditStore = init.auditStore;
    this.#app = init.appOversight;
    this.#inspectorDeadlineMs = init.inspectorDeadlineMs ?? DEFAULT_INSPECTOR_DEADLINE_MS;
    this.#late = init.lateAnomaly;
    for (const cap of init.authority.capabilities.values()) this.#toolFor(cap);
    // The oversight object is reachable from interior code (it is the run's oversight), so each seam
    // accepts only what the core's operation engine and step runner created.
    this.oversight = Object.freeze({
      inspectOperation: (r: OperationRequest) => this.#inspectOperation(this.#genuine('inspectOperation', r, true)),
      onOperationFinished: (f: OperationFinished) => this.#onOperationFinished(this.#genuine('onOperationFinished', f, true)),
      inspectStepCommit: (c: StepCommit) => this.#inspectStepCommit(this.#genuine('inspectStepCommit', c, true)),
      onStepFinished: (f: StepFinished) => this.#onStepFinished(this.#genuine('onStepFinished', f)),
      // Its answer is the error the operator catches for an execution: only for a terminal record the core made.
      translateStepFailure: (e: unknown, f: StepFinished) => this.#translate(e, this.#genuine('translateStepFailure', f)),
    });
    this.executor = Object.freeze({ runStep: (request: StepRequest) => this.#runStep(request) });
  }

  /**
   * `executorOnly`: the seam's one caller is the core's operation engine or step runner, which model code cannot
   * drive (StepContext refuses it), so a call under an interior mark is model code replaying a genuine request (each
   * inspection admits an operation against the allocation) or record. The terminal seams are also reached by a step
   * that failed before its executor, in its caller's context, and take the provenance check alone.
   */
  #genuine<T>(seam: string, value: T, executorOnly = false): T {
    const mark = executorOnly ? currentInterior() : undefined;
    if (mark === undefined && isCoreRecord(value)) return value;
    this.recordAnomaly('forged_seam_call', { seam, ...(mark ? { caller: callerOf(mark) } : {}) }, mark ? interiorParentId(mark) : currentHostFrame()?.submitterId);
    throw new HostIntegrityError({ attempt: 'forged-seam-call', detail: mark ? `the host seam ${seam} serves the core's step machinery; model code may not call it` : `the host seam ${seam} accepts only records the core created` });
  }

  /** Tools for the capabilities of an authority (stable identities, so the seam check can recognise them). */
  toolsFor(authority: Authority): ToolSpec[] {
    return [...authority.capabilities.values()].map((c) => this.#toolFor(c));
  }

  /** True once the run's terminal event is recorded: nothing of this run is recorded after it. */
  get ended(): boolean {
    return this.state === 'ended' || this.state === 'terminated';
  }

  /** Appends an event of this run; after the run end nothing is appended (the fact is dropped). */
  append(entry: LedgerAppend): LedgerEvent | undefined {
    if (this.ended) return undefined;
    return appendAsHost(this.ledger, this.runId, entry);
  }

  /**
   * Records, once per run and kind, that an operator object the host calls into (executor, audit store, ledger
   * store, confinement, termination) was edited since the Runner or Ledger captured it (captured-methods.ts): the
   * host went on with the captured methods, so the edit changed nothing. Cheap: no getter of the object runs.
   */
  noteObjectEdits(parentId?: string): void {
    const checks = this.#editChecks;
    for (let i = 0; i < checks.length; i++) {
      const kind = checks[i]![0];
      if (setHas(this.#notedEdits, kind)) continue;
      const methods = checks[i]![1]();
      if (methods.length === 0) continue;
      setAdd(this.#notedEdits, kind);
      this.recordAnomaly(kind, { methods: [...methods] }, parentId);
    }
  }

  /**
   * A host object of this run (its gateway, its dispatcher) used from another run's frame: recorded in both runs
   * (`authority_from_other_run`), late where one has ended. The caller then refuses.
   */
  refuseOtherRun(frame: HostFrame, detail: Record<string, unknown>): void {
    this.recordAnomaly('authority_from_other_run', { ...detail, callerRunId: frame.host.runId });
    frame.host.recordAnomaly('authority_from_other_run', { ...detail, ownerRunId: this.runId }, frame.submitterId);
  }

  recordAnomaly(anomalyKind: string, detail: Record<string, unknown>, parentId?: string): void {
    if (this.ended) {
      this.#late?.(anomalyKind, detail, parentId);
      return;
    }
    const parent = parentId ?? this.runId;
    if (this.#anomalies.note(`${anomalyKind}\0${parent}`, detail)) this.append({ kind: 'trace.anomaly', subjectId: this.runId, parentId: parent, status: anomalyKind, data: { anomalyKind, ...detail } });
    // What a refusal enforces does not depend on whether its record was listed.
    if (anomalyKind === 'unmediated_perimeter_effect') {
      this.#refusePerimeterEffect(parentId, `unmediated perimeter effect ${String(detail.effect)}`, undefined);
    }
  }

  /** Before run.end: one anomaly per kind and parent with anomalies not listed (AnomalyTally), counting them (`repeated`). */
  recordRepeatedAnomalies(): void {
    const counted = this.#anomalies.unlisted();
    for (let i = 0; i < counted.length; i++) {
      const { key, unlisted, listed } = counted[i]!;
      const cut = stringIndexOf(key, '\0');
      const anomalyKind = stringSlice(key, 0, cut);
      this.append({ kind: 'trace.anomaly', subjectId: this.runId, parentId: stringSlice(key, cut + 1), status: anomalyKind, data: { anomalyKind, repeated: unlisted, listed } });
    }
  }

  /** Records a dispatch node's terminal event once; later attempts (or any after the run end) change nothing. */
  endDispatch(nodeId: string, status: 'completed' | 'failed' | 'rejected' | 'terminated', data: Record<string, unknown>): void {
    const active = mapGet(this.activeDispatches, nodeId);
    if (!active) return;
    mapDelete(this.activeDispatches, nodeId);
    active.close();
    if (this.ledger.hasTerminal('dispatch.end', nodeId)) return;
    this.append({ kind: 'dispatch.end', subjectId: nodeId, parentId: active.parentId, status, data });
  }

  /** Every Natural execution and dispatch node that has no terminal event yet. */
  activeBranches(): string[] {
    // Captured iteration: the run-end seam decides from this while a live branch may have replaced the Map
    // iterator (to hide itself and let the run end with it still running).
    const branches = mapKeyList(this.inflight);
    const dispatches = mapKeyList(this.activeDispatches);
    for (let i = 0; i < dispatches.length; i++) append(branches, dispatches[i]!);
    return branches;
  }

  /** Dispatch nodes and executions of branches a parent asked to terminate (RunContext.terminateBranch). */
  readonly #closedBranches = new Set<string>();

  /**
   * Closes a branch a parent asked to terminate, before its mechanism is asked: from now on every mediation seam
   * refuses what is submitted from these ids or from under them (inClosedBranch), and each dispatch node's guarded
   * code refuses to start or resume. Nothing terminal is recorded here; that waits for established cessation.
   */
  closeBranch(ids: readonly string[]): void {
    for (let i = 0; i < ids.length; i++) {
      setAdd(this.#closedBranches, ids[i]!);
      mapGet(this.activeDispatches, ids[i]!)?.close();
    }
  }

  /** True when `id` (an execution, a dispatch node) is in, or runs under, a closed branch (closeBranch). */
  inClosedBranch(id: string | undefined): boolean {
    if (setSizeOf(this.#closedBranches) === 0) return false;
    for (let hops = 0; id !== undefined && hops < 64; hops++) {
      if (setHas(this.#closedBranches, id)) return true;
      id = this.liveParentOf(id);
    }
    return false;
  }

  /** The parent of an active dispatch node or Natural execution (undefined once it ended). */
  liveParentOf(id: string): string | undefined {
    return mapGet(this.activeDispatches, id)?.parentId ?? mapGet(this.inflight, id);
  }

  /** Cessation of its branch is established: the execution's one terminal event (`terminated`), and its host state released. */
  endTerminatedExecution(executionId: string, data: Record<string, unknown>): void {
    if (!mapHas(this.inflight, executionId)) return;
    mapSet(this.#failures, executionId, 'terminated');
    this.#endExecution(executionId, 'terminated', data);
  }

  /**
   * Seed 001: rejected perimeter effects are terminal. The Natural execution the effect was submitted
   * from (directly, or through dispatch nodes under it) ends, even if the refusal is caught inside.
   */
  #refusePerimeterEffect(submitterId: string | undefined, reason: string, cause: unknown): void {
    let id = submitterId;
    for (let hops = 0; id !== undefined && hops < 64; hops++) {
      const ctx = mapGet(this.#contexts, id);
      if (ctx) {
        mapSet(this.#failures, ctx.executionId, 'perimeter_refused');
        // Reached from model code too (an unmediated effect it attempted): the host ends the step, not that code.
        runOutsideInterior(() => ctx.endStep(new StepAbortedError({ subject: 'operation', reason: `rejected perimeter effect: ${reason}`, stepId: ctx.stepId, cause })));
        return;
      }
      id = mapGet(this.activeDispatches, id)?.parentId;
    }
  }

  // --- capability gateway -------------------------------------------------------------------

  /**
   * Host-mediated capability call: grant, request type, footprint vs policy, durable attempt, then body.
   * `requestIsData`: the request is the parsed arguments of a model's tool call, so reading it runs no code.
   */
  invokeCapability(name: string, rawArgs: unknown, executionId?: string, requestIsData = false): Promise<unknown> {
    // Reading a request interior code made runs its getters and traps: under its mark (see #invokeCapability).
    const caller = requestIsData ? undefined : currentInterior();
    // The gateway and the capability body are host infrastructure, not the interior code that called them.
    return runOutsideInterior(() => this.#invokeCapability(name, rawArgs, executionId, requestIsData, caller));
  }

  async #invokeCapability(name: string, rawArgs: unknown, executionId: string | undefined, requestIsData: boolean, caller: InteriorMark | undefined): Promise<unknown> {
    const frame = currentHostFrame();
    // Reached from another run (a wrapper or tool stashed where that run can reach it): this run's authority is
    // not that run's. Checked first, so the refusal lands in the caller's ledger even after this run ended.
    if (frame !== undefined && frame.host !== this) {
      this.refuseOtherRun(frame, { capability: name });
      throw new CapabilityRefusedError({ capability: name, reason: 'other-run', detail: `it belongs to run ${this.runId}, not to the run calling it` });
    }
    const authority = frame?.host === this ? frame.authority : this.rootAuthority;
    const parentId = executionId ?? frame?.submitterId ?? this.runId;
    // The refusal this call made itself. What the capability body throws is its failure, whatever its class: generated
    // code running in it can throw a CapabilityRefusedError of its own (made with `new`, or Object.create of the
    // prototype), which must not pass for the host's refusal and leave the call unrecorded.
    let refusal: CapabilityRefusedError | undefined;
    const refuse = (reason: CapabilityRefusedError['reason'], detail: string, cause?: unknown): never => {
      this.append({ kind: 'capability.refused', subjectId: name, parentId, status: reason, data: { capability: name, reason, detail } });
      const error = (refusal = new CapabilityRefusedError({ capability: name, reason, detail, cause }));
      // Seed 001: a rejected perimeter effect is terminal, whether the policy refused it or the host could not
      // record its attempt (seed 002: a store that raises means the effect is not attempted).
      if (reason === 'footprint-outside-policy' || reason === 'audit-store-failed') this.#refusePerimeterEffect(parentId, error.message, error);
      throw error;
    };
    if (this.state !== 'running') {
      // After run.end the refusal record has no ledger to go to: the anomaly reaches the late record.
      if (this.ended) this.recordAnomaly('capability_after_run_closed', { capability: name });
      refuse('run-closed', 'the run is no longer admitting interior operations');
    }
    if (this.inClosedBranch(parentId)) return refuse('branch-terminated', 'it was submitted from a dispatch branch its parent asked to terminate (RunContext.terminateBranch)');
    const cap = authority.capabilities.get(name);
    if (!cap) return refuse('not-granted', 'it is not in the grant in force here');
    // The request is validated, and the capability body runs, on the built-ins the host loaded with: interior
    // code that replaced some (lying only to a validator, say) is recorded and undone here, not at the end of
    // its operation or node. A request whose own getters replace built-ins while it is read is refused.
    recordRealmChanges(this, parentId);
    let given: unknown = rawArgs;
    if (!requestIsData) {
      // A request code built (generated code, a direct call) is read into plain data first, once, under the caller's
      // mark: its getters and proxy traps are the caller's code (guard and run-time tier apply), and none of them runs
      // while the request is validated (one that swapped a built-in for the check and put it back would go unseen)
      // or later in the capability body, as host code. Operator data the code holds through the membrane (a proxy the
      // engine's clone refuses) is copied as the operator's data it shows.
      try {
        given = caller ? reenterInterior(caller, () => facingStructuredClone(rawArgs)) : facingStructuredClone(rawArgs);
      } catch (thrown) {
        return refuse('invalid-request', `its request is not plain data (functions, proxies and symbols cannot be handed to a capability): ${describeError(thrown, 200)}`, thrown);
      }
      // A second full check (~0.1 ms) only where reading the request could run code. A model's tool call, on every
      // capability operation, carries parsed JSON.
      if (recordRealmChanges(this, parentId) > 0) return refuse('invalid-request', 'reading the request modified built-ins');
    }
    let parsed: ReturnType<typeof validateCapabilityRequest>;
    try {
      parsed = validateCapabilityRequest(cap, given);
    } catch (thrown) {
      return refuse('invalid-request', `its request validator threw ${describeError(thrown, 200)}`, thrown);
    }
    if (!parsed.success) {
      const issues = describeIssues(parsed.error.issues);
      // A model's tool call reaches here only after the core checked the same arguments with this same copy
      // (ToolSpec.parseArguments): refusing them now means a validator that answers differently the second time.
      if (requestIsData) this.recordAnomaly('request_type_modified', { capability: name, issues }, parentId);
      return refuse('invalid-request', issues);
    }
    const request: unknown = parsed.data;
    const outside = outsidePolicy(cap.footprint, authority.policy);
    if (outside.length) return refuse('footprint-outside-policy', `its footprint includes ${outside.join(', ')}, which the effective perimeter policy does not permit`);
    const context = { runId: this.runId, executionId, signal: this.abort.signal };
    // Seed 001: captured now, after validation and before the body, which may mutate what it was handed.
    const inputs = captureForLedger(this.ledger, request);
    const record = (status: 'completed' | 'failed', extra: Record<string, unknown>) =>
      this.append({ kind: 'capability.call', subjectId: name, parentId, status, data: { capability: name, footprint: cap.footprint, arguments: inputs, ...extra } });
    try {
      let result: unknown;
      if (cap.footprint.length > 0) {
        if (!this.#auditStore) return refuse('audit-store-failed', 'no perimeter audit store is configured');
        // Made by generated code: the attempt names its dispatch node (the frame's submitter while it runs).
        const dispatchNodeId = executionId === undefined && mapHas(this.activeDispatches, parentId) ? parentId : undefined;
        const attempt = createPerimeterAttempt({ runId: this.runId, capability: name, footprint: cap.footprint, arguments: request, ...(executionId ? { executionId } : {}), ...(dispatchNodeId ? { dispatchNodeId } : {}) });
        // The attempt goes through the methods read when the Runner was built; a shadowing since is recorded.
        this.noteObjectEdits(parentId);
        // Only before the effect can a failure be the attempt write's: a PerimeterAttemptNotRecordedError the body
        // throws (generated code can make one) is the body's failure, not a refusal saying nothing was attempted.
        let effectCalled = false;
        try {
          result = await admitPerimeterEffect((this.#infrastructureStore ??= hostInfrastructureStore(this.#auditStore.methods)), attempt, () => {
            effectCalled = true;
            // The store may take its time: a run terminated meanwhile (its end perhaps recorded) attempts nothing more.
            // The attempt's completion then says failed (not attempted) and the refusal is recorded, late if need be.
            if (this.state !== 'running') {
              this.recordAnomaly('effect_after_run_stopped', { capability: name, attemptId: attempt.attemptId }, parentId);
              throw (refusal = new CapabilityRefusedError({ capability: name, reason: 'run-closed', detail: 'the run stopped while its attempt record was written, so the effect was not attempted' }));
            }
            return withAllowance(name, () => cap.run(request, context));
          });
        } catch (error) {
          if (!effectCalled && isInstance(error, PerimeterAttemptNotRecordedError)) return refuse('audit-store-failed', 'the attempt record could not be persisted, so the effect was not attempted', error);
          throw error;
        }
      } else {
        result = await withoutAllowance(() => cap.run(request, context));
      }
      record('completed', { result });
      return result;
    } catch (error) {
      if (refusal === undefined || error !== refusal) record('failed', { error });
      throw error;
    }
  }

  #toolFor(cap: Capability): ToolSpec {
    const existing = this.#toolByName.get(cap.name);
    if (existing && mapGet(this.#toolCapability, existing) === cap.name) return existing;
    const tool: ToolSpec = Object.freeze({
      name: cap.name,
      description: cap.description,
      input: cap.request,
      // The gateway parses the model's arguments itself, once, with its own copy of the request type; the core's
      // check for the operation record uses that copy too, so an edited schema object cannot split the two.
      validatesRequest: true,
      parseArguments: (value: unknown) => {
        const parsed = validateCapabilityRequest(cap, value);
        // Evidence of an edit: the operator's schema object admits what the copy taken at definition refuses.
        if (!parsed.success && operatorTypeAdmits(cap, value)) this.recordAnomaly('request_type_modified', { capability: cap.name, issues: describeIssues(parsed.error.issues) });
        return parsed;
      },
      run: (args: unknown, ctx: unknown) => this.#runTool(cap.name, args, ctx),
    }) as ToolSpec;
    mapSet(this.#toolCapability, tool, cap.name);
    this.#toolByName.set(cap.name, tool);
    return tool;
  }

  /**
   * A host tool's `run`. The tools sit in the runtime state any code in the run can read, so the context handed in
   * says nothing the host may believe: the Natural execution is the one whose tool operation the core is running
   * (its frozen request, outside any interior mark), and otherwise the caller is code making a direct capability
   * call, recorded under its host frame like any other. A context naming something else is refused: it would
   * attribute the call and its durable attempt falsely, escape a closed branch, or aim a perimeter refusal elsewhere.
   */
  #runTool(name: string, args: unknown, ctx: unknown): Promise<unknown> {
    const caller = currentInterior();
    const body = currentOperationBody();
    const own = caller === undefined && body !== undefined && body.kind === 'tool' && body.toolName === name && body.runId === this.runId && isCoreRecord(body) ? body.executionId : undefined;
    const frame = currentHostFrame();
    // From another run the gateway refuses first, into the caller's ledger (see #invokeCapability).
    if (frame === undefined || frame.host === this) {
      const claimed = claimedExecution(ctx, caller);
      const actual = own ?? frame?.submitterId ?? this.runId;
      if (claimed !== undefined && claimed !== actual) {
        this.recordAnomaly('forged_execution_id', { capability: name, claimed }, actual);
        return Promise.reject(new HostIntegrityError({ attempt: 'forged-execution-id', detail: `a call of tool '${name}' from ${actual} named ${claimed}; the host decides which execution a call belongs to` }));
      }
    }
    // Data only when the agent executor parsed it from the model's call; code calling run directly gets the full path.
    return this.invokeCapability(name, args, own, isParsedToolArguments(args));
  }

  // --- host seams around Natural executions ------------------------------------------------

  #inspectOperation(request: OperationRequest): OperationDecision | Promise<OperationDecision> {
    if (this.state !== 'running') return abortStep('the run is terminating; interior operations are refused');
    if (this.inClosedBranch(request.executionId)) return abortStep('its dispatch branch is being terminated; interior operations are refused');
    // Operations are consumption too: admitted against the opaque allocation after argument
    // validation and before any inspector or body (seed 000), per response and per run.
    try {
      this.allocation.admitOperation(request.executionId, this.observation !== 'aggregate');
    } catch (error) {
      if (!isInstance(error, AllocationExhaustedError)) throw error;
      this.#exhausted(error, request.executionId, request.operationId);
      return abortStep('allocation_exhausted');
    }
    const frame = currentHostFrame();
    if (frame?.allowance?.active) {
      this.recordAnomaly('operation_under_gateway_allowance', { operationId: request.operationId, holder: frame.allowance.holder }, request.executionId);
      mapSet(this.#failures, request.executionId, 'mediation_bypass');
      return abortStep(`operation evaluated under the gateway allowance of '${frame.allowance.holder}' (mediation bypass)`);
    }
    const text = request.expression;
    if (text !== undefined) {
      const rule = rawDynamicExecutionIn(text);
      if (rule) {
        this.recordAnomaly('raw_dynamic_execution', { operationId: request.operationId, rule, expression: text }, request.executionId);
        return rejectOperation(
          `Raw dynamic execution (${rule}) is not permitted in expressions.`,
          'Write the expression directly with the locals and references in scope, or call a granted capability.',
        );
      }
      // Functions the text defines could not be guarded (the core would refuse to compile it): refused recoverably here.
      const refusal = expressionRefusal(text);
      if (refusal !== undefined) {
        this.recordAnomaly('expression_not_guardable', { operationId: request.operationId, rule: ExpressionNotGuardableError.RULE, problem: refusal.problem, expression: text }, request.executionId);
        return rejectOperation(`${refusal.reason} (${refusal.problem}).`, refusal.guidance);
      }
    }
    const app = this.#app?.inspectOperation;
    if (!app) return { kind: 'accept' };
    // An earlier operation's expression may have replaced a built-in the per-operation check does not watch (a
    // Set lookup the inspector relies on): the inspector decides on the built-ins the host loaded with.
    return this.#withinDeadline('inspectOperation', () => app(request), request.executionId);
  }

  /**
   * Runs an application inspector under the host deadline and the run's stop: missing the deadline is
   * an inspection failure (terminal for the step, recorded), and a stop never waits for a hung inspector.
   * It decides on the built-ins the host loaded with; one that awaited and saw them change meanwhile aborts the step.
   */
  #withinDeadline<T>(hook: 'inspectOperation' | 'inspectStepCommit', decide: () => T | Promise<T>, executionId: string): T | Promise<T | AbortStep> {
    const out = decideOnLoadedBuiltins(this, executionId, decide, () => abortStep(`built-ins changed while ${hook} awaited; its decision is void`));
    if (!(out instanceof Promise)) return out;
    return new Promise<T | AbortStep>((resolve, reject) => {
      const signal = this.abort.signal;
      const settle = () => {
        clearTimeout(timer);
        removeListener(signal, 'abort', onStop);
      };
      const onStop = () => {
        settle();
        resolve(abortStep(`the run is stopping: ${describeError(signal.reason)}`));
      };
      const timer = setTimeout(() => {
        settle();
        const error = new InspectorDeadlineError({ hook, deadlineMs: this.#inspectorDeadlineMs, executionId });
        mapSet(this.#failures, executionId, 'inspection_failed');
        this.recordAnomaly('inspector_deadline_exceeded', { hook, deadlineMs: this.#inspectorDeadlineMs }, executionId);
        reject(error);
      }, this.#inspectorDeadlineMs);
      if (signalAborted(signal)) return onStop();
      addListener(signal, 'abort', onStop, { once: true });
      out.then(
        (value) => {
          settle();
          resolve(value);
        },
        (error: unknown) => {
          settle();
          reject(error);
        },
      );
    });
  }

  async #onOperationFinished(finished: OperationFinished): Promise<void> {
    // Each record is delivered once by the core. The seam is reachable (the runtime state's oversight) and a genuine
    // record is too (a step context's `operations`): delivered again, it would be a second record of one operation.
    if (weakSetHas(this.#delivered, finished)) {
      this.recordAnomaly('forged_seam_call', { seam: 'onOperationFinished', operationId: finished.request.operationId, redelivered: true }, finished.request.executionId);
      throw new HostIntegrityError({ attempt: 'forged-seam-call', detail: `the record of operation ${finished.request.operationId} was delivered already` });
    }
    weakSetAdd(this.#delivered, finished);
    // Before anything is appended, so the host records on the built-ins it was loaded with.
    recordRealmChanges(this, finished.request.operationId, 'hot');
    const event = this.append({ kind: 'operation', subjectId: finished.request.operationId, parentId: finished.request.executionId, status: finished.status, data: finished });
    // An operation proposed on a step that already ended (its context kept by an expression or an executor) was
    // cut off by the core; the attempt itself is the anomaly. Inflight first: the ledger lookup only when needed.
    const executionId = finished.request.executionId;
    if (!mapHas(this.inflight, executionId) && this.ledger.hasTerminal('execution.end', executionId)) {
      this.recordAnomaly('operation_after_execution_end', { operationId: finished.request.operationId, executionId, status: finished.status }, executionId);
    }
    // A secret the snapshot had to redact was read by the model's operation.
    const read = finished.secretsRead ?? [];
    const redacted = event ? redactionsOf(event) : [];
    // Built only when there is something to report: this runs for every model operation.
    if (read.length > 0 || redacted.length > 0) {
      // Captured operations: the expression may have replaced Set.prototype.add, which the check above does not
      // watch, to empty the names of what it read.
      const secrets: string[] = [];
      const seen = new Set<string>();
      const note = (list: readonly string[]): void => {
        for (let i = 0; i < list.length; i++) {
          if (setHas(seen, list[i]!)) continue;
          setAdd(seen, list[i]!);
          append(secrets, list[i]!);
        }
      };
      note(read);
      note(redacted);
      this.recordAnomaly('secret_read', { operationId: finished.request.operationId, secrets, via: 'operation' }, finished.request.operationId);
    }
    await this.#app?.onOperationFinished?.(finished);
  }

  async #inspectStepCommit(commit: StepCommit): Promise<StepCommitDecision> {
    if (this.state !== 'running') return abortStep('the run was terminated; nothing is committed');
    if (this.inClosedBranch(commit.executionId)) return abortStep('its dispatch branch is being terminated; nothing is committed');
    // The core validated this write set on clean built-ins (#runStep checked just before handing it back): a
    // change now was made while it was validated, by a getter in the model's value, so the validation is void.
    if (recordRealmChanges(this, commit.executionId) > 0) return abortStep('validating the write set modified built-ins; nothing is committed');
    if (this.observation === 'aggregate' && !this.#accountAggregate(commit.executionId)) return abortStep('allocation_exhausted');
    const app = this.#app?.inspectStepCommit;
    return app ? await this.#withinDeadline('inspectStepCommit', () => app(commit), commit.executionId) : { kind: 'accept' };
  }

  async #onStepFinished(finished: StepFinished): Promise<void> {
    recordRealmChanges(this, finished.executionId, 'full');
    if (!mapHas(this.inflight, finished.executionId) && !this.ledger.hasTerminal('execution.end', finished.executionId)) {
      // A core stage failed before the host executor saw this execution (e.g. a read binding did not resolve).
      const parentId = finished.parentExecutionId ?? currentHostFrame()?.submitterId ?? this.runId;
      mapSet(this.inflight, finished.executionId, parentId);
      this.append({ kind: 'execution.start', subjectId: finished.executionId, parentId, data: { stepId: finished.stepId } });
    }
    // The application's lifecycle hears first: if it throws, the core fails the execution (seed 000: notification
    // failures are terminal) and assigns nothing, so the one terminal event must say failed, not completed.
    let notification: { error: unknown } | undefined;
    try {
      await this.#app?.onStepFinished?.(finished);
    } catch (error) {
      notification = { error };
      if (!mapHas(this.#failures, finished.executionId)) mapSet(this.#failures, finished.executionId, 'notification_failed');
    }
    this.#endExecution(finished.executionId, notification ? 'failed' : finished.status, {
      stepId: finished.stepId,
      outcomeKind: finished.outcomeKind,
      proposed: finished.proposedBindings,
      committed: notification ? {} : finished.committedBindings,
      rewritten: finished.rewritten,
      failedOperations: finished.failedOperations.map((o) => o.request.operationId),
      // Seed 000: an AbortStep (or a TerminalOperationError) ends the step with a failed terminal record; why it failed
      // is data, as for every other failure the host classified.
      failure: mapGet(this.#failures, finished.executionId) ?? (!notification && finished.status === 'failed' && isInstance(finished.error, StepAbortedError) ? 'aborted' : undefined),
      error: notification ? notification.error : finished.error,
    });
    if (notification) throw notification.error;
  }

  /**
   * Aggregate accounting (seed 002): the usage an execution's meter learned is presented once, at its commit or,
   * for an execution that failed or was cut off before one, at its end; either way it counts against the run.
   * False when it took the run past its allocation (recorded as allocation.exhausted of that execution).
   */
  #accountAggregate(executionId: string): boolean {
    const meter = mapGet(this.#meters, executionId);
    mapDelete(this.#meters, executionId);
    try {
      if (meter) this.allocation.observe(meter.total);
      this.allocation.checkAggregate(meter?.total.requests ?? 0);
      return true;
    } catch (error) {
      if (!isInstance(error, AllocationExhaustedError)) throw error;
      this.#exhausted(error, executionId);
      return false;
    }
  }

  #endExecution(executionId: string, status: StepFinished['status'] | 'terminated', data: Record<string, unknown>): void {
    // Usage of an execution that ends without reaching its commit still counts (it consumed before failing); a
    // meter accounted at the commit is gone already, so none is counted twice.
    if (this.observation === 'aggregate' && mapHas(this.#meters, executionId)) this.#accountAggregate(executionId);
    const parentId = mapGet(this.inflight, executionId);
    mapDelete(this.inflight, executionId);
    mapDelete(this.#meters, executionId);
    mapDelete(this.#contexts, executionId);
    this.allocation.releaseExecution(executionId);
    if (this.ledger.hasTerminal('execution.end', executionId)) return;
    this.append({ kind: 'execution.end', subjectId: executionId, parentId, status, data });
  }

  #exhausted(error: AllocationExhaustedError, executionId: string, operationId?: string): void {
    mapSet(this.#failures, executionId, 'allocation_exhausted');
    this.append({ kind: 'allocation.exhausted', subjectId: executionId, parentId: mapGet(this.inflight, executionId), status: error.resource, data: { resource: error.resource, ...(operationId ? { operationId } : {}) } });
  }

  /** The step's usage meter is written by its executor only (seed 002's aggregate accounting reads it). */
  #refuseUsageFromModelCode(executionId: string): void {
    if (modelCodeRunning()) {
      this.recordAnomaly('usage_from_model_code', { executionId }, executionId);
      throw new HostIntegrityError({ attempt: 'usage-from-model-code', detail: 'the step usage meter records what the step executor consumed; model code and operation bodies may not write it' });
    }
  }

  /**
   * The executor-step admission is the executor's seam: it runs its callback as host infrastructure and its
   * figures are the run's accounting. The adapter's executor receives it privately (handStepAdmission); wherever
   * it is, code an operation runs (an expression, a tool) and generated code are refused it.
   */
  #refuseAdmissionToModelCode(executionId: string, use: 'admit' | 'request' | 'observe'): void {
    if (modelCodeRunning()) {
      this.recordAnomaly('admission_from_operation', { executionId, use }, executionId);
      throw new HostIntegrityError({ attempt: 'admission-from-operation', detail: `the executor-step admission (${use}) serves the step executor's provider requests only; model code and operation bodies may not use it` });
    }
    // Kept past its execution's end, it would admit and account requests under an execution that is over.
    if (!mapHas(this.inflight, executionId)) {
      this.recordAnomaly('stale_admission', { executionId, use }, executionId);
      throw new HostIntegrityError({ attempt: 'stale-admission', detail: `the executor-step admission of ${executionId} ended with its Natural execution` });
    }
  }

  #translate(error: unknown, finished: StepFinished): unknown {
    if (finished.status === 'raised') {
      // The model's own outcome: an error a model expression threw (raise_operation_id) or one the core made of the
      // type it named. Whatever its class says (a NaturalExecutionError naming another execution, an allocation or
      // termination look-alike), only what the host recorded about this execution decides its failure.
      const requestedType = isProxy(error) || typeof error !== 'object' || error === null ? undefined : classNameOf(error);
      return new NaturalExecutionError({ executionId: finished.executionId, stepId: finished.stepId, failure: mapGet(this.#failures, finished.executionId) ?? 'raised', ...(requestedType ? { requestedType } : {}), cause: error });
    }
    if (isInstance(error, NaturalExecutionError)) return error;
    const failure: NaturalExecutionFailure =
      mapGet(this.#failures, finished.executionId) ??
      (isInstance(error, AllocationExhaustedError) ? 'allocation_exhausted' : causedBy(error, RunTerminatedError) ? 'terminated' : isInstance(error, StepAbortedError) ? 'aborted' : 'failed');
    return new NaturalExecutionError({ executionId: finished.executionId, stepId: finished.stepId, failure, cause: error });
  }

  async #runStep(request: StepRequest) {
    // The host executor is reachable (the runtime state's `executor`): model code calling it with a step context it
    // built would start an execution no step runner finishes, left active at the run end. Steps model code starts
    // through nh.step() reach here unmarked (withStepContext).
    const mark = currentInterior();
    if (mark !== undefined) {
      this.recordAnomaly('foreign_step_context', { caller: callerOf(mark) }, interiorParentId(mark));
      throw new HostIntegrityError({ attempt: 'foreign-step-context', detail: 'the host executor runs the steps the core starts; model code starts a step with nh.step()' });
    }
    const ctx = request.stepContext;
    const state = currentState();
    const frame = currentHostFrame();
    // This host's frame names the innermost submitter: a dispatch node running inside an execution (its generated code
    // or host code it reached started this step) is below that execution in the core's step chain.
    const parentId = (frame?.host === this ? frame.submitterId : undefined) ?? ctx.parent?.executionId ?? this.runId;
    if (ctx.oversight !== state?.oversight || mapHas(this.inflight, ctx.executionId) || this.ledger.hasTerminal('execution.end', ctx.executionId)) {
      this.recordAnomaly('foreign_step_context', { stepId: ctx.stepId, executionId: ctx.executionId }, frame?.submitterId ?? this.runId);
      throw new HostIntegrityError({ attempt: 'foreign-step-context', detail: 'the host executor runs only fresh steps created under the host oversight' });
    }
    // Work a run left behind (a timer, an unawaited callback) reaching this seam after the run ended or while it
    // terminates is refused before anything is recorded for it, and leaves evidence.
    if (this.state !== 'running') {
      this.recordAnomaly(this.ended ? 'step_after_run_end' : 'step_while_terminating', { stepId: ctx.stepId, executionId: ctx.executionId }, frame?.submitterId ?? this.runId);
      mapSet(this.#failures, ctx.executionId, 'terminated');
      throw new NaturalExecutionError({ executionId: ctx.executionId, stepId: ctx.stepId, failure: 'terminated', cause: new RunTerminatedError({ runId: this.runId, ceased: false, reason: this.ended ? 'the run has ended' : 'terminating' }) });
    }
    // The same for a step submitted from a dispatch branch its parent asked to terminate (RunContext.terminateBranch).
    if (this.inClosedBranch(parentId)) {
      this.recordAnomaly('step_in_terminated_branch', { stepId: ctx.stepId, executionId: ctx.executionId }, parentId);
      mapSet(this.#failures, ctx.executionId, 'terminated');
      throw new NaturalExecutionError({ executionId: ctx.executionId, stepId: ctx.stepId, failure: 'terminated', cause: new RunTerminatedError({ runId: this.runId, ceased: false, reason: 'its dispatch branch is being terminated' }) });
    }
    mapSet(this.inflight, ctx.executionId, parentId);
    mapSet(this.#contexts, ctx.executionId, ctx);
    this.append({ kind: 'execution.start', subjectId: ctx.executionId, parentId, data: { stepId: ctx.stepId, program: ctx.program.text, inputBindings: ctx.inputBindings } });
    const fail = (failure: NaturalExecutionFailure, cause: unknown, recordEnd: boolean): never => {
      mapSet(this.#failures, ctx.executionId, failure);
      if (recordEnd) this.#endExecution(ctx.executionId, 'failed', { stepId: ctx.stepId, failure, error: cause });
      throw new NaturalExecutionError({ executionId: ctx.executionId, stepId: ctx.stepId, failure, cause });
    };
    if (!state || state.oversight !== this.oversight) {
      const anomalyKind = state?.oversight ? 'foreign_oversight' : 'cleared_oversight';
      this.recordAnomaly(anomalyKind, { stepId: ctx.stepId }, ctx.executionId);
      // The core will deliver the terminal record to the foreign lifecycle (or none): record it here.
      fail('trace_anomaly', new Error(`${anomalyKind}: the host oversight was replaced inside the run`), true);
    }
    // Index loops over captured Map methods: this decides whether a step may see its tools, and may run while
    // built-ins replaced by interior code are still in place (see intrinsics.ts).
    const tools = state?.tools ?? [];
    const ungranted: string[] = [];
    for (let i = 0; i < tools.length; i++) if (!mapHas(this.#toolCapability, tools[i]!)) append(ungranted, tools[i]!.name);
    if (ungranted.length) {
      this.recordAnomaly('ungranted_tool', { tools: ungranted }, ctx.executionId);
      fail('trace_anomaly', new Error(`tool(s) visible without a grant: ${ungranted.join(', ')}`), false);
    }
    // A granted tool re-exposed inside an attenuated scope is ambient authority there.
    const inForce = frame?.host === this ? frame.authority : this.rootAuthority;
    const ambient: string[] = [];
    for (let i = 0; i < tools.length; i++) {
      const c = mapGet(this.#toolCapability, tools[i]!);
      if (c !== undefined && !inForce.capabilities.has(c)) append(ambient, tools[i]!.name);
    }
    if (ambient.length) {
      this.recordAnomaly('ambient_tool', { tools: ambient }, ctx.executionId);
      fail('trace_anomaly', new Error(`tool(s) visible outside the authority in force: ${ambient.join(', ')}`), false);
    }
    let depth = 1;
    for (let p = ctx.parent; p; p = p.parent) depth++;
    depth += frame?.host === this ? frame.depth : 0;
    try {
      this.allocation.admitNaturalExecution(depth);
    } catch (error) {
      if (isInstance(error, AllocationExhaustedError)) this.#exhausted(error, ctx.executionId);
      throw error;
    }
    // Frozen, on a frozen prototype: model code can neither shadow nor replace the `record` that refuses it.
    const meter = new UsageMeter({ guard: () => this.#refuseUsageFromModelCode(ctx.executionId) });
    objectFreeze(meter);
    mapSet(this.#meters, ctx.executionId, meter);
    /** The usage of the current model request: as its replies' bytes stated, as its response claimed, as counted. */
    let current: RequestUsage | undefined;
    const admission: RequestAdmission | null =
      this.observation === 'aggregate'
        ? null
        : {
            admit: () => {
              this.#refuseAdmissionToModelCode(ctx.executionId, 'admit');
              if (this.state !== 'running') throw new RunTerminatedError({ runId: this.runId, ceased: false, reason: 'terminating' });
              if (this.inClosedBranch(ctx.executionId)) throw new RunTerminatedError({ runId: this.runId, ceased: false, reason: 'its dispatch branch is being terminated' });
              try {
                this.allocation.admitExecutorStep();
                this.allocation.startResponse(ctx.executionId);
                // A new executor step: what is observed from now on belongs to it, not to the last request sent.
                current = undefined;
              } catch (error) {
                if (isInstance(error, AllocationExhaustedError)) this.#exhausted(error, ctx.executionId);
                throw error;
              }
            },
            request: (send, origins) => {
              this.#refuseAdmissionToModelCode(ctx.executionId, 'request');
              // The provider client reads its reply (usage included, which the allocation counts) and sends the
              // key through built-ins an expression of this step may have replaced: it runs on the originals. What a
              // replaced built-in outside that set does inside the request meets its network-only allowance.
              recordRealmChanges(this, ctx.executionId, 'provider');
              // Counted as the reply arrives: code left running by this step's expressions may tamper with what
              // the client parses afterwards (the ModelResponse's usage), but not with what was counted already.
              const entry = (current = newRequestUsage());
              // Where the client said it connects (AgentExecutor read it when built): the network there only (nowhere
              // when it said nothing).
              return withAllowance('model-request', () => send((usage) => settleUsage(this.allocation, entry, 'metered', usage)), 'network', copyNetworkOrigins(origins, 'the executor\'s request'));
            },
            // The response's own figures count where they say more than the bytes did, in whichever order both come.
            observe: (usage) => {
              this.#refuseAdmissionToModelCode(ctx.executionId, 'observe');
              return current ? settleUsage(this.allocation, current, 'claimed', usage) : this.allocation.observe(usage);
            },
          };
    // The adapter's AgentExecutor receives its admission privately; only a custom executor that declares it admits
    // its own steps finds it in the step's scope (currentExecutorStepAdmission, as seed 002 describes).
    if (admission && this.observation === 'adapter') handStepAdmission(request, admission);
    const scoped = this.observation === 'adapter' ? null : admission;
    // The step runs on the runStep read when the Runner was built; a shadowing of the executor's since is recorded.
    this.noteObjectEdits(ctx.executionId);
    const runStep = this.#delegate.methods.runStep;
    const inner = () => scope({ usageMeter: meter, requestAdmission: scoped }, () => runStep(request));
    const nextFrame = frame ? { ...frame, allowance: undefined, submitterId: ctx.executionId } : undefined;
    // A Natural execution is host machinery even when generated code called it; its expressions are marked again.
    try {
      return await runOutsideInterior(() => withoutAllowance(() => (nextFrame ? runInFrame(nextFrame, inner) : inner())));
    } finally {
      // The core validates the write set (the typed boundary) as soon as this returns: on the built-ins the
      // host loaded with, not on ones a model expression or the code that ran this step replaced meanwhile.
      recordRealmChanges(this, ctx.executionId);
    }
  }
}

/** Token counts of one model request, from each source (see RunHost's request admission). */
interface RequestUsage {
  readonly metered: { input: number; output: number };
  readonly claimed: { input: number; output: number };
  readonly counted: { input: number; output: number };
}

const newRequestUsage = (): RequestUsage => ({ metered: { input: 0, output: 0 }, claimed: { input: 0, output: 0 }, counted: { input: 0, output: 0 } });

/**
 * Adds `usage` to what `source` says of the request (each adds up: the replies of a request with retries, an
 * executor observing in parts), then counts against the allocation what the larger of the two sources says
 * beyond what was counted already. Plain arithmetic on host-owned records, nothing a model reaches.
 */
function settleUsage(allocation: Allocation, entry: RequestUsage, source: 'metered' | 'claimed', usage: Partial<Usage>): void {
  const from = entry[source];
  from.input += usageCount(usage.inputTokens);
  from.output += usageCount(usage.outputTokens);
  // Both sources only grow and `counted` is their larger at the last settle, so neither difference is negative.
  const input = (entry.metered.input > entry.claimed.input ? entry.metered.input : entry.claimed.input) - entry.counted.input;
  const output = (entry.metered.output > entry.claimed.output ? entry.metered.output : entry.claimed.output) - entry.counted.output;
  if (input === 0 && output === 0) return;
  entry.counted.input += input;
  entry.counted.output += output;
  allocation.observe({ inputTokens: input, outputTokens: output });
}

/** True when `error` or one of its causes is an instance of `type`. */
function causedBy(error: unknown, type: abstract new (...args: never[]) => unknown): boolean {
  for (let e = error, depth = 0; e !== undefined && depth < 8; e = (e as { cause?: unknown })?.cause, depth++) {
    if (isInstance(e, type)) return true;
  }
  return false;
}

/** The host's own audit-store calls run as host infrastructure (interior calls are refused by the store). */
function hostInfrastructureStore(store: PerimeterAuditStore): PerimeterAuditStore {
  return Object.freeze({
    durable: store.durable,
    recordAttempt: (a: Parameters<PerimeterAuditStore['recordAttempt']>[0]) => asHostInfrastructure('perimeter-audit', () => store.recordAttempt(a)),
    recordCompletion: (c: Parameters<PerimeterAuditStore['recordCompletion']>[0]) => asHostInfrastructure('perimeter-audit', () => store.recordCompletion(c)),
    get: (id: string) => store.get(id),
    list: (filter?: Parameters<PerimeterAuditStore['list']>[0]) => store.list(filter),
    close: () => store.close(),
  });
}

// An authority class: no method of it can be replaced (a leaked path to the prototype cannot patch `append`, say).
Object.freeze(RunHost.prototype);

/** Whether the operator's (live, editable) request type admits `value`; only read after the gateway's copy refused it. */
function operatorTypeAdmits(cap: Capability, value: unknown): boolean {
  try {
    return cap.request.safeParse(value).success === true;
  } catch {
    return false;
  }
}

/**
 * The execution a tool's context names, read as the caller's code (its getters run under its mark), or a
 * description of why it cannot be read. Undefined when no context, or one naming none, was handed in.
 */
function claimedExecution(ctx: unknown, caller: InteriorMark | undefined): string | undefined {
  if (ctx === undefined || ctx === null) return undefined;
  const read = (): unknown => (ctx as { executionId?: unknown }).executionId;
  try {
    const value = caller ? reenterInterior(caller, read) : read();
    return value === undefined ? undefined : typeof value === 'string' ? value : `<${typeof value}>`;
  } catch {
    return '<unreadable>';
  }
}


/** How an interior mark names its code in an anomaly. */
const callerOf = (mark: InteriorMark): string => (mark.kind === 'expression' ? 'model expression' : 'generated code');
