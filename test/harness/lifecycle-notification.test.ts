/**
 * Seed 000: notification failures are terminal. An application step lifecycle (onStepFinished) that throws
 * fails the Natural execution, and the one terminal event the host records says so: failed, nothing
 * committed, the notification failure as its error. The ledger never claims a commit the caller never got.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentExecutor, NaturalExecutionError, Runner, abortStep, step } from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

describe('a failing step-lifecycle notification', () => {
  it('fails the execution, and its single execution.end records the failure, not the commit', async () => {
    const model = new ScriptedModel([() => ({ toolCalls: [toolCall('nh_assign', { target_path: 'out', expression: '42' }), toolCall('nh_output', { result: { kind: 'pass' } })] })]);
    const runner = new Runner({ executor: new AgentExecutor({ model }) });
    const seen: string[] = [];
    const error = await runner
      .run(async () => step({ program: 'execute\nSet <:out>.', writes: { out: z.number() }, values: { out: 0 } }), {
        oversight: {
          onStepFinished: (finished) => {
            seen.push(finished.status);
            throw new Error('lifecycle sink down');
          },
        },
      })
      .catch((e: unknown) => e);
    expect(seen).toEqual(['completed']);
    expect(error).toBeInstanceOf(NaturalExecutionError);
    expect((error as NaturalExecutionError).failure).toBe('notification_failed');
    const ends = runner.ledger.select({ kind: 'execution.end' });
    expect(ends).toHaveLength(1);
    expect(ends[0]!.status).toBe('failed');
    expect(ends[0]!.data).toMatchObject({ committed: {}, failure: 'notification_failed' });
    expect(JSON.stringify(ends[0]!.data)).toContain('lifecycle sink down');
    expect(runner.ledger.select({ kind: 'run.end' })[0]!.status).toBe('failed');
  });

  it('a lifecycle that returns normally leaves the commit recorded as before', async () => {
    const model = new ScriptedModel([() => ({ toolCalls: [toolCall('nh_assign', { target_path: 'out', expression: '42' }), toolCall('nh_output', { result: { kind: 'pass' } })] })]);
    const runner = new Runner({ executor: new AgentExecutor({ model }) });
    await runner.run(async () => step({ program: 'execute\nSet <:out>.', writes: { out: z.number() }, values: { out: 0 } }), { oversight: { onStepFinished: () => undefined } });
    const end = runner.ledger.select({ kind: 'execution.end' })[0]!;
    expect(end.status).toBe('completed');
    expect(end.data).toMatchObject({ committed: { out: 42 } });
  });

  it('also when the step had already failed (a commit abort, an operation abort): the caller still gets the typed NaturalExecutionError', async () => {
    for (const oversight of [{ inspectStepCommit: () => abortStep('no commit') }, { inspectOperation: () => abortStep('no operation') }]) {
      const model = new ScriptedModel([() => ({ toolCalls: [toolCall('nh_evaluate', { expression: '1' }), toolCall('nh_output', { result: { kind: 'pass' } })] })]);
      const runner = new Runner({ executor: new AgentExecutor({ model }) });
      let caught: unknown;
      await runner
        .run(
          async () => {
            await step({ program: 'execute\nGo.' }).catch((e: unknown) => (caught = e));
          },
          { oversight: { ...oversight, onStepFinished: () => { throw new Error('lifecycle sink down'); } } },
        )
        .catch(() => undefined);
      expect(caught).toBeInstanceOf(NaturalExecutionError);
      expect((caught as NaturalExecutionError).failure).toBe('notification_failed');
      const ends = runner.ledger.select({ kind: 'execution.end' });
      expect(ends.map((e) => [e.status, (e.data as { failure: string }).failure])).toEqual([['failed', 'notification_failed']]);
    }
  });
});

