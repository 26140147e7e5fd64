/**
 * The run ledger: the authoritative, append-only causal record of a run. Values enter as immutable
 * snapshots; every Natural execution, dispatch node and run has exactly one terminal event, and the
 * ledger itself refuses a second one. Only host seams append (the Ledger is never handed to
 * compositions; they get read-only projections).
 */
import { newId, redactValue, UsageError } from '../core/index.js';
import { snapshot, type Snapshot, type SnapshotOptions } from './snapshot.js';

export const LedgerEventKind = {
  runEntry: 'run.entry',
  runEnd: 'run.end',
  executionStart: 'execution.start',
  executionEnd: 'execution.end',
  operation: 'operation',
  capabilityCall: 'capability.call',
  capabilityRefused: 'capability.refused',
  dispatchStart: 'dispatch.start',
  dispatchEnd: 'dispatch.end',
  traceAnomaly: 'trace.anomaly',
  allocationExhausted: 'allocation.exhausted',
  partEvent: 'part.event',
} as const;
export type LedgerEventKind = (typeof LedgerEventKind)[keyof typeof LedgerEventKind];

const TERMINAL: ReadonlySet<LedgerEventKind> = new Set(['run.end', 'execution.end', 'dispatch.end']);

/** One immutable ledger entry. */
export interface LedgerEvent {
  readonly sequence: number;
  readonly eventId: string;
  readonly runId: string;
  readonly kind: LedgerEventKind;
  /** The execution, dispatch node, run or operation this event is about. */
  readonly subjectId: string;
  /** Causal parent (the enclosing execution, dispatch node or run). */
  readonly parentId: string | undefined;
  readonly status: string | undefined;
  readonly at: number;
  readonly data: Snapshot;
}

export interface LedgerAppend {
  readonly kind: LedgerEventKind;
  readonly subjectId: string;
  readonly parentId?: string | undefined;
  readonly status?: string | undefined;
  readonly data?: unknown;
}

/** Receives each event after it is appended (persistence, live notebook display). */
export type LedgerListener = (event: LedgerEvent) => void;

export interface LedgerFilter {
  readonly runId?: string;
  readonly kind?: LedgerEventKind | readonly LedgerEventKind[];
  readonly subjectId?: string;
  readonly parentId?: string;
  readonly status?: string;
  /** Case-insensitive text match over kind, status, ids and the JSON of the data. */
  readonly text?: string;
  readonly afterSequence?: number;
  readonly limit?: number;
}

const SNAPSHOT_BOUNDS: SnapshotOptions = { maxDepth: 12, maxNodes: 2_000, maxEntries: 200, maxStringLength: 20_000 };

export class Ledger {
  readonly #events: LedgerEvent[] = [];
  readonly #terminated = new Set<string>();
  // Indexes keep per-subject and per-parent projections flat as the ledger grows.
  readonly #byParent = new Map<string, LedgerEvent[]>();
  readonly #bySubject = new Map<string, LedgerEvent[]>();
  readonly #byRun = new Map<string, LedgerEvent[]>();
  readonly #listeners = new Set<LedgerListener>();
  readonly #describeCallable: SnapshotOptions['describeCallable'];

  constructor(options: { describeCallable?: SnapshotOptions['describeCallable'] } = {}) {
    this.#describeCallable = options.describeCallable;
  }

  /** Appends one event for `runId`. A second terminal event for the same subject is refused. */
  append(runId: string, entry: LedgerAppend): LedgerEvent {
    const terminal = TERMINAL.has(entry.kind);
    if (terminal) {
      const key = `${entry.kind}:${entry.subjectId}`;
      if (this.#terminated.has(key)) throw new UsageError(`Ledger already holds the terminal ${entry.kind} event of ${entry.subjectId}.`);
      this.#terminated.add(key);
    }
    const event: LedgerEvent = Object.freeze({
      sequence: this.#events.length + 1,
      eventId: newId('ev_'),
      runId,
      kind: entry.kind,
      subjectId: entry.subjectId,
      parentId: entry.parentId,
      status: entry.status,
      at: Date.now(),
      data: entry.data === undefined ? null : redactValue(snapshot(entry.data, { ...SNAPSHOT_BOUNDS, describeCallable: this.#describeCallable })),
    });
    this.#events.push(event);
    index(this.#byRun, runId, event);
    index(this.#bySubject, event.subjectId, event);
    if (event.parentId !== undefined) index(this.#byParent, event.parentId, event);
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // Listeners observe; a failing one must not undo or block an appended fact.
      }
    }
    return event;
  }

  /** True once the subject's terminal event of that kind is in the ledger. */
  hasTerminal(kind: LedgerEventKind, subjectId: string): boolean {
    return this.#terminated.has(`${kind}:${subjectId}`);
  }

  get size(): number {
    return this.#events.length;
  }

  /** A frozen copy of all events, in order. */
  events(): readonly LedgerEvent[] {
    return Object.freeze(this.#events.slice());
  }

  subscribe(listener: LedgerListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** A deterministic filter over the ledger (history projections are never semantic). */
  select(filter: LedgerFilter = {}): readonly LedgerEvent[] {
    let candidates: readonly LedgerEvent[] = this.#events;
    if (filter.subjectId !== undefined) candidates = this.#bySubject.get(filter.subjectId) ?? [];
    else if (filter.parentId !== undefined) candidates = this.#byParent.get(filter.parentId) ?? [];
    else if (filter.runId !== undefined) candidates = this.#byRun.get(filter.runId) ?? [];
    return projectLedger(candidates, filter);
  }
}

function index(map: Map<string, LedgerEvent[]>, key: string, event: LedgerEvent): void {
  const list = map.get(key);
  if (list) list.push(event);
  else map.set(key, [event]);
}

/** Filters events; pure and deterministic, usable over persisted events too. */
export function projectLedger(events: readonly LedgerEvent[], filter: LedgerFilter): readonly LedgerEvent[] {
  const kinds = filter.kind === undefined ? undefined : new Set(typeof filter.kind === 'string' ? [filter.kind] : filter.kind);
  const text = filter.text?.toLowerCase();
  const out: LedgerEvent[] = [];
  const after = filter.afterSequence ?? 0;
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    if (e.sequence <= after) continue;
    if (filter.runId !== undefined && e.runId !== filter.runId) continue;
    if (kinds && !kinds.has(e.kind)) continue;
    if (filter.subjectId !== undefined && e.subjectId !== filter.subjectId) continue;
    if (filter.parentId !== undefined && e.parentId !== filter.parentId) continue;
    if (filter.status !== undefined && e.status !== filter.status) continue;
    if (text && !matchesText(e, text)) continue;
    out.push(e);
    if (filter.limit !== undefined && out.length >= filter.limit) break;
  }
  return Object.freeze(out);
}

const textCache = new WeakMap<LedgerEvent, string>();

function matchesText(event: LedgerEvent, needle: string): boolean {
  let hay = textCache.get(event);
  if (hay === undefined) {
    let data: string;
    try {
      data = JSON.stringify(event.data, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : typeof v === 'symbol' ? String(v) : v));
    } catch {
      data = '';
    }
    hay = `${event.kind} ${event.status ?? ''} ${event.subjectId} ${event.parentId ?? ''} ${data}`.toLowerCase();
    textCache.set(event, hay);
  }
  return hay.includes(needle);
}
