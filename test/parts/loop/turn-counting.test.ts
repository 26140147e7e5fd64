/** Seed 004 follow-up 2: a turn is one finished step, counted in REFLECTING (which also advances the cursor). */
import { describe, expect, it } from 'vitest';
import { HarnessLoop, HookAbort } from '../../../kernel/src/parts/index.js';
import { threeToolSteps } from './trace.js';

type Moment = { at: string; state: string; turns: number; toolCalls: number; cursor: number };

function watch(loop: HarnessLoop): Moment[] {
  const moments: Moment[] = [];
  const note = (at: string) => {
    const s = loop.snapshot();
    moments.push({ at, state: s.state, turns: s.turns, toolCalls: s.toolCalls, cursor: s.cursor });
  };
  loop.subscribe('*', (event) => note(event.kind === 'loop.transition' ? `enter ${event.payload.to}` : event.kind));
  loop.hook('before_step', ({ step }) => note(`before_step ${step.id}`));
  return moments;
}

describe('turn counting', () => {
  it('counts the turn while REFLECTING and never while EXECUTING or AWAITING_TOOL', () => {
    const loop = new HarnessLoop({ plan: [threeToolSteps[0]!, { id: 'think', description: 'no tool', requiresTool: false }] });
    const moments = watch(loop);
    loop.start();
    loop.resume({ kind: 'ok', value: 'x' });

    expect(moments).toEqual([
      { at: 'loop.start', state: 'idle', turns: 0, toolCalls: 0, cursor: 0 },
      { at: 'enter executing', state: 'executing', turns: 0, toolCalls: 0, cursor: 0 },
      { at: 'before_step s1', state: 'executing', turns: 0, toolCalls: 0, cursor: 0 },
      { at: 'step.start', state: 'executing', turns: 0, toolCalls: 0, cursor: 0 },
      { at: 'tool.call', state: 'executing', turns: 0, toolCalls: 1, cursor: 0 },
      { at: 'enter awaiting_tool', state: 'awaiting_tool', turns: 0, toolCalls: 1, cursor: 0 },
      { at: 'step.end', state: 'awaiting_tool', turns: 0, toolCalls: 1, cursor: 0 },
      { at: 'tool.result', state: 'awaiting_tool', turns: 0, toolCalls: 1, cursor: 0 },
      { at: 'enter reflecting', state: 'reflecting', turns: 0, toolCalls: 1, cursor: 0 },
      { at: 'loop.turn', state: 'reflecting', turns: 1, toolCalls: 1, cursor: 1 },
      { at: 'enter executing', state: 'executing', turns: 1, toolCalls: 1, cursor: 1 },
      { at: 'before_step think', state: 'executing', turns: 1, toolCalls: 1, cursor: 1 },
      { at: 'step.start', state: 'executing', turns: 1, toolCalls: 1, cursor: 1 },
      { at: 'step.end', state: 'executing', turns: 1, toolCalls: 1, cursor: 1 },
      { at: 'enter reflecting', state: 'reflecting', turns: 1, toolCalls: 1, cursor: 1 },
      { at: 'loop.turn', state: 'reflecting', turns: 2, toolCalls: 1, cursor: 2 },
      { at: 'enter done', state: 'done', turns: 2, toolCalls: 1, cursor: 2 },
      { at: 'loop.done', state: 'done', turns: 2, toolCalls: 1, cursor: 2 },
    ]);
  });

  it('counts a turn for a denied step too, because REFLECTING is where the loop moves past it', () => {
    const loop = new HarnessLoop({
      plan: threeToolSteps,
      hooks: { before_tool_call: [() => { throw new HookAbort({ reason: 'no tools today' }); }] },
    });
    const moments = watch(loop);
    expect(loop.start()).toEqual({ kind: 'done', reason: 'goal_met' });

    const turns = moments.filter((m) => m.at === 'loop.turn').map((m) => [m.state, m.turns, m.cursor]);
    expect(turns).toEqual([
      ['reflecting', 1, 1],
      ['reflecting', 2, 2],
      ['reflecting', 3, 3],
    ]);
    expect(moments.filter((m) => m.state === 'executing').every((m) => m.turns === m.cursor)).toBe(true);
    expect(loop.snapshot()).toMatchObject({ turns: 3, toolCalls: 0 });
  });
});
