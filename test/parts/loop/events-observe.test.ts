/** Events only record: observers cannot change the loop, and an observer that throws is isolated and recorded. */
import { describe, expect, it } from 'vitest';
import { HarnessLoop, HookAbort, type LoopEvent, type PullRequest } from '../../../kernel/src/parts/index.js';
import { threeToolSteps } from './trace.js';

const hooks = {
  before_tool_call: [
    ({ step }: { step: { toolName: string | null } }) => {
      if (step.toolName === 'rm_rf') throw new HookAbort({ reason: 'deny' });
    },
  ],
};

function drive(loop: HarnessLoop): void {
  let outcome = loop.start();
  while (outcome.kind === 'pull_request') outcome = loop.resume({ kind: 'ok', value: (outcome as PullRequest).payload.stepId });
}

describe('event observers', () => {
  it('a throwing subscriber and a throwing sink leave the event log identical to an unobserved run', () => {
    const quiet = new HarnessLoop({ plan: threeToolSteps, hooks });
    drive(quiet);

    const noisy = new HarnessLoop({
      plan: threeToolSteps,
      hooks,
      onEvent: (event) => {
        if (event.kind === 'tool.error') throw new Error('ledger unavailable');
      },
    });
    noisy.subscribe('step.start', () => {
      throw new Error('tracer bug');
    });
    drive(noisy);

    expect(noisy.events).toEqual(quiet.events);
    expect(noisy.snapshot()).toEqual(quiet.snapshot());
    expect(noisy.subscriberFailures).toEqual([
      { seq: 3, eventKind: 'step.start', observer: 'subscriber', error: 'Error: tracer bug' },
      { seq: 11, eventKind: 'step.start', observer: 'subscriber', error: 'Error: tracer bug' },
      { seq: 12, eventKind: 'tool.error', observer: 'sink', error: 'Error: ledger unavailable' },
      { seq: 17, eventKind: 'step.start', observer: 'subscriber', error: 'Error: tracer bug' },
    ]);
  });

  it('delivers frozen events: a subscriber that tries to edit one changes nothing', () => {
    const loop = new HarnessLoop({ plan: threeToolSteps, hooks });
    loop.subscribe('tool.call', (event) => {
      (event.payload as { toolName: string }).toolName = 'something_else';
    });
    drive(loop);
    expect(loop.events.filter((e) => e.kind === 'tool.call').map((e) => e.payload.toolName)).toEqual(['search', 'write_file']);
    expect(loop.subscriberFailures.map((f) => f.eventKind)).toEqual(['tool.call', 'tool.call']);
  });

  it('the onEvent sink sees every event once, in sequence order, with JSON payloads', () => {
    const seen: LoopEvent[] = [];
    const loop = new HarnessLoop({ plan: threeToolSteps, hooks, onEvent: (event) => void seen.push(event) });
    drive(loop);
    expect(seen).toEqual(loop.events);
    expect(seen.map((e) => e.seq)).toEqual(seen.map((_, i) => i + 1));
    expect(JSON.parse(JSON.stringify(seen))).toEqual(seen);
  });

  it('a subscriber that calls resume is refused and the refusal is recorded, not thrown into the loop', () => {
    const loop: HarnessLoop = new HarnessLoop({ plan: threeToolSteps });
    loop.subscribe('tool.call', () => {
      loop.resume({ kind: 'ok', value: 'sneaky' });
    });
    expect(loop.start()).toMatchObject({ kind: 'pull_request', payload: { stepId: 's1' } });
    expect(loop.subscriberFailures).toEqual([{ seq: 4, eventKind: 'tool.call', observer: 'subscriber', error: expect.stringContaining('LoopUsageError') }]);
    expect(loop.events.some((e) => e.kind === 'tool.result')).toBe(false);
  });

  it('records a tool argument JSON cannot carry as an unserialisable descriptor instead of failing', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    const loop = new HarnessLoop({
      plan: [threeToolSteps[0]!],
      hooks: { before_tool_call: [({ step }) => void (step.toolArgs = cyclic as never)] },
    });
    const pull = loop.start();
    expect(pull).toMatchObject({ payload: { toolArgs: { $kind: 'unserialisable' } } });
  });
});
