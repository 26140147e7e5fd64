/** Budgets: tool calls and turns. Running out pauses the loop with a budget reason; raising the budget goes on. */
import { describe, expect, it } from 'vitest';
import { HarnessLoop } from '../../../kernel/src/parts/index.js';
import { threeToolSteps, tracedLoop, unpairedSteps } from './trace.js';

const thinkSteps = [
  { id: 't1', description: 'think', requiresTool: false },
  { id: 't2', description: 'think more', requiresTool: false },
  { id: 't3', description: 'conclude', requiresTool: false },
] as const;

describe('tool-call budget', () => {
  it('pauses with budget tool_calls when the next call would exceed it, after before_tool_call passed', () => {
    const { loop, trace } = tracedLoop({ plan: threeToolSteps, budget: { maxToolCalls: 1 } });
    loop.start();
    trace.length = 0;

    const paused = loop.resume({ kind: 'ok', value: 'ok' });

    expect(paused).toEqual({ kind: 'paused', reason: 'budget_exceeded', budget: 'tool_calls' });
    expect(trace).toEqual([
      'event 7 tool.result s1 #1',
      'event 8 loop.transition awaiting_tool->reflecting',
      'event 9 loop.turn turn=1 cursor=1',
      'event 10 loop.transition reflecting->executing',
      'hook before_step s2',
      'event 11 step.start s2',
      'hook before_tool_call s2',
      'event 12 step.end s2 paused',
      'hook after_step s2 paused',
      'event 13 loop.transition executing->paused',
      'event 14 loop.pause tool_calls',
    ]);
    expect(loop.snapshot()).toMatchObject({ state: 'paused', pausedOn: 'tool_calls', toolCalls: 1, turns: 1, cursor: 1 });
    expect(unpairedSteps(loop.events)).toEqual([]);
  });

  it('returns the same pause without recording anything while the budget is still exhausted', () => {
    const loop = new HarnessLoop({ plan: threeToolSteps, budget: { maxToolCalls: 1 } });
    loop.start();
    loop.resume({ kind: 'ok', value: 'ok' });
    const count = loop.events.length;
    expect(loop.step()).toEqual({ kind: 'paused', reason: 'budget_exceeded', budget: 'tool_calls' });
    expect(loop.events).toHaveLength(count);
  });

  it('re-runs the paused step from before_step once the budget is raised', () => {
    const { loop, trace } = tracedLoop({ plan: threeToolSteps, budget: { maxToolCalls: 1 } });
    loop.start();
    loop.resume({ kind: 'ok', value: 'ok' });
    loop.setBudget({ maxToolCalls: 5 });
    trace.length = 0;

    const next = loop.step();

    expect(next).toMatchObject({ kind: 'pull_request', payload: { stepId: 's2', callNumber: 2 } });
    expect(trace).toEqual([
      'event 16 loop.transition paused->executing',
      'hook before_step s2',
      'event 17 step.start s2',
      'hook before_tool_call s2',
      'event 18 tool.call s2 rm_rf #2',
      'event 19 loop.transition executing->awaiting_tool',
      'event 20 step.end s2 awaiting_tool',
      'hook after_step s2 awaiting_tool',
    ]);
    expect(loop.events[14]).toMatchObject({ kind: 'budget.set', payload: { maxToolCalls: 5, maxTurns: null } });
    expect(loop.snapshot().pausedOn).toBeNull();
  });

  it('a budget of zero pauses at the first tool step without counting a call', () => {
    const loop = new HarnessLoop({ plan: threeToolSteps, budget: { maxToolCalls: 0 } });
    expect(loop.start()).toEqual({ kind: 'paused', reason: 'budget_exceeded', budget: 'tool_calls' });
    expect(loop.snapshot()).toMatchObject({ toolCalls: 0, turns: 0, cursor: 0 });
  });
});

describe('turn budget', () => {
  it('pauses with budget turns in REFLECTING after counting the turn that reached the limit', () => {
    const { loop, trace } = tracedLoop({ plan: thinkSteps, budget: { maxTurns: 2 } });

    expect(loop.start()).toEqual({ kind: 'paused', reason: 'budget_exceeded', budget: 'turns' });
    expect(trace).toEqual([
      'event 1 loop.start t1,t2,t3',
      'event 2 loop.transition idle->executing',
      'hook before_step t1',
      'event 3 step.start t1',
      'event 4 step.end t1 completed',
      'hook after_step t1 completed',
      'event 5 loop.transition executing->reflecting',
      'event 6 loop.turn turn=1 cursor=1',
      'event 7 loop.transition reflecting->executing',
      'hook before_step t2',
      'event 8 step.start t2',
      'event 9 step.end t2 completed',
      'hook after_step t2 completed',
      'event 10 loop.transition executing->reflecting',
      'event 11 loop.turn turn=2 cursor=2',
      'event 12 loop.transition reflecting->paused',
      'event 13 loop.pause turns',
    ]);
    expect(loop.events.some((e) => e.kind === 'step.start' && e.payload.stepId === 't3')).toBe(false);
    expect(loop.snapshot()).toMatchObject({ state: 'paused', pausedOn: 'turns', turns: 2, cursor: 2 });
  });

  it('finishes with goal_met rather than pausing when the last turn also reaches the limit', () => {
    const loop = new HarnessLoop({ plan: thinkSteps, budget: { maxTurns: 3 } });
    expect(loop.start()).toEqual({ kind: 'done', reason: 'goal_met' });
  });

  it('goes on from the next step after the turn budget is raised', () => {
    const loop = new HarnessLoop({ plan: thinkSteps, budget: { maxTurns: 1 } });
    expect(loop.start()).toMatchObject({ kind: 'paused', budget: 'turns' });
    expect(loop.step()).toMatchObject({ kind: 'paused', budget: 'turns' });
    loop.setBudget({ maxTurns: null });
    expect(loop.step()).toEqual({ kind: 'done', reason: 'goal_met' });
    const starts = loop.events.flatMap((e) => (e.kind === 'step.start' ? [e.payload.stepId] : []));
    expect(starts).toEqual(['t1', 't2', 't3']);
  });

  it('a turn budget of zero pauses before the first step', () => {
    const loop = new HarnessLoop({ plan: thinkSteps, budget: { maxTurns: 0 } });
    expect(loop.start()).toEqual({ kind: 'paused', reason: 'budget_exceeded', budget: 'turns' });
    expect(loop.events.map((e) => e.kind)).toEqual(['loop.start', 'loop.transition', 'loop.pause']);
  });
});
