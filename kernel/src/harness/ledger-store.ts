/**
 * Ledger events in SQLite. A store-backed `Ledger` writes every event here as it is appended and reads
 * back whatever its in-memory window does not hold, so a Session can record millions of events in
 * bounded memory and a notebook restart loses nothing. Indexes cover run, kind, status, subject and
 * parent; an FTS5 table answers text search. One file may hold many ledgers (one per Session, several
 * kernels), told apart by `ledger_id`. Durability of these events is platform policy (only perimeter
 * attempt/completion records carry a durability obligation).
 */
import type Database from 'better-sqlite3';
import { openSqliteFile } from './sqlite-module.js';
import type { LedgerEvent, LedgerEventKind, LedgerFilter } from './ledger.js';
import { ledgerSearchText } from './ledger.js';
import type { Snapshot } from './snapshot.js';
import type { LedgerReader } from './ledger-view.js';
import { fromJSONSafe, toJSONSafe } from './snapshot-json.js';
import { refuseHostStoreInRun } from './host-context.js';

/** What a store-backed Ledger needs from its store. */
export interface LedgerStore {
  /** Records one event of `ledgerId`; it may be buffered until `flush` (reads flush first). */
  append(ledgerId: string, event: LedgerEvent): void;
  flush(): void;
  /** Events of one ledger (or of every ledger in the store), in append order. */
  select(filter: LedgerFilter, ledgerId?: string): readonly LedgerEvent[];
  hasTerminal(ledgerId: string, kind: LedgerEventKind, subjectId: string): boolean;
  hasRun(ledgerId: string, runId: string): boolean;
  /** The highest sequence number `ledgerId` holds (0 for a new ledger). */
  lastSequence(ledgerId: string): number;
}
import { redactValue } from '../core/index.js';
import { encodeJson } from './json-encode.js';
import { append, scheduleMicrotask } from './intrinsics.js';
import { captureMethods } from './captured-methods.js';

export interface PersistedLedgerEvent extends Omit<LedgerEvent, 'data'> {
  readonly data: unknown;
}

interface Row {
  event_id: string;
  run_id: string;
  sequence: number;
  kind: string;
  subject_id: string;
  parent_id: string | null;
  status: string | null;
  at: number;
  data: string;
}

// Appends within one tick are written in one transaction; more than this many are written at once.
const BATCH = 256;

// A process that exits in the tick of an append still writes it: one exit hook flushes every open store.
const open = new Set<SqliteLedgerStore>();
let exitHook = false;
function flushOnExit(store: SqliteLedgerStore): void {
  open.add(store);
  if (exitHook) return;
  process.once('exit', () => {
    for (const s of open) {
      try {
        s.flush();
      } catch {
        // Exiting: a store that cannot be written now has nothing more to offer.
      }
    }
  });
  // Only once the hook is in place: a refused registration leaves the next store to try again.
  exitHook = true;
}

// Set by SqliteLedgerStore's static block: the write path a Ledger uses (appendToStoreAsHost).
let hostQueue: (store: SqliteLedgerStore, ledgerId: string, event: LedgerEvent) => void;

/**
 * How a Ledger writes to its store. A SqliteLedgerStore's public writers refuse a run's interior (the file is
 * the host's record of runs), so the Ledger, which the run host drives from inside runs, writes past them.
 */
/** Whether `value` is a SqliteLedgerStore (a private-field brand check: a changed prototype does not fool it). */
let isSqliteLedgerStore: (value: object) => value is SqliteLedgerStore;

/** A ledger store as its Ledger calls it (see captureLedgerStore). */
export interface HostLedgerStore extends Omit<LedgerStore, 'append'> {
  /** The host's write: a SqliteLedgerStore's private queue, or the store's append as it was at capture. */
  append(ledgerId: string, event: LedgerEvent): void;
  /** Methods that would now resolve elsewhere on the operator's object (captured-methods.ts). */
  modified(): readonly string[];
}

/**
 * The store's methods, read once when its Ledger is built (captured-methods.ts): the store object stays reachable
 * to code holding a reference, and a shadowed `select` or a swapped prototype must not take the host's reads or
 * writes. A SqliteLedgerStore is written through its private queue, found by brand, not by `instanceof`.
 */
export function captureLedgerStore(store: LedgerStore): HostLedgerStore {
  const captured = captureMethods(store, ['append', 'flush', 'select', 'hasTerminal', 'hasRun', 'lastSequence'], 'The ledger store');
  const m = captured.methods;
  const append = typeof store === 'object' && store !== null && isSqliteLedgerStore(store) ? (ledgerId: string, event: LedgerEvent) => hostQueue(store, ledgerId, event) : m.append;
  return Object.freeze({ append, flush: m.flush, select: m.select, hasTerminal: m.hasTerminal, hasRun: m.hasRun, lastSequence: m.lastSequence, modified: captured.modified });
}

/**
 * Opening, writing (append, write, attach) and closing are host or operator acts: from a run's interior they
 * are refused and recorded (`ledger_store_in_run`). Reads stay open to the Ledger's views.
 */
export class SqliteLedgerStore implements LedgerStore {
  readonly #db: Database.Database;
  readonly #insert: Database.Statement;
  readonly #writeBatch: (rows: readonly (readonly [string | null, LedgerEvent])[]) => void;
  #pending: [string | null, LedgerEvent][] = [];
  #scheduled = false;
  #closed = false;
  readonly #statements = new Map<string, Database.Statement>();

  static {
    hostQueue = (store, ledgerId, event) => store.#queue(ledgerId, event);
    isSqliteLedgerStore = (value): value is SqliteLedgerStore => #db in value;
  }

  constructor(path: string) {
    refuseHostStoreInRun('ledger', 'SqliteLedgerStore(open)');
    this.#db = openSqliteFile(path);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('synchronous = NORMAL');
    // Several kernels of one server may share the file.
    this.#db.pragma('busy_timeout = 5000');
    this.#db.exec(`CREATE TABLE IF NOT EXISTS ledger_events (
      event_id TEXT PRIMARY KEY, run_id TEXT NOT NULL, sequence INTEGER NOT NULL, kind TEXT NOT NULL,
      subject_id TEXT NOT NULL, parent_id TEXT, status TEXT, at INTEGER NOT NULL, data TEXT NOT NULL)`);
    const columns = (this.#db.prepare('PRAGMA table_info(ledger_events)').all() as { name: string }[]).map((c) => c.name);
    // Files written before ledgers were told apart keep their rows (ledger_id NULL).
    if (!columns.includes('ledger_id')) this.#db.exec('ALTER TABLE ledger_events ADD COLUMN ledger_id TEXT');
    this.#db.exec('DROP INDEX IF EXISTS ledger_events_kind; DROP INDEX IF EXISTS ledger_events_status');
    // The page cache holds the hot ends of the indexes; the default 2 MB thrashes at a million events.
    this.#db.pragma('cache_size = -16384');
    // ledger_id is deliberately not a leading column: a file holds few ledgers, so the selective columns
    // lead and queries name the ledger as a residual term (`+ledger_id`), which keeps the planner off it.
    this.#db.exec(`
      CREATE INDEX IF NOT EXISTS ledger_events_run ON ledger_events(run_id, sequence);
      CREATE INDEX IF NOT EXISTS ledger_events_ledger_seq ON ledger_events(ledger_id, sequence);
      CREATE INDEX IF NOT EXISTS ledger_events_kind_status ON ledger_events(kind, status);
      CREATE INDEX IF NOT EXISTS ledger_events_by_status ON ledger_events(status);
      CREATE INDEX IF NOT EXISTS ledger_events_subject ON ledger_events(subject_id, kind);
      CREATE INDEX IF NOT EXISTS ledger_events_parent ON ledger_events(parent_id)`);
    const hasFts = this.#db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'ledger_fts'").get() !== undefined;
    if (!hasFts) {
      // Contentless: the text lives once, in ledger_events; the index only maps terms to rowids.
      this.#db.exec(`CREATE VIRTUAL TABLE ledger_fts USING fts5(text, content='', contentless_delete=1)`);
      this.#db.exec(`INSERT INTO ledger_fts(rowid, text) SELECT rowid, ${FTS_TEXT('')} FROM ledger_events`);
    }
    this.#db.exec(`CREATE TRIGGER IF NOT EXISTS ledger_events_fts AFTER INSERT ON ledger_events BEGIN
      INSERT INTO ledger_fts(rowid, text) VALUES (new.rowid, ${FTS_TEXT('new.')}); END`);
    this.#insert = this.#db.prepare(
      'INSERT OR IGNORE INTO ledger_events (event_id, run_id, sequence, kind, subject_id, parent_id, status, at, data, ledger_id) VALUES (?,?,?,?,?,?,?,?,?,?)',
    );
    flushOnExit(this);
    this.#writeBatch = this.#db.transaction((rows: readonly (readonly [string | null, LedgerEvent])[]) => {
      // Index loop: the batch may be written while interior code has replaced the array iterator (see intrinsics.ts).
      for (let i = 0; i < rows.length; i++) {
        const ledgerId = rows[i]![0];
        const e = rows[i]![1];
        this.#insert.run(e.eventId, e.runId, e.sequence, e.kind, e.subjectId, e.parentId ?? null, e.status ?? null, e.at, encodeJson(redactValue(toJSONSafe(e.data))), ledgerId);
      }
    });
  }

  #statement(sql: string): Database.Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  append(ledgerId: string, event: LedgerEvent): void {
    refuseHostStoreInRun('ledger', 'SqliteLedgerStore.append');
    this.#queue(ledgerId, event);
  }

  /** Appends one event of no particular ledger (idempotent by event id). */
  write(event: LedgerEvent): void {
    refuseHostStoreInRun('ledger', 'SqliteLedgerStore.write');
    this.#queue(null, event);
  }

  #queue(ledgerId: string | null, event: LedgerEvent): void {
    if (this.#closed) throw new Error('SqliteLedgerStore is closed.');
    append(this.#pending, [ledgerId, event]);
    if (this.#pending.length >= BATCH) this.flush();
    else if (!this.#scheduled) {
      this.#scheduled = true;
      scheduleMicrotask(() => {
        this.#scheduled = false;
        if (!this.#closed) this.flush();
      });
    }
  }

  flush(): void {
    if (this.#pending.length === 0) return;
    const rows = this.#pending;
    this.#pending = [];
    this.#writeBatch(rows);
  }

  /** Persists every event the ledger appends from now on (for a ledger not created with this store). */
  attach(ledger: LedgerReader): () => void {
    refuseHostStoreInRun('ledger', 'SqliteLedgerStore.attach');
    for (const e of ledger.events()) this.#queue(ledger.ledgerId, e);
    // The ledger's later events arrive while runs execute: written past the interior check, as the Ledger's own.
    return ledger.subscribe((e) => this.#queue(ledger.ledgerId, e));
  }

  select(filter: LedgerFilter, ledgerId?: string): readonly LedgerEvent[] {
    this.flush();
    const { sql, params, needle } = this.#query(filter, ledgerId);
    const limit = filter.limit;
    const out: LedgerEvent[] = [];
    for (const row of this.#statement(sql).iterate(...params) as IterableIterator<Row>) {
      const event = decode(row);
      // Full-text search finds candidates by one word; the substring check keeps the in-memory meaning of `text`.
      if (needle !== undefined && !ledgerSearchText(event).includes(needle)) continue;
      out.push(event);
      if (limit !== undefined && out.length >= limit) break;
    }
    return Object.freeze(out);
  }

  /** SQLite's plan for the query `select` runs for this filter (to check that it uses the indexes). */
  explain(filter: LedgerFilter, ledgerId?: string): string {
    const { sql, params } = this.#query(filter, ledgerId);
    return (this.#db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join(' | ');
  }

  #query(filter: LedgerFilter, ledgerId: string | undefined): { sql: string; params: unknown[]; needle: string | undefined } {
    const where: string[] = [];
    const params: unknown[] = [];
    const selective = filter.runId !== undefined || filter.kind !== undefined || filter.subjectId !== undefined || filter.parentId !== undefined || filter.status !== undefined || filter.text !== undefined;
    if (ledgerId !== undefined) {
      where.push(selective ? '+e.ledger_id = ?' : 'e.ledger_id = ?');
      params.push(ledgerId);
    }
    if (filter.runId !== undefined) {
      where.push('e.run_id = ?');
      params.push(filter.runId);
    }
    if (filter.kind !== undefined) {
      const kinds: readonly string[] = typeof filter.kind === 'string' ? [filter.kind] : filter.kind;
      where.push(`e.kind IN (${kinds.map(() => '?').join(',') || 'NULL'})`);
      params.push(...kinds);
    }
    if (filter.subjectId !== undefined) {
      where.push('e.subject_id = ?');
      params.push(filter.subjectId);
    }
    if (filter.parentId !== undefined) {
      where.push('e.parent_id = ?');
      params.push(filter.parentId);
    }
    if (filter.status !== undefined) {
      where.push('e.status = ?');
      params.push(filter.status);
    }
    if (filter.afterSequence !== undefined) {
      where.push('e.sequence > ?');
      params.push(filter.afterSequence);
    }
    const needle = filter.text?.toLowerCase();
    const match = needle === undefined ? undefined : ftsQuery(needle);
    if (match !== undefined) {
      where.push('e.rowid IN (SELECT rowid FROM ledger_fts WHERE ledger_fts MATCH ?)');
      params.push(match);
    }
    const limit = filter.limit;
    // With text the candidates are checked once more after the query, so the limit is applied after that check.
    const sqlLimit = limit !== undefined && needle === undefined ? ` LIMIT ${Math.max(0, Math.floor(limit))}` : '';
    const sql = `SELECT e.* FROM ledger_events e${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY e.rowid${sqlLimit}`;
    return { sql, params, needle };
  }

  hasTerminal(ledgerId: string, kind: LedgerEventKind, subjectId: string): boolean {
    // Checked on every terminal append: look at the buffer instead of flushing it.
    if (this.#pending.some(([id, e]) => id === ledgerId && e.kind === kind && e.subjectId === subjectId)) return true;
    return this.#statement('SELECT 1 FROM ledger_events WHERE subject_id = ? AND kind = ? AND +ledger_id = ? LIMIT 1').get(subjectId, kind, ledgerId) !== undefined;
  }

  hasRun(ledgerId: string, runId: string): boolean {
    if (this.#pending.some(([id, e]) => id === ledgerId && e.runId === runId)) return true;
    return this.#statement('SELECT 1 FROM ledger_events WHERE run_id = ? AND +ledger_id = ? LIMIT 1').get(runId, ledgerId) !== undefined;
  }

  lastSequence(ledgerId: string): number {
    this.flush();
    const row = this.#statement('SELECT MAX(sequence) AS last FROM ledger_events WHERE ledger_id = ?').get(ledgerId) as { last: number | null };
    return row.last ?? 0;
  }

  /** Ids of the ledgers this file holds, oldest first (rows written before ledger ids are left out). */
  ledgerIds(): string[] {
    this.flush();
    return (this.#db.prepare('SELECT ledger_id FROM ledger_events WHERE ledger_id IS NOT NULL GROUP BY ledger_id ORDER BY MIN(rowid)').all() as { ledger_id: string }[]).map((r) => r.ledger_id);
  }

  runIds(): string[] {
    this.flush();
    return (this.#db.prepare('SELECT run_id FROM ledger_events GROUP BY run_id ORDER BY MIN(rowid)').all() as { run_id: string }[]).map((r) => r.run_id);
  }

  /** Every persisted event (of one run), as plain JSON data. */
  load(runId?: string): PersistedLedgerEvent[] {
    this.flush();
    const rows = (runId === undefined
      ? this.#db.prepare('SELECT * FROM ledger_events ORDER BY rowid').all()
      : this.#db.prepare('SELECT * FROM ledger_events WHERE run_id = ? ORDER BY rowid').all(runId)) as Row[];
    return rows.map((r) => Object.freeze({ ...header(r), data: JSON.parse(r.data) as unknown }));
  }

  /** Bytes the database file uses (pages in use times page size). */
  byteSize(): number {
    const pages = this.#db.pragma('page_count', { simple: true }) as number;
    const size = this.#db.pragma('page_size', { simple: true }) as number;
    return pages * size;
  }

  close(): void {
    refuseHostStoreInRun('ledger', 'SqliteLedgerStore.close');
    if (this.#closed) return;
    this.flush();
    this.#closed = true;
    open.delete(this);
    this.#db.close();
  }
}

/** The text the FTS index holds for a row; the same fields `text` filters search in memory. */
function FTS_TEXT(prefix: string): string {
  return `${prefix}kind || ' ' || coalesce(${prefix}status, '') || ' ' || ${prefix}subject_id || ' ' || coalesce(${prefix}parent_id, '') || ' ' || ${prefix}data`;
}

/**
 * An FTS5 query for a needle: its longest word as a prefix term. Every event whose text holds the needle
 * starting at a word boundary holds each of its words as a token (the last one possibly as a prefix), so
 * one word finds a superset of the matches, and the longest is usually the rarest: querying a word as
 * common as `order` would read a doclist of a million entries. Words are runs of letters and digits, as
 * the unicode61 tokenizer splits them. Undefined when the needle has no word (punctuation only): then
 * every row is checked by substring, which is slow but still correct.
 */
function ftsQuery(needle: string): string | undefined {
  const words = needle.match(/[\p{L}\p{N}]+/gu);
  if (!words) return undefined;
  const longest = words.reduce((best, word) => (word.length >= best.length ? word : best));
  return `"${longest}"*`;
}

function header(r: Row): Omit<PersistedLedgerEvent, 'data'> {
  return {
    sequence: r.sequence,
    eventId: r.event_id,
    runId: r.run_id,
    kind: r.kind as LedgerEventKind,
    subjectId: r.subject_id,
    parentId: r.parent_id ?? undefined,
    status: r.status ?? undefined,
    at: r.at,
  } as Omit<PersistedLedgerEvent, 'data'>;
}

function decode(r: Row): LedgerEvent {
  const parsed = JSON.parse(r.data) as unknown;
  // Most events hold only JSON values: freezing what JSON.parse built is enough (and cheaper than reviving).
  const data = r.data.includes('"$kind"') ? fromJSONSafe(parsed) : deepFreeze(parsed);
  return Object.freeze({ ...header(r), data }) as unknown as LedgerEvent;
}

function deepFreeze(value: unknown): Snapshot {
  if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
    Object.freeze(value);
  }
  return value as Snapshot;
}

// An authority class: no method of it can be replaced (a leaked path to the prototype cannot patch `append`, say).
Object.freeze(SqliteLedgerStore.prototype);
