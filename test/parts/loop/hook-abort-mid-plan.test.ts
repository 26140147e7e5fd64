/** Seed 004's question and follow-ups 1 and 4: HookAbort in before_tool_call is handled inside the loop. */
import { describe, expect, it } from 'vitest';
import { HookAbort } from '../../../kernel/src/parts/index.js';
import { threeToolSteps, tracedLoop, unpairedSteps } from './trace.js';

const DENY = new Set(['rm_rf']);
const denyListed = (step: { toolName: string | null }) => {
  if (step.toolName !== null && DENY.has(step.toolName)) throw new HookAbort({ reason: `tool ${step.toolName} is deny-listed` });
};

describe('HookAbort in before_tool_call on step two of three', () => {
  it('emits tool.error and an aborted step.end for step two, skips it, and hands the caller step three as a pull request', () => {
    const { loop, trace } = tracedLoop({ plan: threeToolSteps, beforeToolCall: denyListed });

    const first = loop.start();
    expect(first).toEqual({
      kind: 'pull_request',
      reason: 'tool_call',
      state: 'awaiting_tool',
      payload: { stepId: 's1', toolName: 'search', toolArgs: { q: 'loop' }, callNumber: 1 },
    });
    expect(trace).toEqual([
      'event 1 loop.start s1,s2,s3',
      'event 2 loop.transition idle->executing',
      'hook before_step s1',
      'event 3 step.start s1',
      'hook before_tool_call s1',
      'event 4 tool.call s1 search #1',
      'event 5 loop.transition executing->awaiting_tool',
      'event 6 step.end s1 awaiting_tool',
      'hook after_step s1 awaiting_tool',
    ]);
    trace.length = 0;

    let second: ReturnType<typeof loop.resume> | undefined;
    expect(() => {
      second = loop.resume({ kind: 'ok', value: { hits: 3 } });
    }).not.toThrow();

    expect(trace).toEqual([
      'event 7 tool.result s1 #1',
      'event 8 loop.transition awaiting_tool->reflecting',
      'event 9 loop.turn turn=1 cursor=1',
      'event 10 loop.transition reflecting->executing',
      'hook before_step s2',
      'event 11 step.start s2',
      'hook before_tool_call s2',
      'event 12 tool.error s2 hook_abort:tool rm_rf is deny-listed',
      'hook on_error s2 hook_abort:tool rm_rf is deny-listed',
      'event 13 step.end s2 aborted',
      'hook after_step s2 aborted',
      'event 14 loop.transition executing->reflecting',
      'event 15 loop.turn turn=2 cursor=2',
      'event 16 loop.transition reflecting->executing',
      'hook before_step s3',
      'event 17 step.start s3',
      'hook before_tool_call s3',
      'event 18 tool.call s3 write_file #2',
      'event 19 loop.transition executing->awaiting_tool',
      'event 20 step.end s3 awaiting_tool',
      'hook after_step s3 awaiting_tool',
    ]);
    expect(second).toEqual({
      kind: 'pull_request',
      reason: 'tool_call',
      state: 'awaiting_tool',
      payload: { stepId: 's3', toolName: 'write_file', toolArgs: { path: 'out.md' }, callNumber: 2 },
    });
    expect(loop.state).toBe('awaiting_tool');
    expect(loop.cursor).toBe(2);
  });

  it('records no tool.call for the denied step and does not count it against the tool budget', () => {
    const { loop } = tracedLoop({ plan: threeToolSteps, beforeToolCall: denyListed });
    loop.start();
    loop.resume({ kind: 'ok', value: null });

    const toolCalls = loop.events.filter((e) => e.kind === 'tool.call').map((e) => e.payload.stepId);
    expect(toolCalls).toEqual(['s1', 's3']);
    expect(loop.snapshot()).toMatchObject({ toolCalls: 2, turns: 2, stepErrors: { s2: 'hook_abort:tool rm_rf is deny-listed' } });
  });

  it('lets a caller with a tool budget of two finish the plan, because the denied call spent nothing', () => {
    const { loop } = tracedLoop({ plan: threeToolSteps, beforeToolCall: denyListed, budget: { maxToolCalls: 2 } });
    expect(loop.start()).toMatchObject({ payload: { stepId: 's1' } });
    expect(loop.resume({ kind: 'ok', value: 1 })).toMatchObject({ payload: { stepId: 's3', callNumber: 2 } });
    expect(loop.resume({ kind: 'ok', value: 2 })).toEqual({ kind: 'done', reason: 'goal_met' });
  });

  it('gives every step.start a matching step.end, the aborted step with outcome aborted and its error', () => {
    const { loop } = tracedLoop({ plan: threeToolSteps, beforeToolCall: denyListed });
    loop.start();
    loop.resume({ kind: 'ok', value: null });
    loop.resume({ kind: 'ok', value: null });

    expect(unpairedSteps(loop.events)).toEqual([]);
    const ends = loop.events.flatMap((e) => (e.kind === 'step.end' ? [[e.payload.stepId, e.payload.outcome, e.payload.error]] : []));
    expect(ends).toEqual([
      ['s1', 'awaiting_tool', null],
      ['s2', 'aborted', 'hook_abort:tool rm_rf is deny-listed'],
      ['s3', 'awaiting_tool', null],
    ]);
  });
});

describe('HookAbort in before_tool_call on the last step', () => {
  it('gives the caller done with reason goal_met, while the events show the denied step', () => {
    const plan = [threeToolSteps[0]!, threeToolSteps[2]!, threeToolSteps[1]!];
    const { loop, trace } = tracedLoop({ plan, beforeToolCall: denyListed });
    loop.start();
    expect(loop.resume({ kind: 'ok', value: 'a' })).toMatchObject({ payload: { stepId: 's3' } });
    trace.length = 0;

    const last = loop.resume({ kind: 'ok', value: 'b' });

    expect(last).toEqual({ kind: 'done', reason: 'goal_met' });
    expect(trace).toEqual([
      'event 15 tool.result s3 #2',
      'event 16 loop.transition awaiting_tool->reflecting',
      'event 17 loop.turn turn=2 cursor=2',
      'event 18 loop.transition reflecting->executing',
      'hook before_step s2',
      'event 19 step.start s2',
      'hook before_tool_call s2',
      'event 20 tool.error s2 hook_abort:tool rm_rf is deny-listed',
      'hook on_error s2 hook_abort:tool rm_rf is deny-listed',
      'event 21 step.end s2 aborted',
      'hook after_step s2 aborted',
      'event 22 loop.transition executing->reflecting',
      'event 23 loop.turn turn=3 cursor=3',
      'event 24 loop.transition reflecting->done',
      'event 25 loop.done goal_met',
    ]);
    expect(loop.snapshot()).toMatchObject({ state: 'done', cursor: 3, toolCalls: 2, turns: 3, stepErrors: { s2: 'hook_abort:tool rm_rf is deny-listed' } });
    expect(unpairedSteps(loop.events)).toEqual([]);
  });
});
