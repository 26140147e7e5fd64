/** A deterministic 10,000-entry ledger for the ledger view's test and benchmark. */
import type { LedgerPayload } from '../../shared/ui-types.js';

export const LEDGER_ENTRIES = 10_000;
const KINDS = ['operation', 'execution.start', 'capability.call', 'allocation.exhausted'] as const;
const STATUSES = ['completed', 'rejected', 'skipped', 'failed'] as const;

/** Runs alternate run-a/run-b; statuses cycle every four entries; entry 7778 holds the word "needle". */
export function bigLedger(entries = LEDGER_ENTRIES): LedgerPayload {
  return {
    runId: 'run-a',
    entries: Array.from({ length: entries }, (_, i) => ({
      sequence: i + 1,
      runId: i % 2 === 0 ? 'run-a' : 'run-b',
      kind: KINDS[i % KINDS.length]!,
      status: STATUSES[Math.floor(i / 4) % STATUSES.length]!,
      summary: i === 7777 ? 'needle: refund above limit refused' : `entry ${i + 1} of the run`,
      at: 1_760_000_000_000 + i * 10,
    })),
  };
}
