/** A small run (call tree) and its ledger, shaped as the kernel emits them, for the run view and ledger tests. */
import type { LedgerPayload, RunPayload } from '../../shared/ui-types.js';

// Real run ids share their time and process characters; only the tail differs.
export const RUN_A = 'run_01KB3ZQ8T4M7XJ2P9QHD0000A1';
export const RUN_B = 'run_01KB3ZQ8T4M7XJ2P9QHD0000B7';

export const LONG_SUMMARY = 'operation refund_customer: rejected — refunds above the 500 EUR limit need a second approver; the model proposed 1,250 EUR for order 88231 after reading the complaint thread';

export function smallRun(): RunPayload {
  return {
    runId: RUN_A,
    functionName: 'refund',
    status: 'completed',
    executions: [{
      executionId: 'exec_A1',
      stepId: 'decide',
      status: 'completed',
      operations: [
        { operationId: 'op_A1', kind: 'evaluate', status: 'completed', expression: 'order.total', valuePreview: '1250' },
        { operationId: 'op_A2', kind: 'tool', status: 'rejected', toolName: 'refund_customer', rejection: { reason: 'above the limit', guidance: 'ask for a second approver' } },
        { operationId: 'op_A3', kind: 'output', status: 'completed', expression: "'escalated'", outcome: 'return' },
      ],
      streams: [
        { name: 'stdout', text: 'looking up order 88231\n' },
        { name: 'stdout', text: 'refund refused, escalating\n', afterOperationId: 'op_A2' },
      ],
    }],
    streams: [{ name: 'stdout', text: 'done\n', afterExecutionId: 'exec_A1' }],
  } as RunPayload;
}

export function smallLedger(): LedgerPayload {
  const at = Date.UTC(2026, 11, 1, 12, 3, 41);
  return {
    entries: [
      { sequence: 1, runId: RUN_A, kind: 'run.entry', summary: 'run refund entered (policy: [])', at, subjectId: RUN_A, runLabel: 'refund', data: { label: 'refund', effectivePolicy: [] } },
      { sequence: 2, runId: RUN_A, kind: 'operation', status: 'rejected', summary: LONG_SUMMARY, parentId: 'exec_A1', at: at + 5, subjectId: 'op_A2', runLabel: 'refund', data: { request: { kind: 'tool', toolName: 'refund_customer', arguments: { amount: 1250, order: 88231 } }, rejection: { reason: 'above the limit' } } },
      { sequence: 3, runId: RUN_B, kind: 'run.entry', summary: 'run triage entered (policy: [])', at: at + 9, subjectId: RUN_B, runLabel: 'triage', data: { label: 'triage', effectivePolicy: [] } },
    ],
  } as LedgerPayload;
}
