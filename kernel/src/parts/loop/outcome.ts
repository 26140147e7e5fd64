/** What `start`, `step` and `resume` hand back to the caller, and the loop state that replay must rebuild. */
import type { BudgetName } from './events.js';
import type { JsonValue } from './json.js';
import type { BudgetLimits } from './plan.js';
import type { LoopState } from './states.js';

/** The loop is waiting in AWAITING_TOOL: the caller runs the tool and passes its result to `resume`. */
export interface PullRequest {
  readonly kind: 'pull_request';
  readonly reason: 'tool_call';
  readonly state: 'awaiting_tool';
  readonly payload: {
    readonly stepId: string;
    readonly toolName: string;
    readonly toolArgs: JsonValue;
    /** The tool-call counter after this call was counted (1 for the first call). */
    readonly callNumber: number;
  };
}

/** The cursor moved past the last step. Denied or failed steps also count as passed: read the events for them. */
export interface LoopDone {
  readonly kind: 'done';
  readonly reason: 'goal_met';
}

/** A budget ran out. Raise it with `setBudget` and call `step()` to go on. */
export interface LoopPaused {
  readonly kind: 'paused';
  readonly reason: 'budget_exceeded';
  readonly budget: BudgetName;
}

export type LoopOutcome = PullRequest | LoopDone | LoopPaused;

/** The result of the tool a `PullRequest` asked for. */
export type ToolResult = { readonly kind: 'ok'; readonly value: JsonValue } | { readonly kind: 'error'; readonly error: string };

/** The loop's state as far as replay rebuilds it: equal for a live loop and for `replayLoop(loop.events)`. */
export interface LoopSnapshot {
  readonly state: LoopState;
  readonly cursor: number;
  readonly planLength: number;
  readonly toolCalls: number;
  readonly turns: number;
  readonly limits: BudgetLimits;
  /** The budget that caused the current pause; null unless the state is `paused`. */
  readonly pausedOn: BudgetName | null;
  /** Step id → error, for the steps that have one. */
  readonly stepErrors: Readonly<Record<string, string>>;
  /** Sequence number of the last event (0 before `start`). */
  readonly lastSeq: number;
}
