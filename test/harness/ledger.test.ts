import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ledger, SqliteLedgerStore, abortStep, accept, rejectOperation, step, type OperationDecision } from '../../kernel/src/index.js';
import { toolCall } from '../../kernel/src/testing.js';
import { finish, scriptedRunner, terminalCounts, trackedCapability } from './support.js';

function deepFrozen(value: unknown, seen = new Set<unknown>()): boolean {
  if (value === null || typeof value !== 'object' || seen.has(value)) return true;
  seen.add(value);
  if (!Object.isFrozen(value)) return false;
  return Object.values(value as Record<string, unknown>).every((v) => deepFrozen(v, seen));
}

describe('the run ledger', () => {
  it('mutating a capability argument after the call leaves the ledger unchanged', async () => {
    const { capability } = trackedCapability('store');
    const { runner } = scriptedRunner([]);
    const request = { target: 'original' };
    await runner.run(async (ctx) => {
      await ctx.invoke('store', request);
      request.target = 'mutated';
    }, { grant: { capabilities: [capability] } });
    const call = runner.ledger.select({ kind: 'capability.call' })[0]!;
    expect(call.data).toMatchObject({ arguments: { target: 'original' } });
    expect(deepFrozen(call.data)).toBe(true);
  });

  it('an unrepresentable run result still yields the terminal event with a descriptor', async () => {
    const { runner } = scriptedRunner([]);
    const hostile = new Proxy({}, { ownKeys: () => { throw new Error('no keys'); }, getPrototypeOf: () => { throw new Error('no proto'); } });
    await runner.run(async () => hostile);
    const end = runner.ledger.select({ kind: 'run.end' })[0]!;
    expect(end.status).toBe('completed');
    expect(JSON.stringify(end.data)).toContain('unrepresentable');
  });

  it('the ledger refuses a second terminal event for the same subject', () => {
    const ledger = new Ledger();
    ledger.append('run_1', { kind: 'execution.end', subjectId: 'exe_1' });
    expect(() => ledger.append('run_1', { kind: 'execution.end', subjectId: 'exe_1' })).toThrow(/already holds/);
    expect(ledger.size).toBe(1);
  });

  it('projections are deterministic filters by run, kind, status and text', async () => {
    const { runner } = scriptedRunner(() => ({ toolCalls: [toolCall('nh_evaluate', { expression: '"needle" + 1' }), finish()] }));
    const r1 = runner.start(async () => step({ program: 'execute\nGo.' }));
    await r1.result;
    await runner.run(async () => step({ program: 'execute\nGo.' }));
    const ops = runner.ledger.select({ runId: r1.runId, kind: 'operation' });
    expect(ops).toHaveLength(2);
    expect(runner.ledger.select({ runId: r1.runId, text: 'needle' })).toHaveLength(1);
    expect(runner.ledger.select({ runId: r1.runId, kind: ['run.entry', 'run.end'] }).map((e) => e.kind)).toEqual(['run.entry', 'run.end']);
    expect(runner.ledger.select({ runId: r1.runId, kind: 'operation' })).toEqual(ops);
  });

  it('persists to SQLite and reloads after the store is reopened', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'nh-ledger-')), 'ledger.db');
    const store = new SqliteLedgerStore(path);
    const { runner } = scriptedRunner([() => ({ toolCalls: [finish()] })]);
    store.attach(runner.ledger);
    const handle = runner.start(async () => step({ program: 'execute\nGo.' }));
    await handle.result;
    store.close();
    const reopened = new SqliteLedgerStore(path);
    const events = reopened.load(handle.runId);
    expect(events.map((e) => e.kind)).toEqual(runner.ledger.select({ runId: handle.runId }).map((e) => e.kind));
    reopened.close();
  });

  it('property: random runs with aborts, limit trips and throwing hooks keep one terminal event per execution and frozen snapshots', async () => {
    const behaviour = fc.constantFrom('ok', 'reject', 'abort', 'throw', 'fail');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(behaviour, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 6 }), fc.boolean(), async (script, steps, commitThrows) => {
        let n = 0;
        const plan = new Map<number, string>();
        const turns = script.map((calls) => () => ({ toolCalls: calls.map((b) => { const i = n++; plan.set(i, b); return toolCall('nh_evaluate', { expression: b === 'fail' ? `boom(${i})` : `ok(${i})` }); }) }));
        turns.push(() => ({ toolCalls: [finish()] }));
        const { runner } = scriptedRunner(turns);
        // What each event held at the moment it was appended, to compare with what it holds at the end.
        const asAppended = new Map<string, string>();
        const serialise = (data: unknown) => JSON.stringify(data, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
        runner.ledger.subscribe((e) => asAppended.set(e.eventId, serialise(e.data)));
        const decide = (expr: string | undefined): OperationDecision => {
          const b = plan.get(Number(/\((\d+)\)/.exec(expr ?? '')?.[1] ?? -1));
          if (b === 'reject') return rejectOperation('no');
          if (b === 'abort') return abortStep('stop');
          if (b === 'throw') throw new Error('hook bug');
          return accept();
        };
        await runner
          .run(async () => { await step({ program: 'execute\nGo.' }); await step({ program: 'execute\nAgain.' }); }, {
            allocation: { maxExecutorSteps: steps },
            oversight: { inspectOperation: (r) => decide(r.expression), ...(commitThrows ? { inspectStepCommit: () => { throw new Error('commit hook bug'); } } : {}) },
            grant: { references: { ok: (i: number) => i, boom: () => { throw new Error('boom'); } } },
          })
          .catch(() => undefined);
        const events = runner.ledger.events();
        const starts = events.filter((e) => e.kind === 'execution.start').map((e) => e.subjectId);
        const counts = terminalCounts(events);
        for (const id of starts) expect(counts.get(id)).toBe(1);
        expect([...counts.values()].every((c) => c === 1)).toBe(true);
        expect(events.filter((e) => e.kind === 'run.end')).toHaveLength(1);
        expect(events.every((e) => Object.isFrozen(e) && deepFrozen(e.data))).toBe(true);
        expect(events.every((e) => asAppended.get(e.eventId) === serialise(e.data))).toBe(true);
      }),
      { numRuns: 200 },
    );
  }, 60_000);
});
