/** The plan a loop walks with its cursor, and the step objects hooks may mutate. */
import { InvalidPlanError } from './errors.js';
import { snapshotJson, type JsonValue } from './json.js';

/** One planned step as the caller writes it. A step that requires a tool must name the tool. */
export interface PlanStep {
  readonly id: string;
  readonly description: string;
  readonly requiresTool: boolean;
  readonly toolName?: string | null;
  readonly toolArgs?: JsonValue;
}

/** A plan step as recorded in `loop.start`: every field present and JSON-serialisable. */
export interface PlanStepRecord {
  readonly id: string;
  readonly description: string;
  readonly requiresTool: boolean;
  readonly toolName: string | null;
  readonly toolArgs: JsonValue;
}

/**
 * The live step a hook receives. Hooks may rewrite `description`, `toolName` and `toolArgs` before the
 * tool call (the `tool.call` event records the values after hooks); `id`, `requiresTool` and `error`
 * belong to the loop.
 */
export interface LoopStep {
  readonly id: string;
  readonly index: number;
  readonly requiresTool: boolean;
  description: string;
  toolName: string | null;
  toolArgs: JsonValue;
  /** `hook_abort:<reason>`, `hook_error:<detail>` or `tool_error:<message>`; null while the step has none. */
  readonly error: string | null;
}

/** The loop's writable view of a step; only the loop sets `error`. */
export type MutableLoopStep = { -readonly [K in keyof LoopStep]: LoopStep[K] };

export interface BudgetLimits {
  /** Tool calls the loop may count before it pauses; null means unlimited. */
  readonly maxToolCalls: number | null;
  /** Turns (completed reflections) the loop may count before it pauses; null means unlimited. */
  readonly maxTurns: number | null;
}

/** Checks a plan and copies it to records; throws `InvalidPlanError` before the loop exists. */
export function recordPlan(plan: readonly PlanStep[]): PlanStepRecord[] {
  if (!Array.isArray(plan)) throw new InvalidPlanError({ stepId: null, problem: 'the plan must be an array of steps' });
  const seen = new Set<string>();
  return plan.map((step) => {
    if (typeof step?.id !== 'string' || step.id === '') throw new InvalidPlanError({ stepId: null, problem: 'every step needs a non-empty string id' });
    if (seen.has(step.id)) throw new InvalidPlanError({ stepId: step.id, problem: 'step ids must be unique (errors and replay key on them)' });
    seen.add(step.id);
    if (typeof step.description !== 'string') throw new InvalidPlanError({ stepId: step.id, problem: 'description must be a string' });
    if (typeof step.requiresTool !== 'boolean') throw new InvalidPlanError({ stepId: step.id, problem: 'requiresTool must be a boolean' });
    const toolName = step.toolName ?? null;
    if (step.requiresTool && (typeof toolName !== 'string' || toolName === '')) {
      throw new InvalidPlanError({ stepId: step.id, problem: 'a step that requires a tool must name it in toolName' });
    }
    return { id: step.id, description: step.description, requiresTool: step.requiresTool, toolName, toolArgs: snapshotJson(step.toolArgs ?? null) };
  });
}

/** Checks budget limits; throws `InvalidPlanError` for a negative or fractional limit. */
export function checkLimits(limits: { maxToolCalls?: number | null; maxTurns?: number | null } | undefined): BudgetLimits {
  const check = (name: string, value: number | null | undefined): number | null => {
    if (value === undefined || value === null) return null;
    if (!Number.isInteger(value) || value < 0) throw new InvalidPlanError({ stepId: null, problem: `${name} must be a non-negative integer or null` });
    return value;
  };
  return Object.freeze({ maxToolCalls: check('maxToolCalls', limits?.maxToolCalls), maxTurns: check('maxTurns', limits?.maxTurns) });
}

/** A fresh live step for a recorded plan step. */
export function liveStep(record: PlanStepRecord, index: number): MutableLoopStep {
  return { id: record.id, index, requiresTool: record.requiresTool, description: record.description, toolName: record.toolName, toolArgs: structuredClone(record.toolArgs), error: null };
}
