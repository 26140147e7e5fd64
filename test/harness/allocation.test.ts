import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AllocationExhaustedError, NaturalExecutionError, Pass, Runner, step, type StepExecutor } from '../../kernel/src/index.js';
import { toolCall } from '../../kernel/src/testing.js';
import { finish, scriptedRunner } from './support.js';

describe('opaque allocation', () => {
  it('an allocation of N steps admits exactly N model requests and the scripted model is called N times', async () => {
    const { runner, model } = scriptedRunner(() => ({ toolCalls: [toolCall('nh_evaluate', { expression: '1' })] }));
    const error = await runner.run(async () => step({ program: 'execute\nLoop forever.' }), { allocation: { maxExecutorSteps: 3 } }).catch((e: unknown) => e);
    expect(model.requestCount).toBe(3);
    expect(error).toBeInstanceOf(NaturalExecutionError);
    expect((error as NaturalExecutionError).failure).toBe('allocation_exhausted');
    expect((error as NaturalExecutionError).cause).toBeInstanceOf(AllocationExhaustedError);
    expect(runner.ledger.select({ kind: 'allocation.exhausted' })).toHaveLength(1);
  });

  it("a cost function answering something other than a number fails closed: the allocation is spent, not a text total that never exceeds", async () => {
    const { runner, model } = scriptedRunner(() => ({ toolCalls: [toolCall('nh_evaluate', { expression: '1' })], usage: { inputTokens: 1, outputTokens: 1 } }));
    const error = await runner
      .run(async () => step({ program: 'execute\nLoop.' }), { allocation: { maxCost: 10, maxExecutorSteps: 50, costOf: (() => '0') as unknown as () => number } })
      .catch((e: unknown) => e);
    expect((error as NaturalExecutionError).failure).toBe('allocation_exhausted');
    expect(model.requestCount).toBe(1);
    expect(runner.ledger.select({ kind: 'allocation.exhausted' }).map((e) => e.status)).toEqual(['cost']);
  });

  it('exhaustion mid-step commits no write binding', async () => {
    const { runner } = scriptedRunner(() => ({ toolCalls: [toolCall('nh_assign', { target_path: 'out', expression: '5' })] }));
    const result = await runner
      .run(async () => step({ program: 'execute\nSet <:out>.', writes: { out: z.number() } }), { allocation: { maxExecutorSteps: 2 } })
      .catch((e: unknown) => e);
    expect(result).toBeInstanceOf(NaturalExecutionError);
    const end = runner.ledger.select({ kind: 'execution.end' })[0]!;
    expect(end.status).toBe('failed');
    expect(end.data).toMatchObject({ committed: {} });
  });

  it('recursion depth is admitted before a nested Natural execution starts', async () => {
    const inner = async () => step({ program: 'execute\nInner.' });
    const { runner, model } = scriptedRunner((_m, info) =>
      info.requestNumber === 1 ? { toolCalls: [toolCall('nh_evaluate', { expression: 'inner()' }), finish()] } : { toolCalls: [finish()] },
    );
    await runner.run(async () => step({ program: 'execute\nCall inner.', references: { inner } }), { allocation: { maxDepth: 1 } });
    const ops = runner.ledger.select({ kind: 'operation' });
    expect(ops[0]!.status).toBe('failed');
    expect(JSON.stringify(ops[0]!.data)).toContain('recursion-depth');
    expect(model.requestCount).toBe(1);
  });

  it('aggregate accounting: an overshoot is allocation_exhausted and the write set is not committed', async () => {
    const { currentUsageMeter } = await import('../../kernel/src/index.js');
    const greedy: StepExecutor = {
      async runStep() {
        currentUsageMeter()!.record({ inputTokens: 600, outputTokens: 600, requests: 1 });
        return { outcome: Pass, bindings: { out: 1 } };
      },
    };
    const runner = new Runner({ executor: greedy, acceptsAggregateExecutorAccounting: true });
    const error = await runner.run(async () => step({ program: 'execute\nSet <:out>.', writes: { out: z.number() } }), { allocation: { maxCost: 1000 } }).catch((e: unknown) => e);
    expect((error as NaturalExecutionError).failure).toBe('allocation_exhausted');
    expect(runner.ledger.select({ kind: 'execution.end' })[0]!.data).toMatchObject({ committed: {} });
  });

  it('aggregate accounting: executions that fail after consuming are accounted too, so a later one cannot commit past the allocation', async () => {
    const { currentUsageMeter } = await import('../../kernel/src/index.js');
    let n = 0;
    const flaky: StepExecutor = {
      async runStep() {
        n++;
        currentUsageMeter()!.record({ inputTokens: 400, outputTokens: 400, requests: 1 });
        if (n <= 3) throw new Error(`provider error after consuming (execution ${n})`);
        return { outcome: Pass, bindings: { out: 1 } };
      },
    };
    const runner = new Runner({ executor: flaky, acceptsAggregateExecutorAccounting: true });
    const set = () => step({ program: 'execute\nSet <:out>.', writes: { out: z.number() } });
    const error = await runner
      .run(async () => {
        for (let i = 0; i < 3; i++) await set().catch(() => undefined);
        return set();
      }, { allocation: { maxCost: 1000, maxExecutorSteps: 2 } })
      .catch((e: unknown) => e);
    expect((error as NaturalExecutionError).failure).toBe('allocation_exhausted');
    const ends = runner.ledger.select({ kind: 'execution.end' });
    expect(ends.map((e) => e.status)).toEqual(['failed', 'failed', 'failed', 'failed']);
    expect(ends[3]!.data).toMatchObject({ committed: {}, failure: 'allocation_exhausted' });
    // The second failed execution took the run past 1,000 (2 × 800): that is when the overshoot is recorded.
    const exhausted = runner.ledger.select({ kind: 'allocation.exhausted' });
    expect(exhausted[0]!.subjectId).toBe(ends[1]!.subjectId);
  });

  it('the allocation never appears in a prompt', async () => {
    let prompts = '';
    const { runner } = scriptedRunner((messages) => {
      prompts += messages.map((m) => ('content' in m ? m.content : '')).join('\n');
      return { toolCalls: [finish()] };
    });
    await runner.run(async () => step({ program: 'execute\nGo.' }), { allocation: { maxOperations: 4242, maxCost: 987654 } });
    expect(prompts).not.toContain('4242');
    expect(prompts).not.toContain('987654');
  });
});
