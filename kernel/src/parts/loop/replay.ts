/**
 * Replay: rebuilds the loop's state from its event log alone (seed 004: "replaying the event log re-enters
 * the same state without a model call"). No hook fires and no tool runs. Every transition is checked
 * against the same table as the live loop, and every event against the replayed state, so a corrupted or
 * truncated log raises `ReplayDivergenceError` instead of producing a wrong state.
 */
import { ReplayDivergenceError } from './errors.js';
import { loopEventSchema, type BudgetName, type LoopEvent, type LoopEventOf } from './events.js';
import type { LoopSnapshot } from './outcome.js';
import type { BudgetLimits, PlanStepRecord } from './plan.js';
import { assertTransition, type LoopState } from './states.js';

/**
 * Replays `events` (as recorded, or read back from JSON) and returns the state the live loop was in.
 * Throws `ReplayDivergenceError` for a malformed event, a sequence gap, an illegal transition (its `cause` is
 * the `IllegalTransitionError`) or an event the replayed state rules out.
 */
export function replayLoop(events: readonly unknown[]): LoopSnapshot {
  if (!Array.isArray(events) || events.length === 0) {
    throw new ReplayDivergenceError({ seq: null, detail: 'the log is empty; it must begin with loop.start' });
  }
  const machine = new ReplayMachine();
  events.forEach((raw, index) => {
    const parsed = loopEventSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ReplayDivergenceError({ seq: index + 1, detail: `malformed event (${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'})` });
    }
    const event = parsed.data as LoopEvent;
    if (event.seq !== index + 1) throw new ReplayDivergenceError({ seq: index + 1, detail: `sequence number ${event.seq} where ${index + 1} was due` });
    machine.apply(event);
  });
  return machine.finish();
}

class ReplayMachine {
  #seq = 0;
  #plan: readonly PlanStepRecord[] | null = null;
  #state: LoopState = 'idle';
  #cursor = 0;
  #toolCalls = 0;
  #turns = 0;
  #limits: BudgetLimits = { maxToolCalls: null, maxTurns: null };
  #pausedOn: BudgetName | null = null;
  #errors = new Map<string, string>();
  #open: { id: string; called: boolean } | null = null;
  #expect: 'loop.pause' | 'loop.done' | null = null;

  apply(event: LoopEvent): void {
    this.#seq = event.seq;
    if (this.#expect !== null && event.kind !== this.#expect) this.#diverge(`${this.#expect} was due after entering ${this.#state}, got ${event.kind}`);
    this.#expect = null;
    if (event.kind === 'loop.start') return this.#start(event);
    if (this.#plan === null) this.#diverge('the log must begin with loop.start');
    switch (event.kind) {
      case 'loop.transition':
        return this.#transition(event);
      case 'step.start':
        this.#require(this.#state === 'executing' && this.#open === null, 'step.start outside EXECUTING or inside an open step');
        this.#require(event.payload.index === this.#cursor && event.payload.stepId === this.#currentId(), `step.start for ${event.payload.stepId} at index ${event.payload.index}, cursor is ${this.#cursor}`);
        this.#open = { id: event.payload.stepId, called: false };
        return;
      case 'tool.call':
        return this.#toolCall(event);
      case 'tool.result':
        this.#require(this.#state === 'awaiting_tool' && this.#open === null, 'tool.result outside AWAITING_TOOL');
        this.#require(event.payload.stepId === this.#currentId() && event.payload.callNumber === this.#toolCalls, 'tool.result for a call that is not pending');
        return;
      case 'tool.error':
        this.#require(event.payload.stepId === this.#currentId(), `tool.error for ${event.payload.stepId}, which is not the current step`);
        this.#require(this.#state === 'awaiting_tool' || (this.#state === 'executing' && this.#open?.id === event.payload.stepId), 'tool.error outside a tool step');
        this.#errors.set(event.payload.stepId, event.payload.error);
        return;
      case 'step.end':
        return this.#stepEnd(event);
      case 'loop.turn':
        this.#require(this.#state === 'reflecting' && this.#open === null, 'loop.turn outside REFLECTING');
        this.#require(event.payload.turn === this.#turns + 1 && event.payload.cursor === this.#cursor + 1, 'loop.turn counters do not follow the replayed ones');
        this.#turns += 1;
        this.#cursor += 1;
        return;
      case 'loop.pause':
        this.#require(this.#state === 'paused' && this.#exhausted(event.payload.budget), `loop.pause on ${event.payload.budget}, which is not exhausted`);
        this.#pausedOn = event.payload.budget;
        return;
      case 'loop.done':
        this.#require(this.#state === 'done' && this.#cursor >= this.#planLength(), 'loop.done before the cursor passed the plan');
        return;
      case 'budget.set':
        this.#require(this.#state !== 'done', 'budget.set after DONE');
        this.#limits = { ...event.payload };
        return;
      case 'hook.error':
        return;
    }
  }

  finish(): LoopSnapshot {
    const settled = this.#state === 'awaiting_tool' || this.#state === 'paused' || this.#state === 'done';
    if (!settled || this.#expect !== null || this.#open !== null) {
      throw new ReplayDivergenceError({ seq: null, detail: `the log ends mid-step (state ${this.#state}); it is truncated` });
    }
    return {
      state: this.#state,
      cursor: this.#cursor,
      planLength: this.#planLength(),
      toolCalls: this.#toolCalls,
      turns: this.#turns,
      limits: Object.freeze({ ...this.#limits }),
      pausedOn: this.#pausedOn,
      stepErrors: Object.fromEntries(this.#orderedErrors()),
      lastSeq: this.#seq,
    };
  }

  #start(event: LoopEventOf<'loop.start'>): void {
    this.#require(this.#seq === 1 && this.#plan === null, 'loop.start after the first event');
    const ids = new Set(event.payload.plan.map((step) => step.id));
    this.#require(ids.size === event.payload.plan.length, 'the recorded plan repeats a step id');
    this.#plan = event.payload.plan;
    this.#limits = { ...event.payload.budget };
  }

  #transition(event: LoopEventOf<'loop.transition'>): void {
    const { from, to } = event.payload;
    this.#require(from === this.#state, `transition from ${from}, but the replayed state is ${this.#state}`);
    try {
      assertTransition(from, to);
    } catch (error) {
      throw new ReplayDivergenceError({ seq: this.#seq, detail: `illegal transition ${from} → ${to}`, cause: error });
    }
    if (to === 'awaiting_tool') this.#require(this.#open?.called === true, 'AWAITING_TOOL entered without a tool.call');
    else if (from === 'executing') this.#require(this.#open === null, `left EXECUTING for ${to} without step.end`);
    if (from === 'paused') this.#pausedOn = null;
    if (to === 'paused') this.#expect = 'loop.pause';
    if (to === 'done') this.#expect = 'loop.done';
    this.#state = to;
  }

  #toolCall(event: LoopEventOf<'tool.call'>): void {
    const step = this.#plan?.[this.#cursor];
    this.#require(this.#state === 'executing' && this.#open?.id === event.payload.stepId && !this.#open.called, 'tool.call outside an open step');
    this.#require(step?.requiresTool === true, `tool.call for ${event.payload.stepId}, which requires no tool`);
    this.#require(!this.#exhausted('tool_calls'), 'tool.call beyond the tool-call budget');
    this.#require(event.payload.callNumber === this.#toolCalls + 1, `tool.call number ${event.payload.callNumber} where ${this.#toolCalls + 1} was due`);
    this.#toolCalls += 1;
    this.#open = { id: event.payload.stepId, called: true };
  }

  #stepEnd(event: LoopEventOf<'step.end'>): void {
    const { stepId, index, outcome, error } = event.payload;
    this.#require(this.#open?.id === stepId && index === this.#cursor, `step.end for ${stepId} does not close the open step`);
    const called = this.#open?.called === true;
    if (outcome === 'awaiting_tool') this.#require(this.#state === 'awaiting_tool' && called, 'step.end awaiting_tool without a pending tool call');
    else this.#require(this.#state === 'executing' && !called, `step.end ${outcome} after a tool call or outside EXECUTING`);
    if (outcome === 'aborted') this.#require(error !== null, 'an aborted step.end without an error');
    if (error !== null) {
      const known = this.#errors.get(stepId);
      this.#require(known === undefined || known === error, 'step.end error differs from the recorded tool.error');
      this.#errors.set(stepId, error);
    }
    this.#open = null;
  }

  #exhausted(budget: BudgetName): boolean {
    const limit = budget === 'tool_calls' ? this.#limits.maxToolCalls : this.#limits.maxTurns;
    return limit !== null && (budget === 'tool_calls' ? this.#toolCalls : this.#turns) >= limit;
  }

  #currentId(): string | undefined {
    return this.#plan?.[this.#cursor]?.id;
  }

  #planLength(): number {
    return this.#plan?.length ?? 0;
  }

  /** Errors in plan order, the order the live snapshot lists them in. */
  #orderedErrors(): [string, string][] {
    return (this.#plan ?? []).flatMap((step) => {
      const error = this.#errors.get(step.id);
      return error === undefined ? [] : [[step.id, error] as [string, string]];
    });
  }

  #require(condition: boolean, detail: string): asserts condition {
    if (!condition) this.#diverge(detail);
  }

  #diverge(detail: string): never {
    throw new ReplayDivergenceError({ seq: this.#seq, detail });
  }
}
