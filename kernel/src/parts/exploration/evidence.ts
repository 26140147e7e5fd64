/**
 * Deterministic selection of one exploration's ledger events: its proposal executions, their
 * operations, its materialization nodes, the invocation nodes of those materializations (the checks'
 * calls) and everything parented to them, plus its own part events. A filter, never a summary.
 */
import type { LedgerEvent, Snapshot } from '../../harness/index.js';

/** Reads a property of a snapshotted plain object; undefined for anything else. */
export function field(data: Snapshot, key: string): Snapshot | undefined {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return undefined;
  const record = data as { readonly [k: string]: Snapshot };
  if ('$kind' in record) return undefined;
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

export function stringField(data: Snapshot, key: string): string | undefined {
  const value = field(data, key);
  return typeof value === 'string' ? value : undefined;
}

export interface SelectionSeeds {
  readonly explorationId: string;
  readonly executionIds: ReadonlySet<string>;
  readonly dispatchNodeIds: ReadonlySet<string>;
  readonly materializationIds: ReadonlySet<string>;
}

export function selectExplorationEvents(events: readonly LedgerEvent[], seeds: SelectionSeeds): readonly LedgerEvent[] {
  const ids = new Set<string>([...seeds.executionIds, ...seeds.dispatchNodeIds]);
  const out: LedgerEvent[] = [];
  // Events are in sequence order, so a node is always known before its children.
  for (const e of events) {
    if (e.kind === 'part.event') {
      const event = field(e.data, 'event');
      if (stringField(e.data, 'part') === 'exploration' && event !== undefined && stringField(event, 'explorationId') === seeds.explorationId) out.push(e);
      continue;
    }
    if (e.kind === 'dispatch.start' && e.status === 'invocation') {
      const materializationId = stringField(e.data, 'materializationId');
      if (materializationId !== undefined && seeds.materializationIds.has(materializationId)) ids.add(e.subjectId);
    }
    if (ids.has(e.subjectId) || (e.parentId !== undefined && ids.has(e.parentId))) {
      out.push(e);
      // Nested nodes (a capability call or dispatch under an invocation) carry their own children.
      if (e.kind === 'dispatch.start' || e.kind === 'execution.start') ids.add(e.subjectId);
    }
  }
  return Object.freeze(out);
}
