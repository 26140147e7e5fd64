import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InMemoryPerimeterAuditStore } from '../../kernel/src/harness/audit-store-memory.js';
import type { PerimeterAuditStore } from '../../kernel/src/harness/audit-store.js';
import {
  PerimeterAuditConflictError,
  PerimeterAuditRecordInvalidError,
  PerimeterAuditStoreUnavailableError,
} from '../../kernel/src/harness/errors.js';
import { SqlitePerimeterAuditStore } from '../../kernel/src/harness/sqlite-audit-store.js';
import { sampleAttempt, tempDir } from './audit-store-helpers.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

const implementations: [string, () => PerimeterAuditStore][] = [
  ['InMemoryPerimeterAuditStore', () => new InMemoryPerimeterAuditStore()],
  [
    'SqlitePerimeterAuditStore',
    () => {
      const { dir, cleanup } = tempDir();
      const store = new SqlitePerimeterAuditStore({ path: join(dir, 'audit.db') });
      cleanups.push(cleanup, () => store.close());
      return store;
    },
  ],
];

describe.each(implementations)('%s', (_name, open) => {
  it('an attempt without a completion reads as indeterminate', async () => {
    const store = open();
    const attempt = sampleAttempt();
    await store.recordAttempt(attempt);
    expect(await store.get(attempt.attemptId)).toEqual({ sequence: 1, attempt, status: 'indeterminate' });
  });

  it('a completion gives the attempt its observed status', async () => {
    const store = open();
    const ok = sampleAttempt();
    const bad = sampleAttempt();
    await store.recordAttempt(ok);
    await store.recordAttempt(bad);
    const completion = { attemptId: ok.attemptId, status: 'completed', summary: '{"deleted":true}', completedAt: ok.attemptedAt + 5 } as const;
    await store.recordCompletion(completion);
    await store.recordCompletion({ attemptId: bad.attemptId, status: 'failed', summary: '"EACCES"', completedAt: 1 });
    expect(await store.get(ok.attemptId)).toEqual({ sequence: 1, attempt: ok, status: 'completed', completion });
    expect((await store.get(bad.attemptId))?.status).toBe('failed');
  });

  it('returned entries are frozen', async () => {
    const store = open();
    const attempt = sampleAttempt();
    await store.recordAttempt(attempt);
    const entry = (await store.get(attempt.attemptId))!;
    expect(Object.isFrozen(entry) && Object.isFrozen(entry.attempt) && Object.isFrozen(entry.attempt.footprint)).toBe(true);
  });

  it('list returns entries in sequence order and filters by run, capability, status and position', async () => {
    const store = open();
    const a = sampleAttempt({ runId: 'run_a', capability: 'http_post', footprint: ['egress'] });
    const b = sampleAttempt({ runId: 'run_b', executionId: 'exec_1' });
    const c = sampleAttempt({ runId: 'run_a', dispatchNodeId: 'node_1', footprint: ['durable_write_back', 'destructive'] });
    for (const attempt of [a, b, c]) await store.recordAttempt(attempt);
    await store.recordCompletion({ attemptId: a.attemptId, status: 'completed', summary: 'null', completedAt: 1 });
    const ids = async (filter?: Parameters<PerimeterAuditStore['list']>[0]) =>
      (await store.list(filter)).map((entry) => entry.attempt.attemptId);
    expect(await ids()).toEqual([a.attemptId, b.attemptId, c.attemptId]);
    expect(await ids({ runId: 'run_a' })).toEqual([a.attemptId, c.attemptId]);
    expect(await ids({ capability: 'http_post' })).toEqual([a.attemptId]);
    expect(await ids({ status: 'indeterminate' })).toEqual([b.attemptId, c.attemptId]);
    expect(await ids({ status: 'completed' })).toEqual([a.attemptId]);
    expect(await ids({ executionId: 'exec_1' })).toEqual([b.attemptId]);
    expect(await ids({ dispatchNodeId: 'node_1' })).toEqual([c.attemptId]);
    expect(await ids({ afterSequence: 1, limit: 1 })).toEqual([b.attemptId]);
  });

  it('a second attempt with the same id is refused and the first is kept', async () => {
    const store = open();
    const attempt = sampleAttempt();
    await store.recordAttempt(attempt);
    await expect(async () => store.recordAttempt({ ...attempt, capability: 'other' })).rejects.toMatchObject({
      kind: 'perimeter-audit-conflict',
      reason: 'duplicate-attempt',
      attemptId: attempt.attemptId,
    });
    expect((await store.get(attempt.attemptId))?.attempt.capability).toBe(attempt.capability);
  });

  it('a completion for an unknown attempt is refused', async () => {
    const store = open();
    await expect(async () =>
      store.recordCompletion({ attemptId: 'pa_missing', status: 'completed', summary: 'null', completedAt: 1 }),
    ).rejects.toBeInstanceOf(PerimeterAuditConflictError);
    expect(await store.list()).toEqual([]);
  });

  it('a second completion is refused and the first status stands', async () => {
    const store = open();
    const attempt = sampleAttempt();
    await store.recordAttempt(attempt);
    await store.recordCompletion({ attemptId: attempt.attemptId, status: 'failed', summary: 'null', completedAt: 1 });
    await expect(async () =>
      store.recordCompletion({ attemptId: attempt.attemptId, status: 'completed', summary: 'null', completedAt: 2 }),
    ).rejects.toMatchObject({ reason: 'duplicate-completion' });
    expect((await store.get(attempt.attemptId))?.status).toBe('failed');
  });

  it.each([
    ['an empty footprint', { footprint: [] }],
    ['a non-perimeter footprint class', { footprint: ['read_only'] }],
    ['repeated footprint classes', { footprint: ['egress', 'egress'] }],
    ['arguments that are not JSON text', { arguments: '{oops' }],
    ['an unknown field', { extra: 1 }],
    ['a missing run id', { runId: '' }],
    ['a fractional timestamp', { attemptedAt: 1.5 }],
  ])('an attempt with %s is refused with a typed error and not stored', async (_label, patch) => {
    const store = open();
    const invalid = { ...sampleAttempt(), ...patch } as unknown as Parameters<PerimeterAuditStore['recordAttempt']>[0];
    await expect(async () => store.recordAttempt(invalid)).rejects.toBeInstanceOf(PerimeterAuditRecordInvalidError);
    expect(await store.list()).toEqual([]);
  });

  it('a completion with a status other than completed or failed is refused', async () => {
    const store = open();
    const attempt = sampleAttempt();
    await store.recordAttempt(attempt);
    const invalid = { attemptId: attempt.attemptId, status: 'indeterminate', summary: 'null', completedAt: 1 } as never;
    await expect(async () => store.recordCompletion(invalid)).rejects.toMatchObject({ kind: 'perimeter-audit-record-invalid', record: 'completion' });
    expect((await store.get(attempt.attemptId))?.status).toBe('indeterminate');
  });

  it('a closed store refuses every operation with a typed error', async () => {
    const store = open();
    await store.close();
    await expect(async () => store.recordAttempt(sampleAttempt())).rejects.toBeInstanceOf(PerimeterAuditStoreUnavailableError);
    await expect(async () => store.list()).rejects.toMatchObject({ reason: 'closed', operation: 'list' });
  });
});

describe('store durability flags', () => {
  it('the in-memory store declares itself experimental and not durable; the SQLite store is durable', () => {
    const memory = new InMemoryPerimeterAuditStore();
    expect(memory.durable).toBe(false);
    expect(memory.experimental).toBe(true);
    const { dir, cleanup } = tempDir();
    const sqlite = new SqlitePerimeterAuditStore({ path: join(dir, 'a.db') });
    expect(sqlite.durable).toBe(true);
    sqlite.close();
    cleanup();
  });
});
