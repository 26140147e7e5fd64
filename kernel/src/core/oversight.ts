/**
 * Oversight hooks and decisions (seed 000). Decisions are returned values, never exceptions.
 * Anything an inspector returns is validated here; a throw or an invalid value fails closed.
 */
import { isProxy } from 'node:util/types';
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
  // Seed 000: reasons are nonempty strings, guidance an optional string. Refused here, where the mistake is made
  // (an inspector returning one anyway is an invalid decision: terminal).
  if (!nonEmptyString(reason)) throw new TypeError('rejectOperation(reason, guidance?) needs a nonempty reason string: the model is told why its operation was refused.');
  if (guidance !== undefined && typeof guidance !== 'string') throw new TypeError('rejectOperation(reason, guidance?): guidance must be a string when given.');
  return Object.freeze({ kind: 'reject-operation', reason, guidance });
}

/** End the current step. Success cannot replace the stop. */
export function abortStep(reason: string): AbortStep {
  if (!nonEmptyString(reason)) throw new TypeError('abortStep(reason) needs a nonempty reason string.');
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

/**
 * Reads the named fields of an inspector's return value exactly once, as own data properties, into
 * a host-owned record. A Proxy or an accessor could answer differently on each read (for example
 * `reject-operation` to validation and `accept` to the branch that runs the body), so both fail
 * closed; inherited fields do not count.
 */
function readOnce(value: object, fields: readonly string[]): Record<string, unknown> | string {
  if (isProxy(value)) return 'a Proxy is not a decision; return the value of accept(), rejectOperation(), abortStep() or rewrite()';
  const out: Record<string, unknown> = {};
  for (const name of fields) {
    const descriptor = Object.getOwnPropertyDescriptor(value, name);
    if (descriptor === undefined) continue;
    if (!('value' in descriptor)) return `decision field '${name}' is an accessor; decisions must be plain data`;
    out[name] = descriptor.value;
  }
  return out;
}

/** A plain frozen copy of an object's own data properties, read once (rewrite bindings and outcomes). */
function plainCopy(value: object, what: string): Readonly<Record<string, unknown>> | string {
  if (isProxy(value)) return `${what} is a Proxy; pass a plain object`;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key)!;
    if (!('value' in descriptor)) return `${what} field '${key}' is an accessor; pass plain data`;
    out[key] = descriptor.value;
  }
  return Object.freeze(out);
}

/** Returns a host-owned copy of a valid OperationDecision, otherwise a description of what is wrong. */
export function checkOperationDecision(value: unknown): OperationDecision | string {
  if (typeof value !== 'object' || value === null) return `expected a decision object, got ${describeValue(value)}`;
  const d = readOnce(value, ['kind', 'reason', 'guidance']);
  if (typeof d === 'string') return d;
  switch (d.kind) {
    case 'accept':
      return ACCEPT;
    case 'reject-operation':
      if (!nonEmptyString(d.reason)) return 'RejectOperation needs a non-empty reason';
      if (d.guidance !== undefined && typeof d.guidance !== 'string') return 'RejectOperation guidance must be a string';
      return Object.freeze({ kind: 'reject-operation', reason: d.reason, guidance: d.guidance as string | undefined });
    case 'abort-step':
      if (!nonEmptyString(d.reason)) return 'AbortStep needs a non-empty reason';
      return Object.freeze({ kind: 'abort-step', reason: d.reason });
    default:
      return `'${String(d.kind)}' is not an operation decision (accept, reject-operation or abort-step)`;
  }
}

/** Returns a host-owned copy of a valid StepCommitDecision, otherwise a description of what is wrong. */
export function checkStepCommitDecision(value: unknown): StepCommitDecision | string {
  if (typeof value !== 'object' || value === null) return `expected a decision object, got ${describeValue(value)}`;
  const d = readOnce(value, ['kind', 'reason', 'outcome', 'bindings']);
  if (typeof d === 'string') return d;
  switch (d.kind) {
    case 'accept':
      return ACCEPT;
    case 'abort-step':
      if (!nonEmptyString(d.reason)) return 'AbortStep needs a non-empty reason';
      return Object.freeze({ kind: 'abort-step', reason: d.reason });
    case 'rewrite': {
      if (d.outcome === undefined && d.bindings === undefined) return 'Rewrite must change the outcome or the bindings';
      if (d.bindings !== undefined && (typeof d.bindings !== 'object' || d.bindings === null)) return 'Rewrite bindings must be an object';
      if (d.outcome !== undefined && (typeof d.outcome !== 'object' || d.outcome === null)) return 'Rewrite outcome must be an object';
      const bindings = d.bindings === undefined ? undefined : plainCopy(d.bindings as object, 'Rewrite bindings');
      if (typeof bindings === 'string') return bindings;
      const outcome = d.outcome === undefined ? undefined : plainCopy(d.outcome as object, 'Rewrite outcome');
      if (typeof outcome === 'string') return outcome;
      return Object.freeze({
        kind: 'rewrite',
        outcome: outcome as StepOutcome | undefined,
        bindings,
        reason: typeof d.reason === 'string' ? d.reason : undefined,
      });
    }
    default:
      return `'${String(d.kind)}' is not a step-commit decision (accept, rewrite or abort-step)`;
  }
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return Array.isArray(value) ? 'an array' : 'an object';
  return typeof value;
}
