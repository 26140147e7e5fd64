/** Errors of the harness loop Part. All extend `NighthawkError`, so `isNighthawkError` works across realms. */
// core has no index.ts yet; import the specific file.
import { NighthawkError } from '../../core/index.js';
import type { LoopState } from './states.js';

/**
 * Thrown by a `before_step` or `before_tool_call` subscriber to deny the step. The loop catches it: the
 * step records `hook_abort:<reason>`, ends with outcome `aborted` and is skipped, never retried (seed 004).
 */
export class HookAbort extends NighthawkError {
  declare readonly kind: 'hook-abort';
  readonly reason: string;
  constructor(options: { reason: string }) {
    super('hook-abort', `Hook aborted the step: ${options.reason}`);
    this.reason = options.reason;
  }
}

/** A state change outside the transition table. Raised before anything is mutated or emitted. */
export class IllegalTransitionError extends NighthawkError {
  declare readonly kind: 'illegal-transition';
  readonly from: LoopState;
  readonly to: LoopState;
  constructor(options: { from: LoopState; to: LoopState }) {
    const fix =
      options.from === 'awaiting_tool'
        ? ' Call resume(toolResult) with the result of the pending tool call first.'
        : options.from === 'done'
          ? ' The loop is done; create a new loop for more work.'
          : '';
    super('illegal-transition', `Illegal loop transition ${options.from} → ${options.to}.${fix}`);
    this.from = options.from;
    this.to = options.to;
  }
}

/** An invalid plan or budget given to the loop; raised by the constructor before any event. */
export class InvalidPlanError extends NighthawkError {
  declare readonly kind: 'invalid-plan';
  readonly stepId: string | null;
  readonly problem: string;
  constructor(options: { stepId: string | null; problem: string }) {
    super('invalid-plan', `Invalid loop plan${options.stepId === null ? '' : ` at step '${options.stepId}'`}: ${options.problem}`);
    this.stepId = options.stepId;
    this.problem = options.problem;
  }
}

/** A call the loop cannot accept in its current situation (re-entry from a hook, malformed tool result). */
export class LoopUsageError extends NighthawkError {
  declare readonly kind: 'loop-usage';
  readonly operation: 'start' | 'step' | 'resume' | 'setBudget' | 'hook' | 'subscribe';
  readonly problem: string;
  constructor(options: { operation: LoopUsageError['operation']; problem: string }) {
    super('loop-usage', `Loop ${options.operation}() refused: ${options.problem}`);
    this.operation = options.operation;
    this.problem = options.problem;
  }
}

/**
 * An event log that the loop could not have produced: a gap in sequence numbers, a transition outside the
 * table (then `cause` is the `IllegalTransitionError`), or an event that disagrees with the replayed state.
 */
export class ReplayDivergenceError extends NighthawkError {
  declare readonly kind: 'replay-divergence';
  /** Sequence number of the offending event, or null when the log as a whole is wrong (empty, truncated). */
  readonly seq: number | null;
  readonly detail: string;
  constructor(options: { seq: number | null; detail: string; cause?: unknown }) {
    super('replay-divergence', `Loop replay diverged${options.seq === null ? '' : ` at event ${options.seq}`}: ${options.detail}`, {
      cause: options.cause,
    });
    this.seq = options.seq;
    this.detail = options.detail;
  }
}
