/**
 * Loop states and the explicit transition table (seed 004: "pairs outside the table raise, so replay cannot
 * be corrupted"). The same table guards the live loop and `replayLoop`.
 */
import { IllegalTransitionError } from './errors.js';

export const LoopState = {
  IDLE: 'idle',
  EXECUTING: 'executing',
  AWAITING_TOOL: 'awaiting_tool',
  REFLECTING: 'reflecting',
  PAUSED: 'paused',
  DONE: 'done',
} as const;
export type LoopState = (typeof LoopState)[keyof typeof LoopState];

/**
 * The only legal state pairs. AWAITING_TOOL leaves only through `resume` (to REFLECTING); DONE is terminal;
 * a pause is left only by executing again once the budget allows it.
 */
export const LOOP_TRANSITIONS: { readonly [S in LoopState]: readonly LoopState[] } = Object.freeze({
  idle: Object.freeze(['executing', 'paused', 'done'] as const),
  executing: Object.freeze(['awaiting_tool', 'reflecting', 'paused'] as const),
  awaiting_tool: Object.freeze(['reflecting'] as const),
  reflecting: Object.freeze(['executing', 'paused', 'done'] as const),
  paused: Object.freeze(['executing'] as const),
  done: Object.freeze([] as const),
});

const STATE_VALUES: ReadonlySet<string> = new Set(Object.values(LoopState));

/** True for one of the six state literals. */
export function isLoopState(value: unknown): value is LoopState {
  return typeof value === 'string' && STATE_VALUES.has(value);
}

/** True when the table lists `from → to`. */
export function canTransition(from: LoopState, to: LoopState): boolean {
  return LOOP_TRANSITIONS[from].includes(to);
}

/** Throws `IllegalTransitionError` for a pair outside the table; callers check before mutating anything. */
export function assertTransition(from: LoopState, to: LoopState): void {
  if (!canTransition(from, to)) throw new IllegalTransitionError({ from, to });
}
