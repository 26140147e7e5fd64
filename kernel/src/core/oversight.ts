/**
 * Oversight hooks and decisions (seed 000). Decisions are returned values, never exceptions.
 * Anything an inspector returns is validated here; a throw or an invalid value fails closed.
 */
import type { OperationFinished, OperationRequest } from './operation.js';
import type { StepOutcome, StepCommit, StepFinished } from './step.js';

export interface Accept {
  readonly kind: 'accept';
}
export interface RejectOperation {
  readonly kind: 'reject-operation';
  readonly reason: string;
  readonly guidance?: string | undefined;
}
export interface AbortStep {
  readonly kind: 'abort-step';
  readonly reason: string;
}
export interface Rewrite {
  readonly kind: 'rewrite';
  readonly outcome?: StepOutcome | undefined;
  readonly bindings?: Readonly<Record<string, unknown>> | undefined;
  readonly reason?: string | undefined;
}

export type OperationDecision = Accept | RejectOperation | AbortStep;
export type StepCommitDecision = Accept | Rewrite | AbortStep;

type MaybePromise<T> = T | Promise<T>;

/**
 * Host oversight for Natural steps. Inspectors run after argument validation and before the
 * operation body; notifications run after the fact. Any of them may be sync or async.
 */
export interface Oversight {
  readonly inspectOperation?: (request: OperationRequest) => MaybePromise<OperationDecision>;
  readonly inspectStepCommit?: (commit: StepCommit) => MaybePromise<StepCommitDecision>;
  /** Delivery of each operation fact. A throw ends the step with OperationDeliveryError. */
  readonly onOperationFinished?: (finished: OperationFinished) => MaybePromise<void>;
  /** Step lifecycle: receives the terminal record of every step, after commit. */
  readonly onStepFinished?: (finished: StepFinished) => MaybePromise<void>;
  /**
   * Host seam: maps any failure of a step (after its terminal record was delivered) to the error
   * the caller receives, e.g. the Harness's NaturalExecutionError chained to the original.
   */
  readonly translateStepFailure?: (error: unknown, finished: StepFinished) => unknown;
}

const ACCEPT: Accept = Object.freeze({ kind: 'accept' });

/** Let the operation run (or the commit proceed unchanged). */
export function accept(): Accept {
  return ACCEPT;
}

/** Refuse one operation; the model sees `reason` (required) and `guidance` and may choose again. */
export function rejectOperation(reason: string, guidance?: string): RejectOperation {
  return Object.freeze({ kind: 'reject-operation', reason, guidance });
}

/** End the current step. Success cannot replace the stop. */
export function abortStep(reason: string): AbortStep {
  return Object.freeze({ kind: 'abort-step', reason });
}

/** Replace the validated outcome and/or the whole binding map before commit. */
export function rewrite(change: { outcome?: StepOutcome; bindings?: Record<string, unknown>; reason?: string }): Rewrite {
  if (change.outcome === undefined && change.bindings === undefined) {
    throw new TypeError('rewrite() must change the outcome or the bindings.');
  }
  return Object.freeze({ kind: 'rewrite', ...change });
}

function nonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.trim().length > 0;
}

/** Returns the decision if it is a valid OperationDecision, otherwise a description of what is wrong. */
export function checkOperationDecision(value: unknown): OperationDecision | string {
  if (typeof value !== 'object' || value === null) return `expected a decision object, got ${describeValue(value)}`;
  const d = value as Record<string, unknown>;
  switch (d.kind) {
    case 'accept':
      return value as Accept;
    case 'reject-operation':
      if (!nonEmptyString(d.reason)) return 'RejectOperation needs a non-empty reason';
      if (d.guidance !== undefined && typeof d.guidance !== 'string') return 'RejectOperation guidance must be a string';
      return value as RejectOperation;
    case 'abort-step':
      if (!nonEmptyString(d.reason)) return 'AbortStep needs a non-empty reason';
      return value as AbortStep;
    default:
      return `'${String(d.kind)}' is not an operation decision (accept, reject-operation or abort-step)`;
  }
}

/** Returns the decision if it is a valid StepCommitDecision, otherwise a description of what is wrong. */
export function checkStepCommitDecision(value: unknown): StepCommitDecision | string {
  if (typeof value !== 'object' || value === null) return `expected a decision object, got ${describeValue(value)}`;
  const d = value as Record<string, unknown>;
  switch (d.kind) {
    case 'accept':
      return value as Accept;
    case 'abort-step':
      if (!nonEmptyString(d.reason)) return 'AbortStep needs a non-empty reason';
      return value as AbortStep;
    case 'rewrite':
      if (d.outcome === undefined && d.bindings === undefined) return 'Rewrite must change the outcome or the bindings';
      if (d.bindings !== undefined && (typeof d.bindings !== 'object' || d.bindings === null)) return 'Rewrite bindings must be an object';
      return value as Rewrite;
    default:
      return `'${String(d.kind)}' is not a step-commit decision (accept, rewrite or abort-step)`;
  }
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return Array.isArray(value) ? 'an array' : 'an object';
  return typeof value;
}
