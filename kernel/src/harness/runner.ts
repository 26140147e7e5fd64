/**
 * The Runner: the host entry point of the Harness. It admits a run once (grant, perimeter policy,
 * allocation, observation mode), records the run-entry event, runs the composition in the caller's
 * process and event loop, and records exactly one run-end event.
 */
import { abortWith, append, isArray, mapClear, mapEntryList, mapGet, mapKeyList, mapSet, objectFreeze, reflectApply } from './intrinsics.js';
import { AgentExecutor, currentInterior, currentState, interiorParentId, modelCodeRunning, newId, wallClockMs, run as coreRun, scope, type Oversight, type RequestAdmission, type StepExecutor } from '../core/index.js';
import { Allocation, DEFAULT_ALLOCATION, type AllocationLimits } from './allocation.js';
import type { PerimeterAuditStore, PerimeterClass } from './audit-store.js';
import { installEffectAudit } from './effect-audit.js';
import { attenuate, authorityFromGrant, type Authority, type Grant } from './grant.js';
import { captureAuditStore, captureConfinement, captureMethods, type CapturedAuditStore, type CapturedConfinement, type CapturedMethods } from './captured-methods.js';
import { Dispatcher, type DispatchOutcome } from './dispatch.js';
import { currentHostFrame, insideUntrustedRead, refuseInteriorControl, runInFrame } from './host-context.js';
import { HostIntegrityError } from './integrity-errors.js';
import { Ledger, appendAsHost, describeGenerated, type LedgerEvent, type LedgerFilter } from './ledger.js';
import { LedgerView } from './ledger-view.js';
import { intersectPolicies, perimeterPolicy } from './perimeter.js';
import { ActiveBranchesError, RunRejectedError, RunTerminatedError } from './run-errors.js';
import { terminateBranch } from './branch-termination.js';
import { RunHost, type ExecutorStepObservation } from './run-host.js';
import { AnomalyTally, droppedAnomalies } from './anomaly-tally.js';
import { decideOnLoadedBuiltins } from './realm-integrity.js';
import { cooperativeTermination, type ConfinementService, type TerminationService, type TerminationTarget } from './termination.js';

export interface RunnerOptions {
  /** The delegate step executor (an AgentExecutor, or a custom one). */
  readonly executor: StepExecutor;
  /** Irreversible effect classes the platform permits. Default: none. */
  readonly platformPolicy?: readonly PerimeterClass[];
  /** Required when the effective policy of a run permits any perimeter effect. */
  readonly perimeterAuditStore?: PerimeterAuditStore;
  /** The platform enforces the per-step bound itself for executors the host cannot observe. */
  readonly acceptsAggregateExecutorAccounting?: boolean;
  readonly termination?: TerminationService;
  /** External confinement; undefined means the in-process regime (confinement identity none). */
  readonly confinement?: ConfinementService;
  readonly allocation?: Partial<AllocationLimits>;
  /** A shared ledger (the Session keeps one for its whole life). */
  readonly ledger?: Ledger;
  /**
   * Host deadline for each application inspector decision (default 120 s). Missing it is an
   * inspection failure: terminal for the step and recorded.
   */
  readonly inspectorDeadlineMs?: number;
}

export interface RunOptions {
  readonly grant?: Grant;
  /** The composition's perimeter policy; it can only narrow the platform's. */
  readonly policy?: readonly PerimeterClass[];
  readonly allocation?: Partial<AllocationLimits>;
  /** Application inspectors; the host wraps them (a scope may not replace them). */
  readonly oversight?: Oversight;
  readonly signal?: AbortSignal;
  readonly runId?: string;
  /** A label for the ledger (for example the SessionFunction name). */
  readonly label?: string;
}

/** What a composition receives: ordinary calls into host-mediated seams, never the ledger itself. */
export interface RunContext {
  readonly runId: string;
  readonly signal: AbortSignal;
  readonly references: Readonly<Record<string, unknown>>;
  /** Calls a granted capability through the host gateway. */
  invoke(capability: string, request: unknown): Promise<unknown>;
  /** Runs `fn` with narrower authority; returning restores the enclosing authority. */
  attenuate<T>(request: { capabilities?: readonly string[]; policy?: readonly PerimeterClass[]; references?: readonly string[] }, fn: () => Promise<T>): Promise<T>;
  /** A read-only projection of this run's ledger so far. */
  history(filter?: Omit<LedgerFilter, 'runId'>): readonly LedgerEvent[];
  /**
   * The single host-owned dispatch: `proposal` must be an inert CodeProposal value (for example a
   * committed write binding). Validation, admission and guarded compilation happen before any of it runs.
   */
  dispatch(proposal: unknown): Promise<DispatchOutcome>;
  /** Records an Agent Part's own event (for example a loop event) in the run ledger, as evidence. */
  recordPartEvent(part: string, event: { readonly kind: string; readonly [key: string]: unknown }): void;
  /**
   * Requests forced termination of one active dispatch node that runs under the caller (the composition, or the
   * Natural execution whose code calls this) and of the active dispatch nodes and Natural executions under it,
   * through the Runner's `termination` service (a target with `scope: 'branch'`, `includesRoot: false`). The branch
   * is closed at once: the host's seams refuse whatever it submits from then on. Resolves true only when the
   * mechanism establishes cessation, after each affected execution and node has its one terminal event
   * (`terminated`); false when it does not (a `ceased: false` report, a throw, a malformed answer): then nothing
   * terminal is recorded for the branch, which stays closed, and what still unwinds records its own outcome.
   * Rejects with BranchTerminationRefusedError for an id that is no active dispatch node of this run or not a
   * descendant of the caller, or once the run has ended or is terminating; with HostIntegrityError (and a
   * `trace.anomaly`) when model code calls it. Forced termination rolls nothing back: a promise the parent holds
   * from the branch may never settle.
   */
  terminateBranch(nodeId: string, reason?: string): Promise<boolean>;
}

export interface RunHandle<T> {
  readonly runId: string;
  readonly result: Promise<T>;
  /**
   * Requests termination through the termination service. Resolves true only when cessation is
   * established (then the run end is recorded and `result` rejects with RunTerminatedError).
   */
  terminate(reason?: string): Promise<boolean>;
  /** Retries the private finalization after a termination without cessation. True once the run end is recorded. */
  finalize(): boolean;
}

export type Composition<T> = (context: RunContext) => Promise<T>;

/** Entries `Runner.anomalies` keeps; later ones are counted. */
export const LATE_ANOMALIES_KEPT = 10_000;

/** A refused attempt observed after its run ended (the run's ledger record is closed then). */
export interface LateAnomaly {
  readonly runId: string;
  readonly anomalyKind: string;
  readonly parentId: string | undefined;
  readonly detail: Readonly<Record<string, unknown>>;
  readonly at: number;
}

export class Runner {
  // The writer: only this Runner and its RunHosts append. Callers get the read-only view.
  readonly #ledger: Ledger;
  readonly #view: LedgerView;
  readonly #options: RunnerOptions;
  readonly #late: LateAnomaly[] = [];
  /** Which late anomalies are listed, per run, kind and parent, and where the record counting the rest sits. */
  readonly #lateTally = new AnomalyTally();
  readonly #lateCountAt = new Map<string, number>();
  /** Late anomalies only counted once the record was full, per run. */
  readonly #lateDropped = new Map<string, number>();
  /** The perimeter audit store's methods, read once here (captured-methods.ts). */
  readonly #auditStore: CapturedAuditStore | undefined;
  /** The executor's runStep, and how its steps are observed, read once here: the executor object stays reachable. */
  readonly #executor: CapturedMethods<StepExecutor>;
  readonly #observation: ExecutorStepObservation;
  /** Confinement and termination services, read once here like the executor. */
  readonly #confinement: CapturedConfinement | undefined;
  readonly #termination: CapturedMethods<TerminationService> | undefined;
  readonly #editChecks: readonly (readonly [string, () => readonly string[]])[];

  constructor(options: RunnerOptions) {
    if (!options?.executor || typeof options.executor.runStep !== 'function') throw new RunRejectedError({ reason: 'invalid-options', detail: 'Runner needs a step executor.' });
    // Policy by value: nothing the caller keeps a reference to changes what later runs are admitted with.
    this.#options = Object.freeze({
      ...options,
      ...(options.platformPolicy ? { platformPolicy: Object.freeze([...options.platformPolicy]) } : {}),
      ...(options.allocation ? { allocation: Object.freeze({ ...options.allocation }) } : {}),
    });
    this.#ledger = options.ledger ?? createRunLedger();
    this.#view = new LedgerView(this.#ledger);
    this.#auditStore = options.perimeterAuditStore ? captureAuditStore(options.perimeterAuditStore) : undefined;
    const e = options.executor;
    this.#executor = captureMethods(e, ['runStep'], 'The step executor');
    this.#observation = e instanceof AgentExecutor ? 'adapter' : (e as { admitsExecutorSteps?: unknown }).admitsExecutorSteps === true ? 'custom-admission' : 'aggregate';
    this.#confinement = options.confinement ? captureConfinement(options.confinement) : undefined;
    this.#termination = options.termination ? captureMethods(options.termination, ['terminate'], 'The termination service') : undefined;
    const ledger = this.#ledger;
    const checks: [string, () => readonly string[]][] = [
      ['executor_modified', this.#executor.modified],
      ['ledger_store_modified', () => ledger.storeModified()],
    ];
    if (this.#auditStore) checks.push(['audit_store_modified', this.#auditStore.modified]);
    if (this.#confinement) checks.push(['confinement_modified', this.#confinement.modified]);
    if (this.#termination) checks.push(['termination_modified', this.#termination.modified]);
    this.#editChecks = objectFreeze(checks);
  }

  /** A read-only view of this Runner's ledger (select, events, subscribe). */
  get ledger(): LedgerView {
    return this.#view;
  }

  /**
   * Adds to the late record as a run adds to its ledger (AnomalyTally): those not listed are counted in one record
   * per run, kind and parent, replaced as it grows. Bounded like the Session's record: past LATE_ANOMALIES_KEPT
   * entries a new one is only counted, per run (`anomalies_dropped`).
   */
  #noteLate(runId: string, anomalyKind: string, detail: Readonly<Record<string, unknown>>, parentId: string | undefined): void {
    const key = `${runId}\0${anomalyKind}\0${parentId ?? ''}`;
    const full = this.#late.length >= LATE_ANOMALIES_KEPT;
    const at = mapGet(this.#lateCountAt, key);
    if (full && at === undefined) return this.#dropLate(runId);
    if (this.#lateTally.note(key, detail)) {
      if (full) return this.#dropLate(runId);
      append(this.#late, objectFreeze({ runId, anomalyKind, parentId, detail: objectFreeze({ ...detail }), at: wallClockMs() }));
      return;
    }
    const { unlisted, listed } = this.#lateTally.countOf(key);
    const count = objectFreeze({ runId, anomalyKind, parentId, detail: objectFreeze({ repeated: unlisted, listed }), at: wallClockMs() });
    if (at === undefined) {
      mapSet(this.#lateCountAt, key, this.#late.length);
      append(this.#late, count);
    } else this.#late[at] = count;
  }

  #dropLate(runId: string): void {
    mapSet(this.#lateDropped, runId, (mapGet(this.#lateDropped, runId) ?? 0) + 1);
  }

  /** Refused attempts observed after their run ended, oldest first (a frozen copy), and what was only counted. */
  get anomalies(): readonly LateAnomaly[] {
    const out = this.#late.slice();
    const dropped = mapEntryList(this.#lateDropped);
    for (let i = 0; i < dropped.length; i++) append(out, droppedAnomalies('runner', dropped[i]![1], dropped[i]![0]) as LateAnomaly);
    return Object.freeze(out);
  }

  /** How executor steps of this runner's executor are observed (recorded at every run entry). */
  get observation(): ExecutorStepObservation {
    return this.#observation;
  }

  /**
   * Runs a composition to completion and returns its value. An entry rejection (RunRejectedError)
   * rejects the returned promise, as a SessionFunction call does: callers handle one failure style.
   */
  run<T>(composition: Composition<T>, options: RunOptions = {}): Promise<T> {
    let handle: RunHandle<T>;
    try {
      handle = this.start(composition, options);
    } catch (error) {
      return Promise.reject(error);
    }
    return handle.result;
  }

  /** Starts a run; the handle can terminate it. Entry checks throw synchronously, before admission. */
  start<T>(composition: Composition<T>, options: RunOptions = {}): RunHandle<T> {
    const outer = currentHostFrame();
    if (outer) {
      // A run's interior may not admit a new run: it would hold authority admitted from inside.
      outer.host.recordAnomaly('nested_run_refused', { label: options.label ?? null }, outer.submitterId);
      throw new HostIntegrityError({ attempt: 'nested-run', detail: 'a run cannot be started from inside a run; use the enclosing run (ctx.attenuate narrows it)' });
    }
    const platform = perimeterPolicy(this.#options.platformPolicy ?? []);
    const effective = options.policy ? intersectPolicies(platform, perimeterPolicy(options.policy)) : platform;
    if (effective.size > 0 && !this.#options.perimeterAuditStore) {
      throw new RunRejectedError({ reason: 'missing-audit-store', detail: `the effective policy permits ${[...effective].join(', ')} but no perimeterAuditStore is configured` });
    }
    const observation = this.observation;
    if (observation === 'aggregate' && !this.#options.acceptsAggregateExecutorAccounting) {
      throw new RunRejectedError({ reason: 'aggregate-accounting-not-accepted', detail: 'the executor does not admit its steps and the platform has not set acceptsAggregateExecutorAccounting' });
    }
    const authority = authorityFromGrant(options.grant ?? {}, effective);
    const runId = options.runId ?? newId('run_');
    const allocation = new Allocation(runId, runAllocation(this.#options.allocation, options.allocation));
    const deadline = this.#options.inspectorDeadlineMs;
    if (deadline !== undefined && !(Number.isFinite(deadline) && deadline > 0)) throw new RunRejectedError({ reason: 'invalid-options', detail: `inspectorDeadlineMs must be a positive number of milliseconds (got ${String(deadline)})` });
    const host = new RunHost({
      runId,
      ledger: this.#ledger,
      allocation,
      authority,
      delegate: this.#executor,
      observation,
      auditStore: this.#auditStore,
      editChecks: this.#editChecks,
      appOversight: oversightByValue(options.oversight),
      inspectorDeadlineMs: deadline,
      lateAnomaly: (anomalyKind, detail, parentId) => this.#noteLate(runId, anomalyKind, detail, parentId),
    });
    const dispatcher = new Dispatcher(host, this.#confinement?.methods);
    host.dispatcher = dispatcher;
    installEffectAudit();
    appendAsHost(this.#ledger, runId, {
      kind: 'run.entry',
      subjectId: runId,
      parentId: undefined,
      data: {
        label: options.label,
        grant: { capabilities: [...authority.capabilities.values()].map((c) => ({ name: c.name, footprint: c.footprint })), references: Object.keys(authority.references) },
        platformPolicy: [...platform],
        effectivePolicy: [...effective],
        allocation: allocation.describe(),
        executorStepObservation: observation,
        confinementIdentity: this.#confinement?.methods.identity ?? null,
        auditStoreDurable: this.#auditStore?.methods.durable ?? null,
      },
    });
    const forwardAbort = () => abortWith(host.abort, options.signal!.reason);
    if (options.signal?.aborted) forwardAbort();
    else options.signal?.addEventListener('abort', forwardAbort, { once: true });
    const context: RunContext = {
      runId,
      signal: host.abort.signal,
      references: authority.references,
      invoke: (name, request) => host.invokeCapability(name, request),
      attenuate: async (request, fn) => {
        const frame = currentHostFrame();
        const current: Authority = frame?.host === host ? frame.authority : authority;
        const narrowed = attenuate(current, attenuationByValue(request));
        const frameOut = { host, authority: narrowed, allowance: undefined, submitterId: frame?.submitterId ?? runId, depth: frame?.depth ?? 0 };
        // Natural executions inside see only the narrowed tools and references.
        return runInFrame(frameOut, () =>
          scope({ replaceTools: host.toolsFor(narrowed), replaceTaskReferences: { ...narrowed.references } }, () => fn()),
        );
      },
      history: (filter) => this.#ledger.select({ ...filter, runId }),
      dispatch: (proposal) => dispatcher.dispatch(proposal),
      recordPartEvent: (part, event) => {
        if (host.state !== 'running') return;
        const frame = currentHostFrame();
        // A part's events are the operator's record: model code handed the run context (as a reference) may not write them.
        const mark = currentInterior();
        if (mark !== undefined) {
          host.recordAnomaly('part_event_from_model_code', { part: String(part) }, mark ? interiorParentId(mark) : frame?.submitterId);
          throw new HostIntegrityError({ attempt: 'ledger-append', detail: 'RunContext.recordPartEvent writes the operator\'s record of a part; model code may not call it' });
        }
        host.append({ kind: 'part.event', subjectId: `${part}:${event.kind}`, parentId: frame?.host === host ? frame.submitterId : runId, status: event.kind, data: { part, event } });
      },
      // The same captured mechanism the run's own termination asks (read here: the composition may call this before
      // `termination` below is initialised).
      terminateBranch: (nodeId, reason) => terminateBranch(host, (target) => askTermination(host, this.#termination?.methods ?? cooperativeTermination, target), nodeId, reason),
    };
    let bodySettled = false;
    const body = runInFrame({ host, authority, allowance: undefined, submitterId: runId, depth: 0 }, () =>
      coreRun(host.executor, async () => composition(context), {
        runId,
        oversight: host.oversight,
        taskReferences: { ...authority.references },
        tools: host.toolsFor(authority),
        deniedOutcomes: ['return'],
        lockExecutor: true,
        signal: host.abort.signal,
      }),
    );
    let finishTerminated: ((error: RunTerminatedError) => void) | undefined;
    const terminated = new Promise<never>((_resolve, reject) => (finishTerminated = reject));
    terminated.catch(() => undefined);
    const termination = this.#termination?.methods ?? cooperativeTermination;
    /** The run end a later cessation records: the original failure class is preserved. */
    let pendingEnd: { status: 'failed' | 'terminated'; data: Record<string, unknown> } = { status: 'terminated', data: { reason: 'terminated by the host' } };
    /** The host's termination request while its mechanism has not answered. */
    let asking: Promise<{ ceased: boolean }> | undefined;
    const settle = async (): Promise<T> => {
      let outcome: { ok: true; value: T } | { ok: false; error: unknown };
      try {
        outcome = { ok: true, value: await body };
      } catch (error) {
        outcome = { ok: false, error };
      }
      bodySettled = true;
      // A termination the host asked for and whose mechanism is still working: its answer, not the body's
      // timing, decides what the caller is told (a cessation it establishes rejects `terminated` first).
      if (host.state === 'terminating' && asking) await asking;
      if (host.state === 'terminating') throw new RunTerminatedError({ runId, ceased: false, reason: 'terminated without established cessation' });
      if (host.state !== 'running') throw new RunTerminatedError({ runId, ceased: true, reason: 'terminated' });
      const activeExecutions = mapKeyList(host.inflight);
      const activeDispatches = mapKeyList(host.activeDispatches);
      if (activeExecutions.length + activeDispatches.length > 0) {
        // Seed 001: branches active at the run-end seam are a trace anomaly; the value is never accepted
        // and the run ends only once the termination mechanism establishes their cessation.
        host.recordAnomaly('branches_active_at_run_end', { activeExecutions, activeDispatches });
        host.state = 'terminating';
        abortWith(host.abort, new RunTerminatedError({ runId, ceased: false, reason: 'interior branches were active at run end' }));
        const report = await askTermination(host, termination, { runId, branches: host.activeBranches(), includesRoot: false });
        const error = new ActiveBranchesError({ runId, activeExecutions, activeDispatches, ceased: report.ceased === true, cause: outcome.ok ? undefined : outcome.error });
        pendingEnd = { status: 'failed', data: { error, reason: 'interior branches were active at run end' } };
        if (report.ceased === true && host.state === 'terminating') this.#recordCessation(host, pendingEnd);
        throw error;
      }
      if (!outcome.ok) {
        this.#endRun(host, 'failed', { error: outcome.error });
        throw outcome.error;
      }
      this.#endRun(host, 'completed', { result: outcome.value });
      return outcome.value;
    };
    const result = Promise.race([settle(), terminated]);
    // A caller's long-lived signal must not keep every finished run reachable.
    void result.then(
      () => options.signal?.removeEventListener('abort', forwardAbort),
      () => options.signal?.removeEventListener('abort', forwardAbort),
    );
    return {
      runId,
      result,
      terminate: async (reason = 'terminated by the host') => {
        refuseRunControl('RunHandle.terminate');
        if (host.ended) return host.state === 'terminated';
        if (host.state === 'running') {
          host.state = 'terminating';
          pendingEnd = { status: 'terminated', data: { reason } };
          abortWith(host.abort, new RunTerminatedError({ runId, ceased: false, reason }));
        }
        const request = askTermination(host, termination, { runId, branches: host.activeBranches(), includesRoot: !bodySettled });
        asking = request; // never rejects
        const report = await request;
        if (asking === request) asking = undefined;
        if (report.ceased !== true) return false;
        if (!host.ended) this.#recordCessation(host, pendingEnd);
        finishTerminated?.(new RunTerminatedError({ runId, ceased: true, reason }));
        return true;
      },
      finalize: () => {
        refuseRunControl('RunHandle.finalize');
        if (host.ended) return true;
        if (host.state !== 'terminating' || !bodySettled || host.activeBranches().length > 0) return false;
        this.#recordCessation(host, pendingEnd);
        return true;
      },
    };
  }

  /**
   * Cessation is established: every affected Natural execution and dispatch node gets its one terminal
   * event, then the run end; nothing of the run is recorded after it.
   */
  #recordCessation(host: RunHost, end: { status: 'failed' | 'terminated'; data: Record<string, unknown> }): void {
    const reason = typeof end.data.reason === 'string' ? end.data.reason : 'terminated';
    // Captured iteration, as in activeBranches: a live branch may have replaced the Map iterator.
    const executions = mapEntryList(host.inflight);
    for (let i = 0; i < executions.length; i++) {
      const executionId = executions[i]![0];
      const parentId = executions[i]![1];
      if (!this.#ledger.hasTerminal('execution.end', executionId)) {
        host.append({ kind: 'execution.end', subjectId: executionId, parentId, status: 'terminated', data: { reason } });
      }
    }
    mapClear(host.inflight);
    const nodes = mapKeyList(host.activeDispatches);
    for (let i = 0; i < nodes.length; i++) host.endDispatch(nodes[i]!, 'terminated', { reason });
    this.#endRun(host, end.status, end.data);
  }

  /**
   * The run's terminal event. Before it: edits of the operator objects the run called into (captured at
   * construction), and the count of each kind of anomaly the run did not list.
   */
  #endRun(host: RunHost, status: 'completed' | 'failed' | 'terminated', data: Record<string, unknown>): void {
    host.noteObjectEdits();
    host.recordRepeatedAnomalies();
    host.state = status === 'terminated' ? 'terminated' : 'ended';
    appendAsHost(this.#ledger, host.runId, { kind: 'run.end', subjectId: host.runId, status, data });
  }
}

/**
 * Ending a run is the operator's control, as ending one of its branches is (branch-termination.ts): model code that
 * reached the handle (kept where a granted reference leads) would ask the termination mechanism and write the run's
 * end with a reason of its own. Decided by the interior mark (model code's body, and what it schedules, carry it),
 * not by the job's taint: operator code that read a model value earlier in the same job must still stop its run.
 */
function refuseRunControl(control: string): void {
  if (!modelCodeRunning() && !insideUntrustedRead()) return;
  refuseInteriorControl(control);
  throw new HostIntegrityError({ attempt: 'terminate-run-from-model-code', detail: `${control} is an operator control of the run; model code and operation bodies may not end or finalize it` });
}

/**
 * The run's limits: the platform's allocation (what the Runner set, else the default) is a ceiling a run can only
 * narrow (seed 002: the platform fixes the allocation at run entry; a run that needs more is a run of a Runner
 * configured for it). A limit with no default (maxNaturalExecutions, maxDispatches) a run may set. A request
 * beyond the ceiling is refused, not clamped, so the caller learns its run would not get what it asked.
 */
function runAllocation(platform: Partial<AllocationLimits> | undefined, requested: Partial<AllocationLimits> | undefined): Partial<AllocationLimits> {
  if (!requested) return { ...platform };
  const out: Record<string, unknown> = { ...platform };
  for (const [key, value] of Object.entries(requested)) {
    if (value === undefined) continue;
    const ceiling = platform?.[key as keyof AllocationLimits] ?? DEFAULT_ALLOCATION[key as keyof AllocationLimits];
    if (key === 'costOf') {
      if (ceiling !== undefined && value !== ceiling) throw new RunRejectedError({ reason: 'invalid-options', detail: "allocation.costOf is the platform's: the Runner set one, and a run may not count its cost another way" });
    } else if (typeof ceiling === 'number' && !(typeof value === 'number' && value <= ceiling)) {
      throw new RunRejectedError({ reason: 'invalid-options', detail: `allocation.${key} ${String(value)} exceeds the platform's ${ceiling}: a run can only narrow the Runner's allocation` });
    }
    out[key] = value;
  }
  return out as Partial<AllocationLimits>;
}

/**
 * A mechanism that throws or answers malformed establishes nothing. It is asked on the built-ins the host loaded
 * with, and its answer counts only if none changed while it worked: a branch it is asked about is still running
 * and may have left a callback (a listener of built-ins on a timeout signal) that makes its lookups lie.
 */
async function askTermination(host: RunHost, service: TerminationService, target: TerminationTarget): Promise<{ ceased: boolean }> {
  // The service asked is the one the Runner captured; an edit of the operator's object since is recorded now.
  host.noteObjectEdits();
  try {
    const report = await decideOnLoadedBuiltins(host, host.runId, () => service.terminate(target), () => undefined);
    return { ceased: report?.ceased === true };
  } catch {
    return { ceased: false };
  }
}

/** The ledger a Runner or Session creates for itself (generated callables recorded by definition identity). */
export function createRunLedger(): Ledger {
  return new Ledger({ describeCallable: describeGenerated });
}

/** A frozen copy of the application's hooks, taken once at run entry. */
const OVERSIGHT_HOOKS = ['inspectOperation', 'inspectStepCommit', 'onOperationFinished', 'onStepFinished', 'translateStepFailure'] as const;

/**
 * Oversight by value: each hook read once, now, and called with the operator's object as `this` (a class keeps its
 * state there), so replacing a hook on that object later changes nothing for runs admitted with it.
 */
export function oversightByValue(oversight: Oversight | undefined): Oversight | undefined {
  if (!oversight) return undefined;
  const out: Record<string, unknown> = {};
  for (let i = 0; i < OVERSIGHT_HOOKS.length; i++) {
    const name = OVERSIGHT_HOOKS[i]!;
    const hook: unknown = oversight[name];
    if (typeof hook === 'function') out[name] = (...args: unknown[]) => reflectApply(hook as (...a: unknown[]) => unknown, oversight, args);
    else if (hook !== undefined) out[name] = hook; // not a function: the core reports the broken contract when it is used
  }
  return Object.freeze(out) as Oversight;
}

/**
 * For custom executors that declare `admitsExecutorSteps = true`: wrap each provider request in
 * `admission.request(send, networkOrigins)` (admits one step and runs the request as host infrastructure, with the
 * network admitted at `networkOrigins` only: none when omitted, any host with ANY_NETWORK_ORIGIN), then call
 * `admission.observe(usage)`. `admit()` alone accounts without any effect permission.
 */
export function currentExecutorStepAdmission(): {
  request<T>(send: () => Promise<T>, networkOrigins?: readonly string[]): Promise<T>;
  admit(): void;
  observe(usage: { inputTokens?: number; outputTokens?: number }): void;
} {
  // Model code (an operation body, generated code) never gets it, whether or not one is in scope here.
  if (modelCodeRunning()) {
    refuseInteriorControl('currentExecutorStepAdmission');
    throw new HostIntegrityError({ attempt: 'admission-from-operation', detail: 'the executor-step admission serves the step executor only; model code and operation bodies may not use it' });
  }
  const state = currentState();
  const admission: RequestAdmission | undefined = state?.requestAdmission;
  const ctx = state?.stepContext;
  if (!admission || !ctx) throw new RunRejectedError({ reason: 'invalid-options', detail: 'no executor-step admission is active here (only inside a step of a run whose executor admits its steps)' });
  const info = { stepId: ctx.stepId, executionId: ctx.executionId, requestIndex: 0 };
  return {
    // A handle that leaked into an operation body is refused by the host's own admission (admit, request, observe).
    async request<T>(send: () => Promise<T>, networkOrigins?: readonly string[]): Promise<T> {
      await admission.admit(info);
      // An admission without a request seam (a plain core run's) grants nothing: `send` runs as it is.
      return admission.request ? admission.request(send, networkOrigins) : send();
    },
    admit: () => void admission.admit(info),
    observe: (usage) => admission.observe(usage),
  };
}

export { describeGenerated };

// An authority class: no method of it can be replaced (a leaked path to the prototype cannot patch `append`, say).
Object.freeze(Runner.prototype);

/**
 * An attenuation request as plain data, each field and entry read once: `attenuate` reads a list more than once (to
 * check it, then to build the narrowed authority), and a getter answering differently each time must not make the
 * two disagree. Anything but an array of names is refused by `attenuate` as before.
 */
function attenuationByValue(request: AttenuationRequest): AttenuationRequest {
  const copy = (list: unknown): readonly string[] | undefined => {
    if (list === undefined) return undefined;
    if (!isArray(list)) throw new TypeError('attenuate() takes arrays of names (capabilities, policy, references).');
    const out: string[] = [];
    const n = (list as unknown[]).length;
    for (let i = 0; i < n; i++) append(out, (list as unknown[])[i] as string);
    return objectFreeze(out);
  };
  const capabilities = copy(request.capabilities);
  const policy = copy(request.policy) as readonly PerimeterClass[] | undefined;
  const references = copy(request.references);
  return objectFreeze({ ...(capabilities ? { capabilities } : {}), ...(policy ? { policy } : {}), ...(references ? { references } : {}) });
}

type AttenuationRequest = Parameters<typeof attenuate>[1];
