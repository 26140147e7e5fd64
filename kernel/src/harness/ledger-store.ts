/**
 * Persisting ledger events to SQLite so a notebook restart keeps them. Durability of these events is
 * platform policy (only perimeter attempt/completion records carry a durability obligation).
 */
import Database from 'better-sqlite3';
import type { Ledger, LedgerEvent, LedgerEventKind } from './ledger.js';
import { redactValue } from '../core/index.js';
import { encodeJson } from './json-encode.js';
import { toJSONSafe } from './snapshot.js';

export interface PersistedLedgerEvent extends Omit<LedgerEvent, 'data'> {
  readonly data: unknown;
}

export class SqliteLedgerStore {
  readonly #db: Database.Database;
  readonly #insert: Database.Statement;

  constructor(path: string) {
    this.#db = new Database(path);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('synchronous = NORMAL');
    this.#db.exec(`CREATE TABLE IF NOT EXISTS ledger_events (
      event_id TEXT PRIMARY KEY, run_id TEXT NOT NULL, sequence INTEGER NOT NULL, kind TEXT NOT NULL,
      subject_id TEXT NOT NULL, parent_id TEXT, status TEXT, at INTEGER NOT NULL, data TEXT NOT NULL)`);
    this.#db.exec('CREATE INDEX IF NOT EXISTS ledger_events_run ON ledger_events(run_id, sequence)');
    this.#insert = this.#db.prepare(
      'INSERT OR IGNORE INTO ledger_events (event_id, run_id, sequence, kind, subject_id, parent_id, status, at, data) VALUES (?,?,?,?,?,?,?,?,?)',
    );
  }

  /** Appends one event (idempotent by event id). */
  write(event: LedgerEvent): void {
    this.#insert.run(event.eventId, event.runId, event.sequence, event.kind, event.subjectId, event.parentId ?? null, event.status ?? null, event.at, encodeJson(redactValue(toJSONSafe(event.data))));
  }

  /** Persists every event the ledger appends from now on; returns the unsubscribe function. */
  attach(ledger: Ledger): () => void {
    for (const e of ledger.events()) this.write(e);
    return ledger.subscribe((e) => this.write(e));
  }

  runIds(): string[] {
    return (this.#db.prepare('SELECT DISTINCT run_id FROM ledger_events ORDER BY rowid').all() as { run_id: string }[]).map((r) => r.run_id);
  }

  load(runId?: string): PersistedLedgerEvent[] {
    const rows = (runId === undefined
      ? this.#db.prepare('SELECT * FROM ledger_events ORDER BY rowid').all()
      : this.#db.prepare('SELECT * FROM ledger_events WHERE run_id = ? ORDER BY rowid').all(runId)) as {
      event_id: string; run_id: string; sequence: number; kind: string; subject_id: string; parent_id: string | null; status: string | null; at: number; data: string;
    }[];
    return rows.map((r) =>
      Object.freeze({
        sequence: r.sequence,
        eventId: r.event_id,
        runId: r.run_id,
        kind: r.kind as LedgerEventKind,
        subjectId: r.subject_id,
        parentId: r.parent_id ?? undefined,
        status: r.status ?? undefined,
        at: r.at,
        data: JSON.parse(r.data) as unknown,
      }),
    );
  }

  close(): void {
    this.#db.close();
  }
}
