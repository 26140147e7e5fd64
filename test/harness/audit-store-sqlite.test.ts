import { statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../kernel/src/core/index.js';
import { PerimeterAuditStoreUnavailableError } from '../../kernel/src/harness/errors.js';
import { SqlitePerimeterAuditStore } from '../../kernel/src/harness/sqlite-audit-store.js';
import { sampleAttempt, tempDir } from './audit-store-helpers.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});
function dbPath(): string {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  return join(dir, 'audit.db');
}

describe('SqlitePerimeterAuditStore', () => {
  it('reopening the same file shows every attempt and completion', () => {
    const path = dbPath();
    const first = new SqlitePerimeterAuditStore({ path });
    const done = sampleAttempt();
    const open = sampleAttempt({ footprint: ['egress'], executionId: 'exec_9' });
    first.recordAttempt(done);
    first.recordCompletion({ attemptId: done.attemptId, status: 'completed', summary: '{"ok":1}', completedAt: 7 });
    first.recordAttempt(open);
    first.close();

    const second = new SqlitePerimeterAuditStore({ path });
    cleanups.push(() => second.close());
    expect(second.list()).toEqual([
      { sequence: 1, attempt: done, status: 'completed', completion: { attemptId: done.attemptId, status: 'completed', summary: '{"ok":1}', completedAt: 7 } },
      { sequence: 2, attempt: open, status: 'indeterminate' },
    ]);
  });

  it('a record is visible to another connection as soon as recordAttempt returns', () => {
    const path = dbPath();
    const store = new SqlitePerimeterAuditStore({ path });
    cleanups.push(() => store.close());
    const attempt = sampleAttempt();
    store.recordAttempt(attempt);
    const reader = new Database(path, { readonly: true });
    try {
      expect(reader.prepare('SELECT attempt_id FROM perimeter_attempt').pluck().all()).toEqual([attempt.attemptId]);
    } finally {
      reader.close();
    }
  });

  it('the database file is in WAL journal mode', () => {
    const path = dbPath();
    new SqlitePerimeterAuditStore({ path }).close();
    const raw = new Database(path);
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      raw.close();
    }
  });

  it('a path whose folders do not exist yet creates them (this user\'s alone) and opens', () => {
    const path = join(dirname(dbPath()), 'not', 'yet', 'audit.db');
    const store = new SqlitePerimeterAuditStore({ path });
    cleanups.push(() => store.close());
    store.recordAttempt(sampleAttempt());
    expect(store.list()).toHaveLength(1);
    expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
  });

  it('a folder that cannot be made fails to open with a typed error', () => {
    const blocker = dbPath();
    writeFileSync(blocker, 'a file where a folder should be');
    expect(() => new SqlitePerimeterAuditStore({ path: join(blocker, 'audit.db') })).toThrow(PerimeterAuditStoreUnavailableError);
  });

  it('an in-memory database is refused as not durable', () => {
    expect(() => new SqlitePerimeterAuditStore({ path: ':memory:' })).toThrow(UsageError);
  });

  it('a file that is not a SQLite database fails to open with a typed error', () => {
    const path = dbPath();
    writeFileSync(path, 'this is not a database, just some text that is long enough to have a header'.repeat(20));
    expect(() => new SqlitePerimeterAuditStore({ path })).toThrow(PerimeterAuditStoreUnavailableError);
  });

  it('a database written by a newer schema version is refused', () => {
    const path = dbPath();
    const raw = new Database(path);
    raw.pragma('user_version = 99');
    raw.close();
    expect(() => new SqlitePerimeterAuditStore({ path })).toThrow(/schema version 99/);
  });

  it('a write blocked by another connection fails with a typed storage error and stores nothing', () => {
    const path = dbPath();
    const store = new SqlitePerimeterAuditStore({ path, busyTimeoutMs: 0 });
    cleanups.push(() => store.close());
    const blocker = new Database(path);
    blocker.exec('BEGIN IMMEDIATE');
    const attempt = sampleAttempt();
    try {
      expect(() => store.recordAttempt(attempt)).toThrow(
        expect.objectContaining({ kind: 'perimeter-audit-store-unavailable', reason: 'storage-failure', operation: 'recordAttempt' }),
      );
    } finally {
      blocker.exec('ROLLBACK');
      blocker.close();
    }
    expect(store.get(attempt.attemptId)).toBeUndefined();
  });

  it('close is idempotent', () => {
    const store = new SqlitePerimeterAuditStore({ path: dbPath() });
    store.close();
    expect(() => store.close()).not.toThrow();
  });
});
