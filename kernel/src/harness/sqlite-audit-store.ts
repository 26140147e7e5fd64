/**
 * The SQLite perimeter audit store. Each record is one autocommit statement in WAL mode with
 * `synchronous = FULL`, so `recordAttempt` returns only after the WAL frame is fsynced: reopening the
 * file after the process dies (even by SIGKILL) shows every record that was returned. The guarantee is
 * only as good as the filesystem's honouring of fsync; no library check certifies the deployment.
 */
import { refuseHostStoreInRun } from './host-context.js';
import type Database from 'better-sqlite3';
import { loadedSqliteDatabase, openSqliteFile } from './sqlite-module.js';
import { isInstance, UsageError } from '../core/index.js';
import {
  parsePerimeterAttempt,
  parsePerimeterAuditFilter,
  parsePerimeterCompletion,
  type PerimeterAttempt,
  type PerimeterAuditEntry,
  type PerimeterAuditFilter,
  type PerimeterAuditStatus,
  type PerimeterAuditStore,
  type PerimeterClass,
  type PerimeterCompletion,
  type PerimeterCompletionStatus,
} from './audit-store.js';
import { PerimeterAuditConflictError, PerimeterAuditStoreUnavailableError, type PerimeterAuditStoreOperation } from './errors.js';

const SCHEMA_VERSION = 1;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS perimeter_attempt (
  sequence INTEGER PRIMARY KEY,
  attempt_id TEXT NOT NULL UNIQUE,
  run_id TEXT NOT NULL,
  execution_id TEXT,
  dispatch_node_id TEXT,
  capability TEXT NOT NULL,
  footprint TEXT NOT NULL,
  arguments TEXT NOT NULL,
  attempted_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS perimeter_completion (
  attempt_id TEXT PRIMARY KEY REFERENCES perimeter_attempt (attempt_id),
  status TEXT NOT NULL CHECK (status IN ('completed', 'failed')),
  summary TEXT NOT NULL,
  completed_at INTEGER NOT NULL
) WITHOUT ROWID;
`;

const SELECT = `
SELECT a.sequence, a.attempt_id, a.run_id, a.execution_id, a.dispatch_node_id, a.capability, a.footprint,
       a.arguments, a.attempted_at, c.status, c.summary, c.completed_at
FROM perimeter_attempt a LEFT JOIN perimeter_completion c ON c.attempt_id = a.attempt_id`;

interface EntryRow {
  sequence: number;
  attempt_id: string;
  run_id: string;
  execution_id: string | null;
  dispatch_node_id: string | null;
  capability: string;
  footprint: string;
  arguments: string;
  attempted_at: number;
  status: PerimeterCompletionStatus | null;
  summary: string | null;
  completed_at: number | null;
}

export interface SqlitePerimeterAuditStoreOptions {
  /** A file path. In-memory databases are refused: they cannot satisfy the durability obligation. */
  readonly path: string;
  /** How long a write waits for another connection's lock before failing. Default 5,000 ms. */
  readonly busyTimeoutMs?: number;
}

export class SqlitePerimeterAuditStore implements PerimeterAuditStore {
  readonly durable = true as const;
  readonly path: string;
  readonly #db: Database.Database;
  readonly #insertAttempt: Database.Statement;
  readonly #insertCompletion: Database.Statement;
  readonly #selectOne: Database.Statement<[string], EntryRow>;
  readonly #selectMany: Database.Statement<[Record<string, unknown>], EntryRow>;

  constructor(options: SqlitePerimeterAuditStoreOptions) {
    refuseHostStoreInRun('audit', 'SqlitePerimeterAuditStore(open)');
    const path = options.path;
    if (path === '' || path === ':memory:' || path.startsWith('file::memory:')) {
      throw new UsageError('SqlitePerimeterAuditStore needs a file path; an in-memory database is not durable.');
    }
    this.path = path;
    const db = storage('open', () => openSqliteFile(path, { timeout: options.busyTimeoutMs ?? 5_000 }));
    try {
      const mode = db.pragma('journal_mode = WAL', { simple: true });
      if (mode !== 'wal') throw new Error(`journal_mode is '${String(mode)}', not 'wal'`);
      db.pragma('synchronous = FULL');
      db.pragma('foreign_keys = ON');
      const version = db.pragma('user_version', { simple: true }) as number;
      if (version > SCHEMA_VERSION) throw new Error(`schema version ${version} is newer than this library (${SCHEMA_VERSION})`);
      db.exec(SCHEMA);
      if (version < SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
      this.#insertAttempt = db.prepare(
        `INSERT INTO perimeter_attempt (attempt_id, run_id, execution_id, dispatch_node_id, capability, footprint, arguments, attempted_at)
         VALUES (@attemptId, @runId, @executionId, @dispatchNodeId, @capability, @footprint, @arguments, @attemptedAt)`,
      );
      this.#insertCompletion = db.prepare(
        `INSERT INTO perimeter_completion (attempt_id, status, summary, completed_at)
         VALUES (@attemptId, @status, @summary, @completedAt)`,
      );
      this.#selectOne = db.prepare<[string], EntryRow>(`${SELECT} WHERE a.attempt_id = ?`);
      this.#selectMany = db.prepare<[Record<string, unknown>], EntryRow>(
        `${SELECT}
         WHERE (@runId IS NULL OR a.run_id = @runId)
           AND (@executionId IS NULL OR a.execution_id = @executionId)
           AND (@dispatchNodeId IS NULL OR a.dispatch_node_id = @dispatchNodeId)
           AND (@capability IS NULL OR a.capability = @capability)
           AND (@status IS NULL OR COALESCE(c.status, 'indeterminate') = @status)
           AND a.sequence > @afterSequence
         ORDER BY a.sequence
         LIMIT @limit`,
      );
    } catch (cause) {
      db.close();
      throw new PerimeterAuditStoreUnavailableError({ operation: 'open', reason: 'storage-failure', cause });
    }
    this.#db = db;
  }

  recordAttempt(attempt: PerimeterAttempt): void {
    refuseHostStoreInRun('audit', 'SqlitePerimeterAuditStore.recordAttempt');
    this.#ensureOpen('recordAttempt');
    const a = parsePerimeterAttempt(attempt);
    storage('recordAttempt', () => {
      try {
        this.#insertAttempt.run({
          attemptId: a.attemptId,
          runId: a.runId,
          executionId: a.executionId ?? null,
          dispatchNodeId: a.dispatchNodeId ?? null,
          capability: a.capability,
          footprint: JSON.stringify(a.footprint),
          arguments: a.arguments,
          attemptedAt: a.attemptedAt,
        });
      } catch (error) {
        if (sqliteCode(error) === 'SQLITE_CONSTRAINT_UNIQUE') {
          throw new PerimeterAuditConflictError({ reason: 'duplicate-attempt', attemptId: a.attemptId });
        }
        throw error;
      }
    });
  }

  recordCompletion(completion: PerimeterCompletion): void {
    refuseHostStoreInRun('audit', 'SqlitePerimeterAuditStore.recordCompletion');
    this.#ensureOpen('recordCompletion');
    const c = parsePerimeterCompletion(completion);
    storage('recordCompletion', () => {
      try {
        this.#insertCompletion.run(c);
      } catch (error) {
        const code = sqliteCode(error);
        if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
          throw new PerimeterAuditConflictError({ reason: 'unknown-attempt', attemptId: c.attemptId });
        }
        if (code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
          throw new PerimeterAuditConflictError({ reason: 'duplicate-completion', attemptId: c.attemptId });
        }
        throw error;
      }
    });
  }

  get(attemptId: string): PerimeterAuditEntry | undefined {
    this.#ensureOpen('get');
    const row = storage('get', () => this.#selectOne.get(attemptId));
    return row && entryOf(row);
  }

  list(filter?: PerimeterAuditFilter): readonly PerimeterAuditEntry[] {
    this.#ensureOpen('list');
    const f = parsePerimeterAuditFilter(filter);
    const rows = storage('list', () =>
      this.#selectMany.all({
        runId: f.runId ?? null,
        executionId: f.executionId ?? null,
        dispatchNodeId: f.dispatchNodeId ?? null,
        capability: f.capability ?? null,
        status: f.status ?? null,
        afterSequence: f.afterSequence ?? 0,
        limit: f.limit ?? -1,
      }),
    );
    return Object.freeze(rows.map(entryOf));
  }

  /** Idempotent. Later calls to any other method throw `PerimeterAuditStoreUnavailableError` (closed). */
  close(): void {
    refuseHostStoreInRun('audit', 'SqlitePerimeterAuditStore.close');
    if (this.#db.open) storage('close', () => this.#db.close());
  }

  #ensureOpen(operation: PerimeterAuditStoreOperation): void {
    if (!this.#db.open) throw new PerimeterAuditStoreUnavailableError({ operation, reason: 'closed' });
  }
}

/** Runs a storage call, mapping driver failures to a typed error and letting our own errors through. */
function storage<T>(operation: PerimeterAuditStoreOperation, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (isInstance(error, PerimeterAuditConflictError)) throw error;
    throw new PerimeterAuditStoreUnavailableError({ operation, reason: 'storage-failure', cause: error });
  }
}

function sqliteCode(error: unknown): string | undefined {
  const sqlite = loadedSqliteDatabase();
  return sqlite && error instanceof sqlite.SqliteError ? error.code : undefined;
}

function entryOf(row: EntryRow): PerimeterAuditEntry {
  const attempt: PerimeterAttempt = Object.freeze({
    attemptId: row.attempt_id,
    runId: row.run_id,
    ...(row.execution_id === null ? {} : { executionId: row.execution_id }),
    ...(row.dispatch_node_id === null ? {} : { dispatchNodeId: row.dispatch_node_id }),
    capability: row.capability,
    footprint: Object.freeze(JSON.parse(row.footprint) as PerimeterClass[]),
    arguments: row.arguments,
    attemptedAt: row.attempted_at,
  });
  const status: PerimeterAuditStatus = row.status ?? 'indeterminate';
  const completion: PerimeterCompletion | undefined =
    row.status === null
      ? undefined
      : Object.freeze({ attemptId: row.attempt_id, status: row.status, summary: row.summary!, completedAt: row.completed_at! });
  return Object.freeze({ sequence: row.sequence, attempt, status, ...(completion ? { completion } : {}) });
}

// An authority class: no method of it can be replaced (a leaked path to the prototype cannot patch `append`, say).
Object.freeze(SqlitePerimeterAuditStore.prototype);
