/**
 * Seed 004's pull-based harness loop as an Agent Part. A plan is walked with a cursor through an explicit
 * state machine; tool steps go back to the caller as a `PullRequest` and continue with `resume`. Hooks decide
 * (skip, abort, mutate); events only record. The Part has no authority and no Session concept: whoever
 * drives it executes the tools.
 */
import { currentInterior, reportRefusal } from '../../core/index.js';
import { IllegalTransitionError, LoopUsageError } from './errors.js';
import { EventLog, type EventSubscriber, type SubscriberFailure } from './event-log.js';
import type { BudgetName, HookName, LoopEvent, LoopEventKind, LoopEventOf, LoopStepOutcome } from './events.js';
import { HookRegistry, type GateVerdict, type HookSubscriber, type HookSubscribers } from './hooks.js';
import { snapshotJson } from './json.js';
import type { LoopOutcome, LoopPaused, LoopSnapshot, ToolResult } from './outcome.js';
import { checkLimits, liveStep, recordPlan, type BudgetLimits, type MutableLoopStep, type PlanStep, type PlanStepRecord } from './plan.js';
import { replayLoop } from './replay.js';
import { assertTransition, type LoopState } from './states.js';

export interface HarnessLoopOptions {
  readonly plan: readonly PlanStep[];
  /** Omitted or null limits are unlimited. */
  readonly budget?: { readonly maxToolCalls?: number | null; readonly maxTurns?: number | null };
  readonly hooks?: HookSubscribers;
  /** Receives every event after it is appended (for example to forward it to a run ledger). Isolated like a subscriber. */
  readonly onEvent?: EventSubscriber;
}

const DONE = Object.freeze({ kind: 'done', reason: 'goal_met' } as const);

/**
 * Model code runs now: an expression or generated code, also a function of theirs host code called (its body runs
 * under its mark) and what it scheduled (the mark follows the async context). Operator code that merely read a
 * model value earlier in the same job is not refused.
 */
function modelCodeRunning(): boolean {
  return currentInterior() !== undefined;
}

/**
 * A deterministic, pull-based loop over a plan. `start`, `step` and `resume` run synchronously until a tool
 * call is due (`PullRequest`), the plan is finished (`done`) or a budget ran out (`paused`).
 */
export class HarnessLoop {
  readonly #plan: readonly PlanStepRecord[];
  readonly #steps: MutableLoopStep[];
  readonly #hooks: HookRegistry;
  #log: EventLog;
  #state: LoopState = 'idle';
  #cursor = 0;
  #toolCalls = 0;
  #turns = 0;
  #limits: BudgetLimits;
  #pausedOn: BudgetName | null = null;
  #busy = false;
  /**
   * Built by operator code: then only operator code drives it, adds hooks or observers. A model handed the loop
   * (to read its state) would otherwise forge a pending tool's completion, lift the budget, or append a gate
   * after the operator's deny-list. A loop model code builds for itself has no authority to guard.
   */
  readonly #operatorBuilt = !modelCodeRunning();

  /** Checks the plan and budget up front; throws `InvalidPlanError` before any event. */
  constructor(options: HarnessLoopOptions) {
    this.#plan = Object.freeze(recordPlan(options.plan));
    this.#steps = this.#plan.map(liveStep);
    this.#limits = checkLimits(options.budget);
    this.#hooks = new HookRegistry(options.hooks);
    this.#log = new EventLog({ sink: options.onEvent });
  }

  /**
   * Rebuilds the loop state from an event log alone: no hook fires and no tool runs. Throws
   * `ReplayDivergenceError` for a log the loop could not have produced.
   */
  static replay(events: readonly unknown[]): LoopSnapshot {
    return replayLoop(events);
  }

  /**
   * Re-enters the state a recorded log ends in, with fresh hooks and sink, so a caller can resume after a
   * restart. The plan is the one recorded in `loop.start`; hook mutations of earlier steps are not replayed.
   * Recorded events are not re-delivered to `onEvent`.
   */
  static restore(events: readonly LoopEvent[], options: Omit<HarnessLoopOptions, 'plan' | 'budget'> = {}): HarnessLoop {
    const snapshot = replayLoop(events);
    const start = events[0] as LoopEventOf<'loop.start'>;
    const loop = new HarnessLoop({ ...options, plan: start.payload.plan, budget: snapshot.limits });
    loop.#log = new EventLog({ sink: options.onEvent, prior: events });
    loop.#state = snapshot.state;
    loop.#cursor = snapshot.cursor;
    loop.#toolCalls = snapshot.toolCalls;
    loop.#turns = snapshot.turns;
    loop.#pausedOn = snapshot.pausedOn;
    for (const step of loop.#steps) step.error = snapshot.stepErrors[step.id] ?? null;
    return loop;
  }

  /** The current state; between calls it is idle, awaiting_tool, paused or done. */
  get state(): LoopState {
    return this.#state;
  }

  /** Index of the current step; equals the plan length once done. */
  get cursor(): number {
    return this.#cursor;
  }

  /** The recorded events so far, frozen. */
  get events(): readonly LoopEvent[] {
    return this.#log.events;
  }

  /** Event observers that threw; kept out of the event log so observers cannot change it. */
  get subscriberFailures(): readonly SubscriberFailure[] {
    return this.#log.subscriberFailures;
  }

  /** The state `replayLoop(this.events)` must rebuild. */
  snapshot(): LoopSnapshot {
    const stepErrors: Record<string, string> = {};
    for (const step of this.#steps) if (step.error !== null) stepErrors[step.id] = step.error;
    return {
      state: this.#state,
      cursor: this.#cursor,
      planLength: this.#plan.length,
      toolCalls: this.#toolCalls,
      turns: this.#turns,
      limits: this.#limits,
      pausedOn: this.#pausedOn,
      stepErrors,
      lastSeq: this.#log.lastSeq,
    };
  }

  /** Adds an imperative hook subscriber (fired in registration order); returns a function that removes it. */
  hook<H extends HookName>(hook: H, subscriber: HookSubscriber<H>): () => void {
    this.#refuseModelCode('hook');
    return this.#hooks.add(hook, subscriber);
  }

  /** Adds an observer for one event kind or `'*'`; returns a function that removes it. */
  subscribe<K extends LoopEventKind>(kind: K | '*', subscriber: EventSubscriber<LoopEventOf<K>>): () => void {
    this.#refuseModelCode('subscribe');
    return this.#log.subscribe(kind as '*', subscriber as EventSubscriber);
  }

  /** Records `loop.start` and runs until a tool call, completion or pause. Only valid once, from IDLE. */
  start(): LoopOutcome {
    return this.#exclusive('start', () => {
      if (this.#state !== 'idle') throw new LoopUsageError({ operation: 'start', problem: `the loop already started (state ${this.#state}); call step() or resume()` });
      this.#log.append('loop.start', { plan: this.#plan, budget: this.#limits });
      if (this.#plan.length === 0) return this.#finish();
      if (this.#exhausted('turns')) return this.#pause('turns');
      this.#transition('executing');
      return this.#drive();
    });
  }

  /**
   * Continues the loop: from IDLE it starts; from PAUSED it executes again once the budget allows (else it
   * returns the same pause, recording nothing). From AWAITING_TOOL or DONE it throws `IllegalTransitionError`
   * and changes nothing: a pending tool call is only left through `resume`.
   */
  step(): LoopOutcome {
    if (this.#state === 'idle') return this.start();
    return this.#exclusive('step', () => {
      if (this.#state !== 'paused') throw new IllegalTransitionError({ from: this.#state, to: 'executing' });
      const budget = this.#pausedOn ?? 'turns';
      if (this.#exhausted(budget)) return pausedOutcome(budget);
      this.#transition('executing');
      this.#pausedOn = null;
      return this.#drive();
    });
  }

  /**
   * Delivers the result of the pending tool call and runs on. An error result sets the step's error to
   * `tool_error:<error>`, emits `tool.error` and fires `on_error`. Throws `IllegalTransitionError` outside
   * AWAITING_TOOL and `LoopUsageError` for a malformed result, in both cases before recording anything.
   */
  resume(result: ToolResult): LoopOutcome {
    return this.#exclusive('resume', () => {
      if (this.#state !== 'awaiting_tool') throw new IllegalTransitionError({ from: this.#state, to: 'reflecting' });
      // Each field is read once: a tool result (untrusted) with getters must not pass the check as one kind and act as another.
      const kind = (result as { kind?: unknown } | null)?.kind;
      const hasValue = kind === 'ok' && 'value' in result;
      const value = hasValue ? (result as { value?: unknown }).value : undefined;
      const error = kind === 'error' ? (result as { error?: unknown }).error : undefined;
      if (!hasValue && typeof error !== 'string') {
        throw new LoopUsageError({ operation: 'resume', problem: "the tool result must be { kind: 'ok', value } or { kind: 'error', error: string }" });
      }
      const step = this.#current();
      if (hasValue) {
        this.#log.append('tool.result', { stepId: step.id, callNumber: this.#toolCalls, result: snapshotJson(value) });
      } else {
        this.#fail(step, `tool_error:${error as string}`, true);
      }
      this.#transition('reflecting');
      return this.#drive();
    });
  }

  /**
   * Replaces the budget limits (recorded as `budget.set` once started). Lowering a limit below the counter
   * pauses at the next check; raising one lets `step()` leave a pause. Throws `LoopUsageError` once DONE.
   */
  setBudget(limits: { readonly maxToolCalls?: number | null; readonly maxTurns?: number | null }): void {
    this.#exclusive('setBudget', () => {
      if (this.#state === 'done') throw new LoopUsageError({ operation: 'setBudget', problem: 'the loop is done' });
      const checked = checkLimits(limits);
      this.#limits = checked;
      if (this.#state !== 'idle') this.#log.append('budget.set', checked);
    });
  }

  #refuseModelCode(operation: LoopUsageError['operation']): void {
    if (!this.#operatorBuilt || !modelCodeRunning()) return;
    reportRefusal('loop_control_from_model_code', { operation });
    throw new LoopUsageError({ operation, problem: 'model code may not drive, hook or observe a loop operator code built' });
  }

  #exclusive<T>(operation: LoopUsageError['operation'], body: () => T): T {
    this.#refuseModelCode(operation);
    // A hook or observer calling back into the loop would interleave two drives and break event order.
    if (this.#busy) throw new LoopUsageError({ operation, problem: 'called from inside a hook or event subscriber' });
    this.#busy = true;
    try {
      return body();
    } finally {
      this.#busy = false;
    }
  }

  #drive(): LoopOutcome {
    for (;;) {
      const outcome = this.#state === 'executing' ? this.#execute() : this.#reflect();
      if (outcome !== undefined) return outcome;
    }
  }

  /** EXECUTING: one step up to its tool call, or to REFLECTING when it completes, is skipped or aborted. */
  #execute(): LoopOutcome | undefined {
    const step = this.#current();
    const gate = this.#hooks.fireGate('before_step', { step, cursor: this.#cursor });
    this.#log.append('step.start', { stepId: step.id, index: step.index, description: step.description });
    if (gate.kind !== 'continue') return this.#closeByGate(step, gate, false);
    if (!step.requiresTool) return this.#endAndReflect(step, 'completed', null);
    const toolGate = this.#hooks.fireGate('before_tool_call', { step, cursor: this.#cursor });
    if (toolGate.kind !== 'continue') return this.#closeByGate(step, toolGate, true);
    if (typeof step.toolName !== 'string' || step.toolName === '') {
      return this.#closeByGate(step, { kind: 'abort', error: 'hook_error:before_tool_call:a hook left the step without a tool name' }, true);
    }
    // Seed 004: the budget is checked and the call counted only after before_tool_call passed.
    if (this.#exhausted('tool_calls')) {
      this.#endStep(step, 'paused', null);
      return this.#pause('tool_calls');
    }
    this.#toolCalls += 1;
    const call = this.#log.append('tool.call', { stepId: step.id, toolName: step.toolName, toolArgs: snapshotJson(step.toolArgs), callNumber: this.#toolCalls });
    this.#transition('awaiting_tool');
    this.#endStep(step, 'awaiting_tool', null);
    return { kind: 'pull_request', reason: 'tool_call', state: 'awaiting_tool', payload: call.payload };
  }

  /**
   * A gate skipped or aborted the step. Seed 004's abort path plus the fix for its named gap: the aborted
   * step still gets `step.end` (outcome `aborted`) and `after_step` before the move to REFLECTING, so every
   * `step.start` has a `step.end`. REFLECTING then advances the cursor: the step is skipped, never retried.
   */
  #closeByGate(step: MutableLoopStep, gate: Exclude<GateVerdict, { kind: 'continue' }>, toolGate: boolean): undefined {
    if (gate.kind === 'skip') return this.#endAndReflect(step, 'skipped', gate.reason);
    this.#fail(step, gate.error, toolGate);
    return this.#endAndReflect(step, 'aborted', null);
  }

  #fail(step: MutableLoopStep, error: string, toolError: boolean): void {
    step.error = error;
    if (toolError) this.#log.append('tool.error', { stepId: step.id, error });
    this.#reportAfterHook('on_error', step, this.#hooks.fireAfter('on_error', { step, error }));
  }

  #endAndReflect(step: MutableLoopStep, outcome: LoopStepOutcome, reason: string | null): undefined {
    this.#endStep(step, outcome, reason);
    this.#transition('reflecting');
    return undefined;
  }

  #endStep(step: MutableLoopStep, outcome: LoopStepOutcome, reason: string | null): void {
    this.#log.append('step.end', { stepId: step.id, index: step.index, outcome, error: step.error, reason });
    this.#reportAfterHook('after_step', step, this.#hooks.fireAfter('after_step', { step, outcome }));
  }

  #reportAfterHook(hook: 'after_step' | 'on_error', step: MutableLoopStep, failures: readonly string[]): void {
    for (const error of failures) this.#log.append('hook.error', { hook, stepId: step.id, error });
  }

  /** REFLECTING: the turn is counted here (one finished step) and the cursor advances (seed 004). */
  #reflect(): LoopOutcome | undefined {
    this.#turns += 1;
    this.#cursor += 1;
    this.#log.append('loop.turn', { turn: this.#turns, cursor: this.#cursor });
    if (this.#cursor >= this.#plan.length) return this.#finish();
    if (this.#exhausted('turns')) return this.#pause('turns');
    this.#transition('executing');
    return undefined;
  }

  #finish(): LoopOutcome {
    this.#transition('done');
    this.#log.append('loop.done', { reason: 'goal_met' });
    return DONE;
  }

  #pause(budget: BudgetName): LoopPaused {
    this.#transition('paused');
    this.#pausedOn = budget;
    this.#log.append('loop.pause', { reason: 'budget_exceeded', budget });
    return pausedOutcome(budget);
  }

  #exhausted(budget: BudgetName): boolean {
    const limit = budget === 'tool_calls' ? this.#limits.maxToolCalls : this.#limits.maxTurns;
    return limit !== null && (budget === 'tool_calls' ? this.#toolCalls : this.#turns) >= limit;
  }

  /** Checks the table before anything changes, so an illegal pair leaves state and log untouched. */
  #transition(to: LoopState): void {
    const from = this.#state;
    assertTransition(from, to);
    this.#state = to;
    this.#log.append('loop.transition', { from, to });
  }

  #current(): MutableLoopStep {
    const step = this.#steps[this.#cursor];
    if (step === undefined) throw new IllegalTransitionError({ from: this.#state, to: 'executing' });
    return step;
  }
}
Object.freeze(HarnessLoop.prototype); // shared by every run in the process: model code replaces no method

function pausedOutcome(budget: BudgetName): LoopPaused {
  return Object.freeze({ kind: 'paused', reason: 'budget_exceeded', budget });
}
