import { describe, expect, it } from 'vitest';
import { Runner, RunRejectedError, Session, step, type StepExecutor, Pass } from '../../kernel/src/index.js';
import { finish, memoryStore, scriptedRunner } from './support.js';

describe('run entry', () => {
  it('a run whose policy permits perimeter effects and names no store is rejected before admission', () => {
    const { runner } = scriptedRunner([], { platformPolicy: ['egress'] });
    expect(() => runner.start(async () => 1)).toThrow(RunRejectedError);
    expect(runner.ledger.size).toBe(0);
  });

  it('a composition narrowing the policy to nothing needs no store', async () => {
    const { runner } = scriptedRunner([], { platformPolicy: ['egress'] });
    await expect(runner.run(async () => 7, { policy: [] })).resolves.toBe(7);
  });

  it('the effective policy is the intersection of platform and composition policies', async () => {
    const { runner } = scriptedRunner([], { platformPolicy: ['egress', 'destructive'], perimeterAuditStore: memoryStore() });
    await runner.run(async () => 1, { policy: ['egress', 'durable_write_back'] });
    const entry = runner.ledger.select({ kind: 'run.entry' })[0]!;
    expect(entry.data).toMatchObject({ platformPolicy: ['egress', 'destructive'], effectivePolicy: ['egress'] });
  });

  it('the run-entry event records the executor-step observation mode and no confinement', async () => {
    const { runner } = scriptedRunner([() => ({ toolCalls: [finish()] })]);
    await runner.run(async () => step({ program: 'execute\nGo.' }));
    expect(runner.ledger.select({ kind: 'run.entry' })[0]!.data).toMatchObject({ executorStepObservation: 'adapter', confinementIdentity: null });
  });

  it('aggregate accounting without the platform flag is refused at entry', async () => {
    const custom: StepExecutor = { runStep: async () => ({ outcome: Pass }) };
    expect(() => new Runner({ executor: custom }).start(async () => 1)).toThrow(/acceptsAggregateExecutorAccounting/);
    const runner = new Runner({ executor: custom, acceptsAggregateExecutorAccounting: true });
    await runner.run(async () => step({ program: 'execute\nGo.' }));
    expect(runner.ledger.select({ kind: 'run.entry' })[0]!.data).toMatchObject({ executorStepObservation: 'aggregate' });
  });

  it('every run has exactly one run.end event, completed or failed', async () => {
    const { runner } = scriptedRunner([]);
    await runner.run(async () => 1);
    await runner.run(async () => { throw new Error('boom'); }).catch(() => undefined);
    const ends = runner.ledger.select({ kind: 'run.end' });
    expect(ends.map((e) => e.status)).toEqual(['completed', 'failed']);
  });
});

describe('one rejection style at run entry', () => {
  it('runner.run() never throws synchronously: an entry rejection rejects the returned promise', async () => {
    const { runner } = scriptedRunner([], { platformPolicy: ['egress'] });
    let result: Promise<unknown> | undefined;
    expect(() => {
      result = runner.run(async () => 1);
    }).not.toThrow();
    await expect(result).rejects.toBeInstanceOf(RunRejectedError);
    await expect(result).rejects.toMatchObject({ reason: 'missing-audit-store' });
    expect(runner.ledger.size).toBe(0);
  });

  it('a SessionFunction and runner.run() reject the same entry condition the same way', async () => {
    const custom: StepExecutor = { runStep: async () => ({ outcome: Pass }) };
    const session = new Session({ executor: custom });
    const submission = session.submit('async function work() { return 1; }');
    const { work } = session.materialized(submission, { work: async () => 1 });
    const viaSession = await work!().then(() => 'resolved', (e: unknown) => e);
    const viaRunner = await session.runner.run(async () => 1).then(() => 'resolved', (e: unknown) => e);
    expect(viaSession).toBeInstanceOf(RunRejectedError);
    expect(viaRunner).toBeInstanceOf(RunRejectedError);
    expect((viaRunner as RunRejectedError).reason).toBe((viaSession as RunRejectedError).reason);
  });
});
