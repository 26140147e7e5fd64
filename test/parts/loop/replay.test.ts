/** Replay rebuilds the loop's state from its event log alone, with no hook, model or tool call. */
import { describe, expect, it } from 'vitest';
import {
  HarnessLoop,
  HookAbort,
  IllegalTransitionError,
  ReplayDivergenceError,
  replayLoop,
  type LoopEvent,
  type PullRequest,
} from '../../../kernel/src/parts/index.js';
import { threeToolSteps } from './trace.js';

function recordedRun() {
  const calls = { hooks: 0, tools: 0 };
  const count = () => {
    calls.hooks += 1;
  };
  const loop = new HarnessLoop({
    plan: threeToolSteps,
    hooks: {
      before_step: [count],
      before_tool_call: [
        ({ step }) => {
          count();
          if (step.toolName === 'rm_rf') throw new HookAbort({ reason: 'deny-listed' });
        },
      ],
      after_step: [count],
      on_error: [count],
    },
  });
  // The fake tool executor stands in for the process boundary the caller owns.
  const runTool = (request: PullRequest) => {
    calls.tools += 1;
    return { kind: 'ok', value: { ran: request.payload.toolName } } as const;
  };
  return { loop, calls, runTool };
}

function runToEnd(loop: HarnessLoop, runTool: (request: PullRequest) => Parameters<HarnessLoop['resume']>[0]): void {
  let outcome = loop.start();
  while (outcome.kind === 'pull_request') outcome = loop.resume(runTool(outcome));
}

/** Deep-copies a log and lets a test edit it; recorded events themselves are frozen. */
function editable(events: readonly LoopEvent[]): { seq: number; kind: string; payload: Record<string, unknown> }[] {
  return JSON.parse(JSON.stringify(events)) as { seq: number; kind: string; payload: Record<string, unknown> }[];
}

describe('replay of a three-step loop with a hook abort', () => {
  it('rebuilds the same final state from the events alone with zero hook and tool calls', () => {
    const { loop, calls, runTool } = recordedRun();
    runToEnd(loop, runTool);
    expect(calls).toEqual({ hooks: 10, tools: 2 });
    const live = loop.snapshot();

    const replayed = replayLoop(loop.events);

    expect(calls).toEqual({ hooks: 10, tools: 2 });
    expect(replayed).toEqual(live);
    expect(replayed).toEqual({
      state: 'done',
      cursor: 3,
      planLength: 3,
      toolCalls: 2,
      turns: 3,
      limits: { maxToolCalls: null, maxTurns: null },
      pausedOn: null,
      stepErrors: { s2: 'hook_abort:deny-listed' },
      lastSeq: 25,
    });
  });

  it('replays a log read back from JSON, and HarnessLoop.replay is the same function', () => {
    const { loop, runTool } = recordedRun();
    runToEnd(loop, runTool);
    const stored: unknown[] = JSON.parse(JSON.stringify(loop.events)) as unknown[];
    expect(HarnessLoop.replay(stored)).toEqual(loop.snapshot());
  });

  it('re-enters AWAITING_TOOL when the log ends at a pull request', () => {
    const { loop, runTool } = recordedRun();
    const first = loop.start();
    if (first.kind !== 'pull_request') throw new Error('expected a pull request');
    loop.resume(runTool(first));
    expect(replayLoop(loop.events)).toEqual(loop.snapshot());
    expect(replayLoop(loop.events)).toMatchObject({ state: 'awaiting_tool', cursor: 2, toolCalls: 2, turns: 2 });
  });
});

describe('replay of a corrupted log', () => {
  it('raises a typed divergence whose cause is the IllegalTransitionError for a transition outside the table', () => {
    const { loop, runTool } = recordedRun();
    runToEnd(loop, runTool);
    const log = editable(loop.events);
    const resumed = log.findIndex((e) => e.kind === 'loop.transition' && e.payload['from'] === 'awaiting_tool');
    log[resumed]!.payload['to'] = 'executing';

    let thrown: unknown;
    try {
      replayLoop(log);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ReplayDivergenceError);
    expect(thrown).toMatchObject({ kind: 'replay-divergence', seq: resumed + 1 });
    expect((thrown as ReplayDivergenceError).cause).toBeInstanceOf(IllegalTransitionError);
    expect((thrown as ReplayDivergenceError).cause).toMatchObject({ from: 'awaiting_tool', to: 'executing' });
  });

  it('raises for a missing event (a sequence gap)', () => {
    const { loop, runTool } = recordedRun();
    runToEnd(loop, runTool);
    const log = editable(loop.events);
    log.splice(5, 1);
    expect(() => replayLoop(log)).toThrow(expect.objectContaining({ kind: 'replay-divergence', seq: 6 }));
  });

  it('raises when a tool.call is removed and the rest renumbered, instead of entering AWAITING_TOOL', () => {
    const { loop, runTool } = recordedRun();
    runToEnd(loop, runTool);
    const log = editable(loop.events).filter((e) => e.seq !== 4);
    log.forEach((e, i) => (e.seq = i + 1));
    expect(() => replayLoop(log)).toThrow(expect.objectContaining({ kind: 'replay-divergence', detail: 'AWAITING_TOOL entered without a tool.call' }));
  });

  it('raises when a counter in the log disagrees with the replayed one', () => {
    const { loop, runTool } = recordedRun();
    runToEnd(loop, runTool);
    const log = editable(loop.events);
    const turn = log.find((e) => e.kind === 'loop.turn')!;
    turn.payload['cursor'] = 2;
    expect(() => replayLoop(log)).toThrow(expect.objectContaining({ kind: 'replay-divergence', seq: turn.seq }));
  });

  it('raises for a log truncated mid-step, for an empty log, and for a malformed event', () => {
    const { loop, runTool } = recordedRun();
    runToEnd(loop, runTool);
    const log = editable(loop.events);
    expect(() => replayLoop(log.slice(0, 3))).toThrow(expect.objectContaining({ kind: 'replay-divergence', seq: null }));
    expect(() => replayLoop([])).toThrow(ReplayDivergenceError);
    log[2]!.payload['index'] = 'zero';
    expect(() => replayLoop(log)).toThrow(expect.objectContaining({ kind: 'replay-divergence', seq: 3 }));
  });
});

describe('restore from a recorded log', () => {
  it('re-enters the recorded state and continues exactly like the original loop', () => {
    const original = recordedRun();
    const first = original.loop.start();
    if (first.kind !== 'pull_request') throw new Error('expected a pull request');
    const pending = original.loop.resume(original.runTool(first));
    if (pending.kind !== 'pull_request') throw new Error('expected a pull request');

    const restored = HarnessLoop.restore(original.loop.events);
    expect(restored.snapshot()).toEqual(original.loop.snapshot());

    const result = { kind: 'ok', value: 'written' } as const;
    expect(restored.resume(result)).toEqual(original.loop.resume(result));
    expect(restored.events).toEqual(original.loop.events);
    expect(restored.snapshot()).toEqual(original.loop.snapshot());
  });
});
