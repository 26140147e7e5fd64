import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { InMemoryPerimeterAuditStore } from '../../kernel/src/harness/audit-store-memory.js';
import { admitPerimeterEffect, createPerimeterAttempt, type PerimeterCompletion } from '../../kernel/src/harness/audit-store.js';
import { PerimeterAttemptNotRecordedError, PerimeterCompletionNotRecordedError } from '../../kernel/src/harness/errors.js';
import { SqlitePerimeterAuditStore } from '../../kernel/src/harness/sqlite-audit-store.js';
import { sampleAttempt, tempDir } from './audit-store-helpers.js';

/** A platform store whose storage is down: the boundary the host must fail closed at. */
class RefusingStore extends InMemoryPerimeterAuditStore {
  constructor(private readonly mode: 'throw' | 'reject') {
    super();
  }
  override recordAttempt(): void {
    if (this.mode === 'throw') throw new Error('disk full');
    return Promise.reject(new Error('disk full')) as unknown as void;
  }
}

class CompletionRefusingStore extends InMemoryPerimeterAuditStore {
  override recordCompletion(_completion: PerimeterCompletion): void {
    throw new Error('connection lost');
  }
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

describe('admitPerimeterEffect', () => {
  it.each(['throw', 'reject'] as const)('a store whose recordAttempt fails (%s) means the effect is never attempted', async (mode) => {
    const store = new RefusingStore(mode);
    let effectCalls = 0;
    const attempt = sampleAttempt();
    const outcome = admitPerimeterEffect(store, attempt, () => {
      effectCalls++;
      return 'deleted';
    });
    await expect(outcome).rejects.toBeInstanceOf(PerimeterAttemptNotRecordedError);
    await expect(outcome).rejects.toMatchObject({ attemptId: attempt.attemptId, capability: 'delete_file', cause: { message: 'disk full' } });
    expect(effectCalls).toBe(0);
  });

  it('a SQLite store that cannot write (locked by another connection) means the effect is never attempted', async () => {
    const { dir, cleanup } = tempDir();
    const path = join(dir, 'audit.db');
    const store = new SqlitePerimeterAuditStore({ path, busyTimeoutMs: 0 });
    const blocker = new Database(path);
    cleanups.push(cleanup, () => store.close(), () => blocker.close());
    blocker.exec('BEGIN IMMEDIATE');
    let effectCalls = 0;
    await expect(admitPerimeterEffect(store, sampleAttempt(), () => effectCalls++)).rejects.toMatchObject({
      kind: 'perimeter-attempt-not-recorded',
      cause: { kind: 'perimeter-audit-store-unavailable' },
    });
    expect(effectCalls).toBe(0);
    blocker.exec('ROLLBACK');
  });

  it('the attempt is stored before the effect starts, and the completion after it', async () => {
    const store = new InMemoryPerimeterAuditStore();
    const attempt = sampleAttempt();
    const seenDuringEffect = await admitPerimeterEffect(store, attempt, () => store.get(attempt.attemptId)?.status);
    expect(seenDuringEffect).toBe('indeterminate');
    expect(store.get(attempt.attemptId)).toMatchObject({ status: 'completed', completion: { summary: '"indeterminate"' } });
  });

  it('an effect that throws is recorded as failed and its error propagates unchanged', async () => {
    const store = new InMemoryPerimeterAuditStore();
    const attempt = sampleAttempt();
    const failure = new RangeError('remote said no');
    await expect(
      admitPerimeterEffect(store, attempt, async () => {
        throw failure;
      }),
    ).rejects.toBe(failure);
    const entry = store.get(attempt.attemptId)!;
    expect(entry.status).toBe('failed');
    expect(JSON.parse(entry.completion!.summary)).toMatchObject({ $kind: 'error', name: 'RangeError', message: 'remote said no' });
  });

  it('summarizeResult chooses what the completion records', async () => {
    const store = new InMemoryPerimeterAuditStore();
    const attempt = sampleAttempt();
    const result = await admitPerimeterEffect(store, attempt, () => ({ status: 201, body: 'x'.repeat(10) }), {
      summarizeResult: (r) => ({ status: r.status }),
      now: () => 42,
    });
    expect(result.status).toBe(201);
    expect(store.get(attempt.attemptId)?.completion).toEqual({ attemptId: attempt.attemptId, status: 'completed', summary: '{"status":201}', completedAt: 42 });
  });

  it('a completion that cannot be written leaves the attempt indeterminate and surfaces a typed error with the result', async () => {
    const store = new CompletionRefusingStore();
    const attempt = sampleAttempt();
    await expect(admitPerimeterEffect(store, attempt, () => 'sent')).rejects.toSatisfy(
      (error) => error instanceof PerimeterCompletionNotRecordedError && error.observed === 'completed' && error.result === 'sent',
    );
    expect(store.get(attempt.attemptId)?.status).toBe('indeterminate');
  });
});

describe('createPerimeterAttempt', () => {
  it('snapshots the arguments, so mutating them afterwards does not rewrite the record', () => {
    const args = { paths: ['/a'], options: { force: false } };
    const attempt = createPerimeterAttempt({ runId: 'run_1', capability: 'rm', footprint: ['destructive'], arguments: args });
    args.paths.push('/b');
    args.options.force = true;
    expect(JSON.parse(attempt.arguments)).toEqual({ paths: ['/a'], options: { force: false } });
    expect(attempt.attemptId).toMatch(/^pa_/);
    expect(Object.isFrozen(attempt)).toBe(true);
  });

  it('arguments JSON cannot carry are tagged rather than lost', () => {
    const attempt = createPerimeterAttempt({ runId: 'r', capability: 'c', footprint: ['egress'], arguments: { n: 10n, u: undefined } });
    expect(JSON.parse(attempt.arguments)).toEqual({ n: { $kind: 'bigint', value: '10' }, u: { $kind: 'undefined' } });
  });
});
