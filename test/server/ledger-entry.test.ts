/** Issue 19.4 (kernel side): ledger rows carry what the ledger view needs to expand and cross-link a row. */
import { describe, expect, test } from 'vitest';
import { Ledger } from '../../kernel/src/harness/index.js';
import { ledgerEntry, runLabels } from '../../kernel/src/server/display/run-view.js';

describe('ledger rows for the ledger view', () => {
  test('carry the subject id, the run label and the event snapshot', () => {
    const ledger = new Ledger();
    ledger.append('run_1', { kind: 'run.entry', subjectId: 'run_1', data: { label: 'refund', effectivePolicy: [] } as never }); // partial shapes: the row builder reads only these fields
    const op = ledger.append('run_1', { kind: 'operation', subjectId: 'op_1', parentId: 'exec_1', status: 'rejected', data: { request: { kind: 'tool', toolName: 'pay', arguments: { amount: 3 } }, rejection: { reason: 'no' } } as never });
    const labels = runLabels(ledger.select({ kind: 'run.entry' }));
    expect(labels.get('run_1')).toBe('refund');
    const row = ledgerEntry(op, labels.get('run_1')) as Record<string, unknown>;
    expect(row).toMatchObject({ sequence: op.sequence, runId: 'run_1', kind: 'operation', status: 'rejected', parentId: 'exec_1', subjectId: 'op_1', runLabel: 'refund' });
    expect(row.data).toEqual({ request: { kind: 'tool', toolName: 'pay', arguments: { amount: 3 } }, rejection: { reason: 'no' } });
    // Without a label the row simply has none.
    expect('runLabel' in ledgerEntry(op)).toBe(false);
  });
});
