/** Property: for random plans, hook decisions, tool results and budgets, replay equals the live state and steps pair. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HarnessLoop, HookAbort, replayLoop, type LoopOutcome, type LoopSnapshot, type PlanStep } from '../../../kernel/src/parts/index.js';
import { unpairedSteps } from './trace.js';

const gateAction = fc.constantFrom('continue', 'continue', 'continue', 'skip', 'abort', 'throw');
const toolGateAction = fc.constantFrom('continue', 'continue', 'continue', 'skip', 'abort', 'throw', 'promise');

const scenario = fc.record({
  steps: fc.array(
    fc.record({
      requiresTool: fc.boolean(),
      beforeStep: gateAction,
      beforeToolCall: toolGateAction,
      toolFails: fc.boolean(),
      afterStepThrows: fc.boolean(),
    }),
    { maxLength: 6 },
  ),
  maxToolCalls: fc.option(fc.nat({ max: 4 }), { nil: null }),
  maxTurns: fc.option(fc.nat({ max: 6 }), { nil: null }),
  onPause: fc.array(fc.constantFrom('raise', 'retry-exhausted', 'stop'), { maxLength: 8 }),
  illegalStepWhileAwaiting: fc.boolean(),
  throwingSubscriber: fc.boolean(),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

function gate(action: string) {
  switch (action) {
    case 'skip':
      return { kind: 'skip', reason: 'random skip' } as const;
    case 'abort':
      throw new HookAbort({ reason: 'random abort' });
    case 'throw':
      throw new Error('random failure');
    case 'promise':
      return Promise.resolve() as never;
    default:
      return undefined;
  }
}

/** Runs a scenario and returns the loop plus (event count, snapshot) at every point control returned to the caller. */
function run(s: Scenario): { loop: HarnessLoop; boundaries: [number, LoopSnapshot][] } {
  const plan: PlanStep[] = s.steps.map((step, i) => ({ id: `s${i}`, description: `step ${i}`, requiresTool: step.requiresTool, toolName: step.requiresTool ? `tool${i}` : null, toolArgs: { i } }));
  const behaviour = (id: string) => s.steps[Number(id.slice(1))]!;
  const loop = new HarnessLoop({
    plan,
    budget: { maxToolCalls: s.maxToolCalls, maxTurns: s.maxTurns },
    hooks: {
      before_step: [({ step }) => gate(behaviour(step.id).beforeStep)],
      before_tool_call: [({ step }) => gate(behaviour(step.id).beforeToolCall)],
      after_step: [
        ({ step }) => {
          if (behaviour(step.id).afterStepThrows) throw new Error('after_step failure');
        },
      ],
    },
  });
  if (s.throwingSubscriber) loop.subscribe('*', () => { throw new Error('observer failure'); });
  const boundaries: [number, LoopSnapshot][] = [];
  const mark = () => boundaries.push([loop.events.length, loop.snapshot()]);
  const pauses = [...s.onPause];
  let outcome: LoopOutcome = loop.start();
  mark();
  for (let guard = 0; guard < 100; guard++) {
    if (outcome.kind === 'done') break;
    if (outcome.kind === 'pull_request') {
      if (s.illegalStepWhileAwaiting) {
        const before = loop.snapshot();
        expect(() => loop.step()).toThrow(expect.objectContaining({ kind: 'illegal-transition' }));
        expect(loop.snapshot()).toEqual(before);
      }
      const fails = behaviour(outcome.payload.stepId).toolFails;
      outcome = loop.resume(fails ? { kind: 'error', error: 'tool failed' } : { kind: 'ok', value: outcome.payload.callNumber });
    } else {
      const action = pauses.shift() ?? 'stop';
      if (action === 'stop') break;
      if (action === 'raise') {
        const limits = loop.snapshot().limits;
        loop.setBudget(outcome.budget === 'tool_calls' ? { ...limits, maxToolCalls: (limits.maxToolCalls ?? 0) + 2 } : { ...limits, maxTurns: (limits.maxTurns ?? 0) + 2 });
      }
      outcome = loop.step();
    }
    mark();
  }
  return { loop, boundaries };
}

describe('replay property', () => {
  it('replaying the events at every caller boundary rebuilds the live state, and every step.start has a step.end', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const { loop, boundaries } = run(s);
        const events = loop.events;
        for (const [length, snapshot] of boundaries) expect(replayLoop(events.slice(0, length))).toEqual(snapshot);
        expect(replayLoop(events)).toEqual(loop.snapshot());
        expect(unpairedSteps(events)).toEqual([]);
        const called = events.flatMap((e) => (e.kind === 'tool.call' ? [e.payload.stepId] : []));
        expect(called).toHaveLength(loop.snapshot().toolCalls);
        for (const [stepId, error] of Object.entries(loop.snapshot().stepErrors)) {
          if (error.startsWith('hook_')) expect(called).not.toContain(stepId);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
