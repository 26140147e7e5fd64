/** Errors of runs, grants, capabilities, allocation and host seams. */
import { NighthawkError, describeError } from '../core/index.js';
import type { PerimeterClass } from './audit-store.js';

/** The run was refused at entry (for example: perimeter effects permitted but no audit store). */
export class RunRejectedError extends NighthawkError {
  readonly reason: 'missing-audit-store' | 'aggregate-accounting-not-accepted' | 'invalid-options';
  constructor(options: { reason: RunRejectedError['reason']; detail: string }) {
    super('run-rejected', `The run was refused before admission: ${options.detail}`);
    this.reason = options.reason;
  }
}

/** A nested scope asked for more authority than its submitter holds. */
export class GrantWideningError extends NighthawkError {
  readonly capabilities: readonly string[];
  readonly perimeterClasses: readonly PerimeterClass[];
  constructor(options: { capabilities: readonly string[]; perimeterClasses: readonly PerimeterClass[] }) {
    const parts = [
      options.capabilities.length ? `capabilities not held: ${options.capabilities.join(', ')}` : '',
      options.perimeterClasses.length ? `perimeter classes not permitted: ${options.perimeterClasses.join(', ')}` : '',
    ].filter(Boolean);
    super('grant-widening', `A nested scope cannot widen authority (${parts.join('; ')}). A run that needs more authority is a new run.`);
    this.capabilities = options.capabilities;
    this.perimeterClasses = options.perimeterClasses;
  }
}

export type CapabilityRefusalReason =
  | 'not-granted'
  | 'footprint-outside-policy'
  | 'invalid-request'
  | 'run-closed'
  | 'audit-store-failed'
  | 'other-run'
  /** Submitted from a dispatch branch a parent asked to terminate (RunContext.terminateBranch). */
  | 'branch-terminated';

/** A capability call refused by the host gateway before its body ran. */
export class CapabilityRefusedError extends NighthawkError {
  readonly capability: string;
  readonly reason: CapabilityRefusalReason;
  constructor(options: { capability: string; reason: CapabilityRefusalReason; detail: string; cause?: unknown }) {
    super('capability-refused', `Capability '${options.capability}' was refused (${options.reason}): ${options.detail}`, { cause: options.cause });
    this.capability = options.capability;
    this.reason = options.reason;
  }
}

export type AllocationResource = 'recursion-depth' | 'executor-steps' | 'cost' | 'natural-executions' | 'dispatches' | 'operations' | 'operations-per-response';

/** The run's opaque allocation refused a request. The affected write set is not committed. */
export class AllocationExhaustedError extends NighthawkError {
  readonly resource: AllocationResource;
  readonly runId: string;
  constructor(options: { resource: AllocationResource; runId: string }) {
    super('allocation_exhausted', `Run ${options.runId} exhausted its allocation (${options.resource}); the request was not admitted.`);
    this.resource = options.resource;
    this.runId = options.runId;
  }
}

export type NaturalExecutionFailure =
  | 'raised'
  | 'failed'
  | 'aborted'
  | 'allocation_exhausted'
  | 'mediation_bypass'
  | 'trace_anomaly'
  | 'terminated'
  /** A rejected perimeter effect (footprint outside the policy, or an unmediated direct effect) ended it. */
  | 'perimeter_refused'
  /** An application inspector missed its host deadline. */
  | 'inspection_failed'
  /** The application's step lifecycle (onStepFinished) threw: nothing was assigned (seed 000: terminal). */
  | 'notification_failed';

/**
 * Inside a run every Natural execution failure surfaces as this one class (seed 001). The error a
 * block raised is the cause; its type is kept as data in `requestedType`.
 */
export class NaturalExecutionError extends NighthawkError {
  readonly executionId: string;
  readonly stepId: string;
  readonly failure: NaturalExecutionFailure;
  readonly requestedType: string | undefined;
  constructor(options: { executionId: string; stepId: string; failure: NaturalExecutionFailure; requestedType?: string; cause: unknown }) {
    super('natural-execution', `Natural execution ${options.executionId} (${options.stepId}) ${options.failure}: ${describeError(options.cause)}`, {
      cause: options.cause,
    });
    this.executionId = options.executionId;
    this.stepId = options.stepId;
    this.failure = options.failure;
    this.requestedType = options.requestedType;
  }
}

/** A direct effect (file write, socket, process) by interior code outside a host gateway. Detective only. */
export class UnmediatedPerimeterEffectError extends NighthawkError {
  readonly effect: string;
  /** Where a refused network call during a model request would have connected, when it could be read. */
  readonly destination: string | undefined;
  /** `during: 'model-request'`: refused inside a model request's network-only allowance; `destination` for a network call. */
  constructor(options: { effect: string; during?: string; destination?: string }) {
    super(
      'unmediated_perimeter_effect',
      options.destination !== undefined
        ? `Effect '${options.effect}' to ${options.destination} during a model request was refused and recorded: a request reaches ` +
            "the network only at the origins its client declares. If the client's own call was refused, declare where it " +
            "connects in its ModelClient.networkOrigins (an origin such as 'https://api.openai.com', or '*' for any host)."
        : options.during === 'model-request'
          ? `Effect '${options.effect}' during a model request was refused and recorded: a model request admits network effects only.`
          : `Direct effect '${options.effect}' outside a host gateway was refused and recorded; use a granted capability. ` +
            '(This check is detective, not confinement.)',
    );
    this.effect = options.effect;
    this.destination = options.destination;
  }
}

/** The run was terminated by its host; pending calls receive this. */
export class RunTerminatedError extends NighthawkError {
  readonly runId: string;
  readonly ceased: boolean;
  constructor(options: { runId: string; ceased: boolean; reason: string }) {
    super('run-terminated', `Run ${options.runId} was terminated (${options.reason})${options.ceased ? '' : '; cessation is not established'}.`);
    this.runId = options.runId;
    this.ceased = options.ceased;
  }
}

/**
 * The composition returned (or threw) while interior branches were still active; its value is not
 * accepted. `ceased` tells whether the termination mechanism established their cessation: only then
 * is the run end recorded; otherwise the run stays open (no run end) until `finalize()` succeeds.
 */
export class ActiveBranchesError extends NighthawkError {
  readonly runId: string;
  readonly activeExecutions: readonly string[];
  readonly activeDispatches: readonly string[];
  readonly ceased: boolean;
  constructor(options: { runId: string; activeExecutions: readonly string[]; activeDispatches?: readonly string[]; ceased?: boolean; cause?: unknown }) {
    const count = options.activeExecutions.length + (options.activeDispatches?.length ?? 0);
    const ceased = options.ceased === true;
    super(
      'branches-active-at-run-end',
      `Run ${options.runId} reached its end with ${count} interior branch(es) still active; its value is not accepted. ` +
        (ceased ? 'The termination mechanism established their cessation and the run end is recorded. ' : 'Their cessation is not established, so the run has no run end yet (call finalize() once they have stopped). ') +
        'Join every branch (await every dispatched export and step) before returning.',
      { cause: options.cause },
    );
    this.runId = options.runId;
    this.activeExecutions = options.activeExecutions;
    this.activeDispatches = options.activeDispatches ?? [];
    this.ceased = ceased;
  }
}

export type BranchTerminationRefusal = 'unknown-node' | 'not-dispatch-node' | 'not-active' | 'not-descendant' | 'run-closed' | 'other-run';

/**
 * RunContext.terminateBranch refused the request before asking the termination mechanism: the id names no dispatch
 * node of this run, names a Natural execution, names a node that already ended, names a node that does not run under
 * the caller, or the run no longer admits it (ended or terminating), or the context belongs to another run.
 */
export class BranchTerminationRefusedError extends NighthawkError {
  readonly runId: string;
  readonly nodeId: string;
  readonly reason: BranchTerminationRefusal;
  constructor(options: { runId: string; nodeId: string; reason: BranchTerminationRefusal; detail: string }) {
    super('branch-termination-refused', `Termination of branch ${options.nodeId} in run ${options.runId} was refused (${options.reason}): ${options.detail}`);
    this.runId = options.runId;
    this.nodeId = options.nodeId;
    this.reason = options.reason;
  }
}

/** An application inspector did not decide within its host deadline: an inspection failure, terminal for the step. */
export class InspectorDeadlineError extends NighthawkError {
  readonly hook: 'inspectOperation' | 'inspectStepCommit';
  readonly deadlineMs: number;
  readonly executionId: string;
  constructor(options: { hook: InspectorDeadlineError['hook']; deadlineMs: number; executionId: string }) {
    super(
      'inspector-deadline',
      `Inspector ${options.hook} did not decide within its host deadline of ${options.deadlineMs} ms (execution ${options.executionId}); ` +
        'the step ended as an inspection failure. Make the inspector settle, or raise RunnerOptions.inspectorDeadlineMs.',
    );
    this.hook = options.hook;
    this.deadlineMs = options.deadlineMs;
    this.executionId = options.executionId;
  }
}
