/**
 * EXPERIMENTAL, NOT DURABLE. Keeps perimeter audit records in process memory, so they vanish with the
 * process. Selecting it explicitly declares a configuration that does not satisfy the durability
 * obligation of seed 002; use `SqlitePerimeterAuditStore` (or a platform store) for real runs.
 */
import { refuseHostStoreInRun } from './host-context.js';
import {
  parsePerimeterAttempt,
  parsePerimeterAuditFilter,
  parsePerimeterCompletion,
  type PerimeterAttempt,
  type PerimeterAuditEntry,
  type PerimeterAuditFilter,
  type PerimeterAuditStore,
  type PerimeterCompletion,
} from './audit-store.js';
import { PerimeterAuditConflictError, PerimeterAuditStoreUnavailableError, type PerimeterAuditStoreOperation } from './errors.js';
import { mapGet, mapHas, mapSet, mapSizeOf } from './intrinsics.js';

interface Row {
  readonly sequence: number;
  readonly attempt: PerimeterAttempt;
  completion?: PerimeterCompletion;
}

export class InMemoryPerimeterAuditStore implements PerimeterAuditStore {
  readonly durable = false as const;
  readonly experimental = true as const;
  #rows = new Map<string, Row>();
  #closed = false;

  recordAttempt(attempt: PerimeterAttempt): void {
    refuseHostStoreInRun('audit', 'InMemoryPerimeterAuditStore.recordAttempt');
    this.#open('recordAttempt');
    const parsed = parsePerimeterAttempt(attempt);
    // Captured Map methods: generated code calls perimeter capabilities, and a replaced Map.prototype.set would
    // let the effect proceed with its attempt recorded nowhere.
    if (mapHas(this.#rows, parsed.attemptId)) {
      throw new PerimeterAuditConflictError({ reason: 'duplicate-attempt', attemptId: parsed.attemptId });
    }
    mapSet(this.#rows, parsed.attemptId, { sequence: mapSizeOf(this.#rows) + 1, attempt: parsed });
  }

  recordCompletion(completion: PerimeterCompletion): void {
    refuseHostStoreInRun('audit', 'InMemoryPerimeterAuditStore.recordCompletion');
    this.#open('recordCompletion');
    const parsed = parsePerimeterCompletion(completion);
    const row = mapGet(this.#rows, parsed.attemptId);
    if (!row) throw new PerimeterAuditConflictError({ reason: 'unknown-attempt', attemptId: parsed.attemptId });
    if (row.completion) throw new PerimeterAuditConflictError({ reason: 'duplicate-completion', attemptId: parsed.attemptId });
    row.completion = parsed;
  }

  get(attemptId: string): PerimeterAuditEntry | undefined {
    this.#open('get');
    const row = this.#rows.get(attemptId);
    return row && entryOf(row);
  }

  list(filter?: PerimeterAuditFilter): readonly PerimeterAuditEntry[] {
    this.#open('list');
    const f = parsePerimeterAuditFilter(filter);
    const out: PerimeterAuditEntry[] = [];
    for (const row of this.#rows.values()) {
      if (f.limit !== undefined && out.length >= f.limit) break;
      const entry = entryOf(row);
      const a = entry.attempt;
      if (f.runId !== undefined && a.runId !== f.runId) continue;
      if (f.executionId !== undefined && a.executionId !== f.executionId) continue;
      if (f.dispatchNodeId !== undefined && a.dispatchNodeId !== f.dispatchNodeId) continue;
      if (f.capability !== undefined && a.capability !== f.capability) continue;
      if (f.status !== undefined && entry.status !== f.status) continue;
      if (f.afterSequence !== undefined && entry.sequence <= f.afterSequence) continue;
      out.push(entry);
    }
    return Object.freeze(out);
  }

  close(): void {
    refuseHostStoreInRun('audit', 'InMemoryPerimeterAuditStore.close');
    this.#closed = true;
  }

  #open(operation: PerimeterAuditStoreOperation): void {
    if (this.#closed) throw new PerimeterAuditStoreUnavailableError({ operation, reason: 'closed' });
  }
}

function entryOf(row: Row): PerimeterAuditEntry {
  return Object.freeze({
    sequence: row.sequence,
    attempt: row.attempt,
    status: row.completion ? row.completion.status : 'indeterminate',
    ...(row.completion ? { completion: row.completion } : {}),
  });
}

// An authority class: no method of it can be replaced (a leaked path to the prototype cannot patch `append`, say).
Object.freeze(InMemoryPerimeterAuditStore.prototype);
