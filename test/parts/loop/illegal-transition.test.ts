/** Seed 004 follow-up 3: only the listed state pairs are legal; anything else throws and corrupts nothing. */
import { describe, expect, it } from 'vitest';
import { isNighthawkError } from '../../../kernel/src/core/errors.js';
import { HarnessLoop, IllegalTransitionError, LOOP_TRANSITIONS, LoopUsageError, canTransition } from '../../../kernel/src/parts/index.js';
import { threeToolSteps } from './trace.js';

describe('the transition table', () => {
  it('lists exactly the pairs the loop uses and makes DONE terminal', () => {
    expect(LOOP_TRANSITIONS).toEqual({
      idle: ['executing', 'paused', 'done'],
      executing: ['awaiting_tool', 'reflecting', 'paused'],
      awaiting_tool: ['reflecting'],
      reflecting: ['executing', 'paused', 'done'],
      paused: ['executing'],
      done: [],
    });
    expect(canTransition('awaiting_tool', 'executing')).toBe(false);
    expect(Object.isFrozen(LOOP_TRANSITIONS.awaiting_tool)).toBe(true);
  });
});

describe('an illegal transition', () => {
  it('AWAITING_TOOL → EXECUTING without resume throws a typed error and leaves state, counters and events unchanged', () => {
    const loop = new HarnessLoop({ plan: threeToolSteps });
    loop.start();
    const before = loop.snapshot();
    const eventsBefore = loop.events;

    let thrown: unknown;
    try {
      loop.step();
    } catch (error) {
      thrown = error;
    }

    expect(thrown).toBeInstanceOf(IllegalTransitionError);
    expect(thrown).toMatchObject({ kind: 'illegal-transition', from: 'awaiting_tool', to: 'executing' });
    expect(isNighthawkError(thrown)).toBe(true);
    expect(loop.snapshot()).toEqual(before);
    expect(loop.events).toEqual(eventsBefore);
    // Nothing was corrupted: the pending tool call still resumes normally.
    expect(loop.resume({ kind: 'ok', value: 1 })).toMatchObject({ kind: 'pull_request', payload: { stepId: 's2', callNumber: 2 } });
  });

  it('resume outside AWAITING_TOOL throws before recording a tool.result', () => {
    const loop = new HarnessLoop({ plan: [{ id: 'a', description: 'think', requiresTool: false }] });
    expect(() => loop.resume({ kind: 'ok', value: 1 })).toThrow(expect.objectContaining({ from: 'idle', to: 'reflecting' }));
    expect(loop.start()).toEqual({ kind: 'done', reason: 'goal_met' });
    const count = loop.events.length;
    expect(() => loop.resume({ kind: 'ok', value: 1 })).toThrow(IllegalTransitionError);
    expect(loop.events).toHaveLength(count);
    expect(loop.state).toBe('done');
  });

  it('step() after DONE throws, because DONE is terminal', () => {
    const loop = new HarnessLoop({ plan: [] });
    expect(loop.start()).toEqual({ kind: 'done', reason: 'goal_met' });
    expect(() => loop.step()).toThrow(expect.objectContaining({ kind: 'illegal-transition', from: 'done', to: 'executing' }));
    expect(loop.events.map((e) => e.kind)).toEqual(['loop.start', 'loop.transition', 'loop.done']);
  });

  it('a malformed tool result is refused before anything is recorded', () => {
    const loop = new HarnessLoop({ plan: threeToolSteps });
    loop.start();
    const before = loop.snapshot();
    expect(() => loop.resume({ kind: 'bogus' } as never)).toThrow(LoopUsageError);
    expect(loop.snapshot()).toEqual(before);
  });

  it('start() twice is refused', () => {
    const loop = new HarnessLoop({ plan: threeToolSteps });
    loop.start();
    expect(() => loop.start()).toThrow(expect.objectContaining({ kind: 'loop-usage', operation: 'start' }));
  });
});
