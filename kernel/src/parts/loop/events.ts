/**
 * Loop events: the observational record (seed 004: "events only record"). Every event has a sequence number
 * (1, 2, 3 … without gaps) and a JSON payload, so the log can be stored, shipped to a run ledger and replayed.
 */
import { z } from 'zod';
import type { JsonValue } from './json.js';
import type { BudgetLimits, PlanStepRecord } from './plan.js';
import type { LoopState } from './states.js';

/** How a step ended. `awaiting_tool` closes a step whose tool call went to the caller. */
export const LoopStepOutcome = {
  COMPLETED: 'completed',
  AWAITING_TOOL: 'awaiting_tool',
  ABORTED: 'aborted',
  SKIPPED: 'skipped',
  PAUSED: 'paused',
} as const;
export type LoopStepOutcome = (typeof LoopStepOutcome)[keyof typeof LoopStepOutcome];

export type BudgetName = 'tool_calls' | 'turns';
export type HookName = 'before_step' | 'before_tool_call' | 'after_step' | 'on_error';

export interface LoopEventPayloads {
  'loop.start': { readonly plan: readonly PlanStepRecord[]; readonly budget: BudgetLimits };
  'loop.transition': { readonly from: LoopState; readonly to: LoopState };
  'step.start': { readonly stepId: string; readonly index: number; readonly description: string };
  'tool.call': { readonly stepId: string; readonly toolName: string; readonly toolArgs: JsonValue; readonly callNumber: number };
  'tool.result': { readonly stepId: string; readonly callNumber: number; readonly result: JsonValue };
  'tool.error': { readonly stepId: string; readonly error: string };
  'step.end': {
    readonly stepId: string;
    readonly index: number;
    readonly outcome: LoopStepOutcome;
    /** The step's error when it was aborted, else null. */
    readonly error: string | null;
    /** Why a hook skipped the step, else null. */
    readonly reason: string | null;
  };
  /** Emitted in REFLECTING: the turn was counted and the cursor advanced. */
  'loop.turn': { readonly turn: number; readonly cursor: number };
  'loop.pause': { readonly reason: 'budget_exceeded'; readonly budget: BudgetName };
  'loop.done': { readonly reason: 'goal_met' };
  'budget.set': BudgetLimits;
  /** An `after_step` or `on_error` subscriber threw; the loop went on (the step had already ended). */
  'hook.error': { readonly hook: HookName; readonly stepId: string; readonly error: string };
}

export type LoopEventKind = keyof LoopEventPayloads;

/** One recorded event, discriminated by `kind`. */
export type LoopEvent = {
  [K in LoopEventKind]: { readonly seq: number; readonly kind: K; readonly payload: LoopEventPayloads[K] };
}[LoopEventKind];

export type LoopEventOf<K extends LoopEventKind> = Extract<LoopEvent, { kind: K }>;

const state = z.enum(['idle', 'executing', 'awaiting_tool', 'reflecting', 'paused', 'done']);
const count = z.number().int().nonnegative();
const limits = z.object({ maxToolCalls: count.nullable(), maxTurns: count.nullable() });
const json = z.json();
const hook = z.enum(['before_step', 'before_tool_call', 'after_step', 'on_error']);

const event = <K extends LoopEventKind, P extends z.ZodType>(kind: K, payload: P) =>
  z.object({ seq: z.number().int().positive(), kind: z.literal(kind), payload });

/** Shape check used by replay, so a log read back from JSON is validated before it is trusted. */
export const loopEventSchema = z.discriminatedUnion('kind', [
  event(
    'loop.start',
    z.object({
      plan: z.array(z.object({ id: z.string(), description: z.string(), requiresTool: z.boolean(), toolName: z.string().nullable(), toolArgs: json })),
      budget: limits,
    }),
  ),
  event('loop.transition', z.object({ from: state, to: state })),
  event('step.start', z.object({ stepId: z.string(), index: count, description: z.string() })),
  event('tool.call', z.object({ stepId: z.string(), toolName: z.string(), toolArgs: json, callNumber: count })),
  event('tool.result', z.object({ stepId: z.string(), callNumber: count, result: json })),
  event('tool.error', z.object({ stepId: z.string(), error: z.string() })),
  event(
    'step.end',
    z.object({
      stepId: z.string(),
      index: count,
      outcome: z.enum(['completed', 'awaiting_tool', 'aborted', 'skipped', 'paused']),
      error: z.string().nullable(),
      reason: z.string().nullable(),
    }),
  ),
  event('loop.turn', z.object({ turn: count, cursor: count })),
  event('loop.pause', z.object({ reason: z.literal('budget_exceeded'), budget: z.enum(['tool_calls', 'turns']) })),
  event('loop.done', z.object({ reason: z.literal('goal_met') })),
  event('budget.set', limits),
  event('hook.error', z.object({ hook, stepId: z.string(), error: z.string() })),
]);
