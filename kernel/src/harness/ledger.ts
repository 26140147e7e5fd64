/**
 * The run ledger: the authoritative, append-only causal record of a run. Values enter as immutable
 * snapshots; every Natural execution, dispatch node and run has exactly one terminal event, and the
 * ledger itself refuses a second one. Only host seams append (the Ledger is never handed to
 * compositions; they get read-only projections).
 *
 * Events are typed by kind (the union lives in `shared/ledger-events.ts`). With a `store` the ledger
 * keeps only a bounded window of recent events in memory and writes every event to the store; reads
 * that the window cannot answer in full go to the store, so nothing older is lost or hidden.
 */
import { newId, UsageError, wallClockMs } from '../core/index.js';
import { HostIntegrityError } from './integrity-errors.js';
import { actingForModel, insideHostFrame, refuseInteriorControl } from './host-context.js';
import type { LedgerEventData, LedgerEventKind as SharedKind, LedgerEventOf, LedgerEventStatus } from '../../../shared/ledger-events.js';
import { generatedIdentityOf } from './generated-registry.js';
import { captureLedgerStore, type HostLedgerStore, type LedgerStore } from './ledger-store.js';
import { captureSnapshot, snapshotRedacted, type Snapshot, type SnapshotOptions } from './snapshot.js';
import { append, mapDelete, mapEntries, mapGet, mapHas, mapIteratorNext, mapSet, objectFreeze, setAdd, setDelete, setHas, setIteratorNext, setValues, weakMapGet, weakMapSet } from './intrinsics.js';

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
} as const satisfies Record<string, SharedKind>;
export type LedgerEventKind = SharedKind;

const TERMINAL: ReadonlySet<LedgerEventKind> = new Set(['run.end', 'execution.end', 'dispatch.end']);

/**
 * A schema type as the ledger holds it: read-only all the way down (snapshots are deep-frozen), and
 * every value the schema leaves open is a `Snapshot`.
 */
export type SnapshotOf<T> = unknown extends T
  ? Snapshot
  : T extends readonly (infer E)[]
    ? readonly SnapshotOf<E>[]
    : T extends object
      ? { readonly [K in keyof T]: SnapshotOf<T[K]> }
      : T;

/** What an append may pass where the schema has a shape: live values, snapshotted on the way in. */
export type AppendInput<T> = unknown extends T
  ? unknown
  : T extends readonly (infer E)[]
    ? readonly AppendInput<E>[]
    : T extends object
      ? { readonly [K in keyof T as string extends K ? never : K]: AppendInput<T[K]> }
      : T;

/** One immutable ledger entry; `LedgerEvent<'run.entry'>` narrows `status` and `data` to that kind. */
export type LedgerEvent<K extends LedgerEventKind = LedgerEventKind> = K extends LedgerEventKind ? SnapshotOf<LedgerEventOf<K>> : never;

/** What a host seam appends: the kind fixes the status and data it may carry. */
export type LedgerAppend<K extends LedgerEventKind = LedgerEventKind> = K extends LedgerEventKind
  ? {
      readonly kind: K;
      readonly subjectId: string;
      readonly parentId?: string | undefined;
      readonly status?: LedgerEventStatus<K>;
      readonly data?: AppendInput<LedgerEventData<K>>;
    }
  : never;

/** Receives each event after it is appended (persistence, live notebook display). */
export type LedgerListener = (event: LedgerEvent) => void;

export interface LedgerFilter {
  readonly runId?: string;
  readonly kind?: LedgerEventKind | readonly LedgerEventKind[];
  readonly subjectId?: string;
  readonly parentId?: string;
  readonly status?: string;
  /**
   * Case-insensitive text match over kind, status, ids and the JSON of the data. In memory it is a
   * substring match; a store-backed ledger answers it with full-text search, which matches terms at
   * the start of words (`op_12` finds `op_123`, `p_12` does not).
   */
  readonly text?: string;
  readonly afterSequence?: number;
  readonly limit?: number;
}

/** A filter whose `kind` names one kind or a list of kinds: `select` returns those kinds' event types. */
export type LedgerKindFilter<K extends LedgerEventKind> = LedgerFilter & { readonly kind: K | readonly K[] };

export interface LedgerOptions {
  readonly describeCallable?: SnapshotOptions['describeCallable'];
  /** Writes every event as it is appended; reads go to it for whatever the window does not hold. */
  readonly store?: LedgerStore;
  /** With a store: how many recent events stay in memory (default 2,000). */
  readonly window?: number;
  /** With a store: continue the ledger with this id (after a restart) instead of starting a new one. */
  readonly ledgerId?: string;
}

/** Names of the registered secrets each event's snapshot redacted (events with none are absent). */
const redactions = new WeakMap<LedgerEvent, readonly string[]>();

/** The registered secrets the ledger redacted when it recorded `event`: what the recorded value carried. */
export function redactionsOf(event: LedgerEvent): readonly string[] {
  return weakMapGet(redactions, event) ?? [];
}

const SNAPSHOT_BOUNDS: SnapshotOptions = { maxDepth: 12, maxNodes: 2_000, maxEntries: 200, maxStringLength: 20_000 };
const DEFAULT_WINDOW = 2_000;

/** Ledger snapshots record generated callables by definition identity, not by name. */
export function describeGenerated(fn: Function): { definitionId: string; name?: string } | undefined {
  const identity = generatedIdentityOf(fn);
  return identity ? { definitionId: identity.definitionId, name: identity.exportName } : undefined;
}

// Set by Ledger's static block: the write path appendAsHost hands the run host.
let hostWriter: <K extends LedgerEventKind>(ledger: Ledger, runId: string, entry: LedgerAppend<K>) => LedgerEvent<K>;
let hostCapture: (ledger: Ledger, value: unknown) => object;

export class Ledger {
  /** Identifies this ledger's events in a shared store. */
  readonly ledgerId: string;
  readonly readOnly: boolean;
  readonly #store: LedgerStore | undefined;
  /** The store as this Ledger calls it: methods read once, at construction (captureLedgerStore). */
  readonly #io: HostLedgerStore | undefined;
  readonly #window: number;
  /** Every event without a store; the most recent `#window` events with one. */
  #events: LedgerEvent[] = [];
  #sequence = 0;
  readonly #terminated = new Set<string>();
  // Indexes keep per-subject and per-parent projections flat as the ledger grows (memory-only ledgers).
  readonly #byParent = new Map<string, LedgerEvent[]>();
  readonly #bySubject = new Map<string, LedgerEvent[]>();
  readonly #byRun = new Map<string, LedgerEvent[]>();
  /** Store mode: runs begun in this ledger whose run.entry is still in the window. */
  readonly #windowRuns = new Map<string, number>();
  readonly #listeners = new Set<LedgerListener>();
  readonly #describeCallable: SnapshotOptions['describeCallable'];

  constructor(options: LedgerOptions = {}) {
    this.#describeCallable = options.describeCallable ?? describeGenerated;
    this.#store = options.store;
    this.#io = options.store ? captureLedgerStore(options.store) : undefined;
    this.readOnly = false;
    if (options.window !== undefined && (!Number.isInteger(options.window) || options.window < 1)) {
      throw new UsageError(`Ledger window must be a positive integer (got ${String(options.window)}).`);
    }
    if (!this.#store && (options.window !== undefined || options.ledgerId !== undefined)) {
      throw new UsageError('Ledger `window` and `ledgerId` need a `store`: without one every event stays in memory.');
    }
    this.#window = options.window ?? DEFAULT_WINDOW;
    this.ledgerId = options.ledgerId ?? newId('ldg_');
    if (this.#io) this.#sequence = this.#io.lastSequence(this.ledgerId);
  }

  /**
   * A read-only ledger holding exactly `events` (for example an imported export): `select` and
   * projections work as usual, `append` is refused.
   */
  static readOnly(events: readonly LedgerEvent[], options: { ledgerId?: string } = {}): Ledger {
    const ledger = new Ledger();
    for (const event of events) ledger.#remember(event);
    ledger.#sequence = events.length ? events[events.length - 1]!.sequence : 0;
    Object.defineProperty(ledger, 'readOnly', { value: true });
    if (options.ledgerId) Object.defineProperty(ledger, 'ledgerId', { value: options.ledgerId });
    return ledger;
  }

  /**
   * Appends one event for `runId`. A second terminal event for the same subject is refused. Operator code
   * appends here; while a run's interior executes only the run host writes (through appendAsHost), so the
   * run's own code, model expressions and generated code that reach this Ledger are refused and recorded, as
   * is a call a model planted in a value the host reads after its run (actingForModel).
   */
  append<K extends LedgerEventKind>(runId: string, entry: LedgerAppend<K>): LedgerEvent<K> {
    if (actingForModel()) {
      refuseInteriorControl('Ledger.append', 'ledger_append_refused');
      throw new HostIntegrityError({ attempt: 'ledger-append', detail: 'while a run executes only its run host appends to the ledger' });
    }
    return this.#append(runId, entry);
  }

  static {
    hostWriter = (ledger, runId, entry) => ledger.#append(runId, entry);
    hostCapture = (ledger, value) => captureSnapshot(value, { ...SNAPSHOT_BOUNDS, describeCallable: ledger.#describeCallable });
  }

  #append<K extends LedgerEventKind>(runId: string, entry: LedgerAppend<K>): LedgerEvent<K> {
    if (this.readOnly) throw new UsageError('This ledger is read-only (an imported export): nothing can be appended to it.');
    // A finished run's record is closed: nothing, not even a host seam, adds to it after run.end.
    if (entry.kind !== 'run.end' && setHas(this.#terminated, `run.end:${runId}`)) {
      throw new HostIntegrityError({ attempt: 'append-after-run-end', detail: `run ${runId} has ended; its ledger record is closed` });
    }
    if (setHas(TERMINAL, entry.kind)) {
      if (this.hasTerminal(entry.kind, entry.subjectId)) throw new UsageError(`Ledger already holds the terminal ${entry.kind} event of ${entry.subjectId}.`);
    }
    // One walk snapshots, redacts registered secrets and names what it redacted (for the host's secret_read evidence).
    const recorded = entry.data === undefined ? undefined : snapshotRedacted(entry.data, { ...SNAPSHOT_BOUNDS, describeCallable: this.#describeCallable });
    const event = objectFreeze({
      sequence: this.#sequence + 1,
      eventId: newId('ev_'),
      runId,
      kind: entry.kind,
      subjectId: entry.subjectId,
      parentId: entry.parentId,
      status: entry.status,
      at: wallClockMs(),
      data: recorded === undefined ? null : recorded.snapshot,
    }) as unknown as LedgerEvent;
    this.#sequence = event.sequence;
    // `redacted` is a fresh array of this walk: frozen as it is, no copy (slice would consult the live `constructor`).
    if (recorded !== undefined && recorded.redacted.length > 0) weakMapSet(redactions, event, objectFreeze(recorded.redacted));
    if (this.#store) {
      // A run id this ledger already holds (a resumed ledger) has events the window may not.
      if (event.kind === 'run.entry' && !mapHas(this.#windowRuns, runId) && !this.#io!.hasRun(this.ledgerId, runId)) mapSet(this.#windowRuns, runId, event.sequence);
      // The store owns durability; the window is a cache of what was just written.
      this.#io!.append(this.ledgerId, event);
      append(this.#events, event);
      if (setHas(TERMINAL, event.kind)) setAdd(this.#terminated, `${event.kind}:${event.subjectId}`);
      this.#evict();
    } else {
      this.#remember(event);
    }
    // By the captured iterator: a replaced one would silence the listeners (the notebook's live ledger view).
    const listeners = setValues(this.#listeners) as Iterator<LedgerListener>;
    for (let step = setIteratorNext(listeners); !step.done; step = setIteratorNext(listeners)) {
      const listener = step.value as LedgerListener;
      try {
        listener(event);
      } catch {
        // Listeners observe; a failing one must not undo or block an appended fact.
      }
    }
    return event as LedgerEvent<K>;
  }

  #remember(event: LedgerEvent): void {
    append(this.#events, event);
    if (setHas(TERMINAL, event.kind)) setAdd(this.#terminated, `${event.kind}:${event.subjectId}`);
    index(this.#byRun, event.runId, event);
    index(this.#bySubject, event.subjectId, event);
    if (event.parentId !== undefined) index(this.#byParent, event.parentId, event);
  }

  /** Drops the oldest events in chunks, so eviction is amortised O(1) per append. */
  #evict(): void {
    const slack = Math.max(64, this.#window >> 2);
    if (this.#events.length <= this.#window + slack) return;
    // What leaves memory must already be readable from the store.
    this.#io?.flush();
    // By index and captured operations, as in append: eviction can run inside the same window (and `splice`
    // would consult the live `constructor` for its result).
    const events = this.#events;
    const cut = events.length - this.#window;
    for (let i = 0; i < cut; i++) {
      if (setHas(TERMINAL, events[i]!.kind)) setDelete(this.#terminated, `${events[i]!.kind}:${events[i]!.subjectId}`);
    }
    const kept: LedgerEvent[] = [];
    for (let i = cut; i < events.length; i++) append(kept, events[i]!);
    this.#events = kept;
    const first = this.#events[0]!.sequence;
    const runs = mapEntries(this.#windowRuns as Map<unknown, unknown>);
    for (let step = mapIteratorNext(runs); !step.done; step = mapIteratorNext(runs)) {
      if ((step.value[1] as number) < first) mapDelete(this.#windowRuns, step.value[0] as string);
    }
  }

  /** True once the subject's terminal event of that kind is in the ledger. */
  hasTerminal(kind: LedgerEventKind, subjectId: string): boolean {
    if (setHas(this.#terminated, `${kind}:${subjectId}`)) return true;
    // Older terminal events left the window; the store still answers for them.
    return this.#io !== undefined && this.#io.hasTerminal(this.ledgerId, kind, subjectId);
  }

  /** The store this ledger writes to, if any. */
  get store(): LedgerStore | undefined {
    return this.#store;
  }

  /** Number of events in this ledger (memory and store). */
  get size(): number {
    return this.#sequence;
  }

  /** Store mode: the events still held in memory (the most recent ones). */
  get window(): readonly LedgerEvent[] {
    return Object.freeze(this.#events.slice());
  }

  /** A frozen copy of all events, in order. With a store this reads them all back: prefer `select`. */
  events(): readonly LedgerEvent[] {
    if (this.#io) return this.#io.select({}, this.ledgerId);
    return Object.freeze(this.#events.slice());
  }

  /**
   * Operator-only, as the read-only view's is: a listener runs inside every later append, host seams included, so
   * one a run's code added (a bound host function) would act at the host's seams and after the run.
   */
  subscribe(listener: LedgerListener): () => void {
    if (insideHostFrame() || actingForModel()) {
      refuseInteriorControl('Ledger.subscribe');
      throw new HostIntegrityError({ attempt: 'ledger-subscribe', detail: 'subscribing to the ledger is an operator control; a run reads its history through its context' });
    }
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** A deterministic filter over the ledger (history projections are never semantic). */
  select<K extends LedgerEventKind>(filter: LedgerKindFilter<K>): readonly LedgerEvent<K>[];
  select(filter?: LedgerFilter): readonly LedgerEvent[];
  select(filter: LedgerFilter = {}): readonly LedgerEvent[] {
    if (this.#store) {
      const inWindow = this.#fromWindow(filter);
      return inWindow ?? this.#io!.select(filter, this.ledgerId);
    }
    let candidates: readonly LedgerEvent[] = this.#events;
    if (filter.subjectId !== undefined) candidates = this.#bySubject.get(filter.subjectId) ?? [];
    else if (filter.parentId !== undefined) candidates = this.#byParent.get(filter.parentId) ?? [];
    else if (filter.runId !== undefined) candidates = this.#byRun.get(filter.runId) ?? [];
    return projectLedger(candidates, filter);
  }

  /** The window answers a filter only when every event it could match is still in memory. */
  #fromWindow(filter: LedgerFilter): readonly LedgerEvent[] | undefined {
    if (filter.text !== undefined || this.#events.length === 0) return undefined;
    const first = this.#events[0]!.sequence;
    const complete = (filter.afterSequence !== undefined && filter.afterSequence >= first - 1) || (filter.runId !== undefined && this.#windowRuns.has(filter.runId));
    return complete ? projectLedger(this.#events, filter) : undefined;
  }

  /** Writes out anything the store buffers. */
  flush(): void {
    this.#io?.flush();
  }

  /** Methods of the store object that no longer resolve to the ones this Ledger read at construction. */
  storeModified(): readonly string[] {
    return this.#io?.modified() ?? [];
  }
}

function index(map: Map<string, LedgerEvent[]>, key: string, event: LedgerEvent): void {
  const list = mapGet(map, key);
  if (list) append(list, event);
  else mapSet(map, key, [event]);
}

/** Filters events; pure and deterministic, usable over persisted events too. */
export function projectLedger<K extends LedgerEventKind>(events: readonly LedgerEvent[], filter: LedgerKindFilter<K>): readonly LedgerEvent<K>[];
export function projectLedger(events: readonly LedgerEvent[], filter: LedgerFilter): readonly LedgerEvent[];
export function projectLedger(events: readonly LedgerEvent[], filter: LedgerFilter): readonly LedgerEvent[] {
  const kinds = filter.kind === undefined ? undefined : new Set<string>(typeof filter.kind === 'string' ? [filter.kind] : filter.kind);
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

/** The text a `text` filter searches (lower-cased). */
export function ledgerSearchText(event: LedgerEvent): string {
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
  return hay;
}

function matchesText(event: LedgerEvent, needle: string): boolean {
  return ledgerSearchText(event).includes(needle);
}

// An authority class: no method of it can be replaced (a leaked path to the prototype cannot patch `append`, say).
Object.freeze(Ledger.prototype);


/**
 * The ledger's snapshot of `value` as it is now, as a token a later append of this ledger records in its place
 * (an input captured before the body that could change it runs). Host modules only, as appendAsHost.
 */
export function captureForLedger(ledger: Ledger, value: unknown): object {
  return hostCapture(ledger, value);
}

/** The run host's (and Runner's) write path: not exported from the harness index, so only host modules hold it. */
export function appendAsHost<K extends LedgerEventKind>(ledger: Ledger, runId: string, entry: LedgerAppend<K>): LedgerEvent<K> {
  return hostWriter(ledger, runId, entry);
}
