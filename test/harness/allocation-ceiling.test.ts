/**
 * The Runner's allocation, or the default where it sets none, is the platform's ceiling (seed 002: the platform
 * fixes the allocation at run entry): a run's options may narrow it, never widen it. A widening request is refused
 * before anything is recorded.
 */
import { describe, expect, it } from 'vitest';
import { AgentExecutor, DEFAULT_ALLOCATION, RunRejectedError, Runner, step } from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

const finish = () => toolCall('nh_output', { result: { kind: 'pass' } });
const runnerWith = (allocation?: ConstructorParameters<typeof Runner>[0]['allocation']) =>
  new Runner({ executor: new AgentExecutor({ model: new ScriptedModel(() => ({ toolCalls: [finish()] })) }), ...(allocation ? { allocation } : {}) });
const entryAllocation = (runner: Runner) => runner.ledger.select({ kind: 'run.entry' }).at(-1)?.data as { allocation: Record<string, number> };

describe("a run's allocation against the Runner's", () => {
  it('a run asking for more than the platform set is refused, names the limit, and records nothing', async () => {
    const runner = runnerWith({ maxExecutorSteps: 3 });
    const error = await runner.run(() => step({ program: 'execute\nGo.' }), { allocation: { maxExecutorSteps: 50 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunRejectedError);
    expect((error as RunRejectedError).reason).toBe('invalid-options');
    expect((error as Error).message).toMatch(/maxExecutorSteps 50 exceeds the platform's 3/);
    expect(runner.ledger.select({})).toEqual([]);
  });

  it('a narrower request is the run allocation, and the platform keeps the limits the run did not name', async () => {
    const runner = runnerWith({ maxExecutorSteps: 3, maxCost: 5000 });
    await runner.run(() => step({ program: 'execute\nGo.' }), { allocation: { maxExecutorSteps: 2 } });
    expect(entryAllocation(runner).allocation).toMatchObject({ maxExecutorSteps: 2, maxCost: 5000 });
  });

  it('a limit the platform left at its default has the default as its ceiling: a run may narrow it, not raise it', async () => {
    const runner = runnerWith();
    await runner.run(() => step({ program: 'execute\nGo.' }), { allocation: { maxExecutorSteps: 150 } });
    expect(entryAllocation(runner).allocation).toMatchObject({ maxExecutorSteps: 150 });
    const entries = runner.ledger.select({ kind: 'run.entry' }).length;
    for (const [key, value] of Object.entries({ maxExecutorSteps: DEFAULT_ALLOCATION.maxExecutorSteps + 1, maxCost: 1e12, maxDepth: 1000, maxOperations: 1e9, maxOperationsPerResponse: 1e6 })) {
      const error = await runner.run(() => step({ program: 'execute\nGo.' }), { allocation: { [key]: value } }).catch((e: unknown) => e);
      expect(error, key).toBeInstanceOf(RunRejectedError);
      expect((error as Error).message).toMatch(new RegExp(`${key} ${value} exceeds the platform's ${DEFAULT_ALLOCATION[key as 'maxCost']}`));
    }
    expect(runner.ledger.select({ kind: 'run.entry' }).length).toBe(entries);
    // A limit with no default is the run's to set.
    await runner.run(() => step({ program: 'execute\nGo.' }), { allocation: { maxDispatches: 3 } });
    expect(entryAllocation(runner).allocation).toMatchObject({ maxDispatches: 3 });
  });

  it("a run may not count cost another way than the platform's costOf", async () => {
    const runner = runnerWith({ costOf: (u) => 2 * ((u.inputTokens ?? 0) + (u.outputTokens ?? 0)) });
    const error = await runner.run(() => step({ program: 'execute\nGo.' }), { allocation: { costOf: () => 0 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunRejectedError);
    expect((error as Error).message).toMatch(/costOf/);
  });

  it('a non-number against a platform limit is refused too', async () => {
    const runner = runnerWith({ maxDepth: 2 });
    const error = await runner.run(() => step({ program: 'execute\nGo.' }), { allocation: { maxDepth: Number.NaN } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunRejectedError);
  });
});
