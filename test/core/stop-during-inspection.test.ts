/**
 * Seed 000: "Host stops and exhausted limits remain effective even if another output candidate was accepted
 * earlier in that response." A stop that arrives while an asynchronous inspector decides wins over the
 * inspector's Accept: the operation body does not start (its record says aborted), and the step commits nothing.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentExecutor, StepAbortedError, accept, run, scope, step, type Oversight } from '../../kernel/src/index.js';
import { ScriptedModel, toolCall, type ScriptedTurn } from '../../kernel/src/testing.js';
import { finish, recorder } from './helpers.js';

async function runStopped(turns: ScriptedTurn[], oversight: (stop: () => void) => Oversight, spec: Parameters<typeof step>[0], references: Record<string, unknown> = {}) {
  const controller = new AbortController();
  const rec = recorder();
  const model = new ScriptedModel(turns);
  const result = await run(
    new AgentExecutor({ model }),
    () => scope({ taskReferences: references, oversight: { ...oversight(() => controller.abort(new Error('operator stop'))), onOperationFinished: rec.onOperationFinished, onStepFinished: rec.onStepFinished } }, () => step(spec)),
    { signal: controller.signal },
  ).then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  return { result, model, ...rec };
}

describe('a host stop while an asynchronous inspector decides', () => {
  it('inspectOperation accepts after the stop: the body never starts and the operation is recorded aborted', async () => {
    let bodyRan = false;
    const out = await runStopped(
      [() => ({ toolCalls: [toolCall('nh_evaluate', { expression: 'effect()' }), finish({ kind: 'pass' })] })],
      (stop) => ({
        inspectOperation: async () => {
          stop();
          await null;
          return accept();
        },
      }),
      { program: 'execute\nGo.' },
      { effect: () => (bodyRan = true) },
    );
    expect(bodyRan).toBe(false);
    expect(out.result.ok).toBe(false);
    expect((out.result as { error: unknown }).error).toBeInstanceOf(StepAbortedError);
    expect(out.operations.map((o) => `${o.request.kind}:${o.status}`)).toEqual(['evaluate:aborted', 'output:skipped']);
    expect(out.steps.map((s) => s.status)).toEqual(['failed']);
  });

  it('inspectStepCommit accepts after the stop: nothing is committed and the step ends aborted', async () => {
    const out = await runStopped(
      [() => ({ toolCalls: [toolCall('nh_assign', { target_path: 'x', expression: '1' }), finish({ kind: 'pass' })] })],
      (stop) => ({
        inspectStepCommit: async () => {
          stop();
          await null;
          return accept();
        },
      }),
      { program: 'execute\nSet <:x>.', writes: { x: z.number() }, values: { x: 0 } },
    );
    expect(out.result.ok).toBe(false);
    expect((out.result as { error: unknown }).error).toBeInstanceOf(StepAbortedError);
    expect(out.steps).toHaveLength(1);
    expect(out.steps[0]!.status).toBe('failed');
    expect(out.steps[0]!.committedBindings).toEqual({});
  });
});
