export { HarnessLoop, type HarnessLoopOptions } from './harness-loop.js';
export { replayLoop } from './replay.js';
export { LoopState, LOOP_TRANSITIONS, canTransition, isLoopState } from './states.js';
export { HookAbort, IllegalTransitionError, InvalidPlanError, LoopUsageError, ReplayDivergenceError } from './errors.js';
export {
  LoopStepOutcome,
  loopEventSchema,
  type BudgetName,
  type HookName,
  type LoopEvent,
  type LoopEventKind,
  type LoopEventOf,
  type LoopEventPayloads,
} from './events.js';
export type { EventSubscriber, SubscriberFailure } from './event-log.js';
export type { GateDecision, HookContexts, HookSubscriber, HookSubscribers } from './hooks.js';
export type { UnserialisableValue } from './json.js';
export type { LoopDone, LoopOutcome, LoopPaused, LoopSnapshot, PullRequest, ToolResult } from './outcome.js';
export type { BudgetLimits, LoopStep, PlanStep, PlanStepRecord } from './plan.js';
