/** Hooks are imperative: they may skip, abort or mutate a step. They fail closed when they misbehave. */
import { describe, expect, it } from 'vitest';
import { HarnessLoop, HookAbort, InvalidPlanError, LoopUsageError, replayLoop } from '../../../kernel/src/parts/index.js';
import { threeToolSteps, tracedLoop, unpairedSteps } from './trace.js';

describe('gate hooks', () => {
  it('a before_step skip ends the step as skipped with its reason, without before_tool_call, and counts the turn', () => {
    const { loop, trace } = tracedLoop({ plan: threeToolSteps, beforeStep: (step) => (step.id === 's1' ? { kind: 'skip', reason: 'cached' } : undefined) });
    expect(loop.start()).toMatchObject({ kind: 'pull_request', payload: { stepId: 's2', callNumber: 1 } });
    expect(trace.slice(0, 8)).toEqual([
      'event 1 loop.start s1,s2,s3',
      'event 2 loop.transition idle->executing',
      'hook before_step s1',
      'event 3 step.start s1',
      'event 4 step.end s1 skipped',
      'hook after_step s1 skipped',
      'event 5 loop.transition executing->reflecting',
      'event 6 loop.turn turn=1 cursor=1',
    ]);
    expect(loop.events[3]).toMatchObject({ kind: 'step.end', payload: { outcome: 'skipped', reason: 'cached', error: null } });
    expect(loop.snapshot().stepErrors).toEqual({});
  });

  it('a before_tool_call skip records no tool.call and no tool.error', () => {
    const { loop } = tracedLoop({ plan: threeToolSteps, beforeToolCall: () => ({ kind: 'skip', reason: 'dry run' }) });
    expect(loop.start()).toEqual({ kind: 'done', reason: 'goal_met' });
    expect(loop.events.filter((e) => e.kind === 'tool.call' || e.kind === 'tool.error')).toEqual([]);
    expect(loop.snapshot()).toMatchObject({ toolCalls: 0, turns: 3 });
  });

  it('a HookAbort in before_step aborts the step with on_error and no tool.error, then moves on', () => {
    const { loop, trace } = tracedLoop({
      plan: threeToolSteps,
      beforeStep: (step) => {
        if (step.id === 's1') throw new HookAbort({ reason: 'not now' });
      },
    });
    expect(loop.start()).toMatchObject({ kind: 'pull_request', payload: { stepId: 's2' } });
    expect(trace.slice(2, 8)).toEqual([
      'hook before_step s1',
      'event 3 step.start s1',
      'hook on_error s1 hook_abort:not now',
      'event 4 step.end s1 aborted',
      'hook after_step s1 aborted',
      'event 5 loop.transition executing->reflecting',
    ]);
    expect(loop.events.some((e) => e.kind === 'tool.error')).toBe(false);
    expect(loop.snapshot().stepErrors).toEqual({ s1: 'hook_abort:not now' });
  });

  it('a gate that throws a plain error denies the tool call (fail closed) and records hook_error', () => {
    const { loop } = tracedLoop({
      plan: [threeToolSteps[0]!],
      beforeToolCall: () => {
        throw new TypeError('boom');
      },
    });
    expect(loop.start()).toEqual({ kind: 'done', reason: 'goal_met' });
    expect(loop.events.some((e) => e.kind === 'tool.call')).toBe(false);
    expect(loop.snapshot().stepErrors).toEqual({ s1: 'hook_error:before_tool_call:TypeError: boom' });
  });

  it('a gate that returns a promise or an unknown decision fails closed', () => {
    const asyncGate = new HarnessLoop({ plan: [threeToolSteps[0]!], hooks: { before_tool_call: [(async () => undefined) as never] } });
    expect(asyncGate.start()).toEqual({ kind: 'done', reason: 'goal_met' });
    expect(asyncGate.snapshot().stepErrors['s1']).toBe('hook_error:before_tool_call:returned a promise; loop hooks are synchronous');

    const oddGate = new HarnessLoop({ plan: [threeToolSteps[0]!], hooks: { before_step: [(() => ({ kind: 'allow' })) as never] } });
    expect(oddGate.start()).toEqual({ kind: 'done', reason: 'goal_met' });
    expect(oddGate.snapshot().stepErrors['s1']).toBe('hook_error:before_step:returned an invalid decision');
  });

  it('stops at the first subscriber that aborts; later subscribers of that gate do not run', () => {
    const ran: string[] = [];
    const loop = new HarnessLoop({
      plan: [threeToolSteps[1]!],
      hooks: {
        before_tool_call: [
          () => void ran.push('first'),
          () => {
            ran.push('second');
            throw new HookAbort({ reason: 'denied' });
          },
          () => void ran.push('third'),
        ],
      },
    });
    loop.start();
    expect(ran).toEqual(['first', 'second']);
  });

  it('a before_tool_call mutation of the tool args is what tool.call records and the caller receives', () => {
    const loop = new HarnessLoop({
      plan: [threeToolSteps[0]!],
      hooks: {
        before_tool_call: [
          ({ step }) => {
            step.toolArgs = { q: 'loop', limit: 5 };
          },
        ],
      },
    });
    const pull = loop.start();
    expect(pull).toMatchObject({ kind: 'pull_request', payload: { toolArgs: { q: 'loop', limit: 5 } } });
    expect(loop.events.find((e) => e.kind === 'tool.call')?.payload).toMatchObject({ toolArgs: { q: 'loop', limit: 5 } });
    expect(Object.isFrozen((pull as { payload: { toolArgs: object } }).payload.toolArgs)).toBe(true);
  });
});

describe('after-the-fact hooks and tool errors', () => {
  it('an after_step subscriber that throws is recorded as hook.error and the loop goes on', () => {
    const loop = new HarnessLoop({
      plan: [{ id: 'a', description: 'think', requiresTool: false }, { id: 'b', description: 'more', requiresTool: false }],
      hooks: {
        after_step: [
          ({ step }) => {
            if (step.id === 'a') throw new Error('tracer down');
          },
        ],
      },
    });
    expect(loop.start()).toEqual({ kind: 'done', reason: 'goal_met' });
    const errors = loop.events.filter((e) => e.kind === 'hook.error');
    expect(errors.map((e) => e.payload)).toEqual([{ hook: 'after_step', stepId: 'a', error: 'Error: tracer down' }]);
    expect(replayLoop(loop.events)).toEqual(loop.snapshot());
  });

  it('a failed tool result sets tool_error, emits tool.error, fires on_error and moves to the next step', () => {
    const { loop, trace } = tracedLoop({ plan: threeToolSteps });
    loop.start();
    trace.length = 0;
    expect(loop.resume({ kind: 'error', error: 'timeout' })).toMatchObject({ payload: { stepId: 's2' } });
    expect(trace.slice(0, 4)).toEqual([
      'event 7 tool.error s1 tool_error:timeout',
      'hook on_error s1 tool_error:timeout',
      'event 8 loop.transition awaiting_tool->reflecting',
      'event 9 loop.turn turn=1 cursor=1',
    ]);
    expect(loop.snapshot().stepErrors).toEqual({ s1: 'tool_error:timeout' });
    expect(unpairedSteps(loop.events)).toEqual([]);
  });

  it('a hook that calls back into the loop is refused, so two drives never interleave', () => {
    let refusal: unknown;
    const loop: HarnessLoop = new HarnessLoop({
      plan: [{ id: 'a', description: 'think', requiresTool: false }],
      hooks: {
        after_step: [
          () => {
            try {
              loop.step();
            } catch (error) {
              refusal = error;
            }
          },
        ],
      },
    });
    expect(loop.start()).toEqual({ kind: 'done', reason: 'goal_met' });
    expect(refusal).toBeInstanceOf(LoopUsageError);
  });
});

describe('plan validation', () => {
  it('rejects duplicate ids and a tool step without a tool name before any event', () => {
    const dup = [threeToolSteps[0]!, threeToolSteps[0]!];
    expect(() => new HarnessLoop({ plan: dup })).toThrow(expect.objectContaining({ kind: 'invalid-plan', stepId: 's1' }));
    expect(() => new HarnessLoop({ plan: [{ id: 'x', description: 'd', requiresTool: true }] })).toThrow(InvalidPlanError);
    expect(() => new HarnessLoop({ plan: [], budget: { maxTurns: -1 } })).toThrow(InvalidPlanError);
  });
});
