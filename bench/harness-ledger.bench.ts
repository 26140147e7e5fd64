/**
 * Ledger append cost (target p50 < 20 µs) beside a plain array push of the same frozen record,
 * and the cost of replaying a 1,000-operation ledger projection (target < 100 ms), with the
 * per-step projection cost at the 10th and the 1,000th step (target: flat).
 */
import { Ledger, projectLedger, type LedgerEvent } from '../kernel/src/index.js';
import { report, sample } from './stats.js';

const record = (i: number) => ({ request: { operationId: `op_${i}`, kind: 'evaluate', expression: `work(${i})`, stepId: 'bench:1', executionId: `exe_${i >> 3}`, runId: 'run_bench' }, status: 'completed' as const, sequence: i, startedAt: 0, durationMs: 0.01 });

async function main(): Promise<void> {
  const ledger = new Ledger();
  let i = 0;
  const appends = await sample(20_000, () => ledger.append('run_bench', { kind: 'operation', subjectId: `op_${i}`, parentId: `exe_${i >> 3}`, status: 'completed', data: record(i++) }));
  const plain: unknown[] = [];
  let j = 0;
  const baseline = await sample(20_000, () => plain.push(Object.freeze({ ...record(j++) })));
  report('harness.ledger_append', appends, baseline);

  // A 1,000-operation run: 125 steps of 8 operations, each step with start and end events.
  const run = new Ledger();
  for (let s = 0; s < 125; s++) {
    run.append('run_replay', { kind: 'execution.start', subjectId: `exe_${s}`, parentId: 'run_replay' });
    for (let k = 0; k < 8; k++) run.append('run_replay', { kind: 'operation', subjectId: `op_${s}_${k}`, parentId: `exe_${s}`, status: 'completed', data: record(s * 8 + k) });
    run.append('run_replay', { kind: 'execution.end', subjectId: `exe_${s}`, parentId: 'run_replay', status: 'completed' });
  }
  const events: readonly LedgerEvent[] = run.events();
  const replay = await sample(200, () => {
    const ops = projectLedger(events, { runId: 'run_replay', kind: 'operation' });
    const byStep = new Map<string, number>();
    for (const e of ops) byStep.set(e.parentId!, (byStep.get(e.parentId!) ?? 0) + 1);
    if (byStep.size !== 125) throw new Error('bad projection');
  });
  const fullScan = await sample(200, () => events.filter((e) => e.kind === 'operation').length);
  report('harness.ledger_replay_1000_ops', replay, fullScan);

  // Per-step projection cost early vs late in a growing ledger.
  const big = new Ledger();
  const early: number[] = [];
  const late: number[] = [];
  for (let s = 0; s < 1000; s++) {
    for (let k = 0; k < 8; k++) big.append('run_big', { kind: 'operation', subjectId: `op_${s}_${k}`, parentId: `exe_${s}`, status: 'completed', data: record(s * 8 + k) });
    if (s === 10 || s === 999) {
      const target = s === 10 ? early : late;
      target.push(...(await sample(500, () => big.select({ parentId: `exe_${s}`, kind: 'operation' }))));
    }
  }
  report('harness.ledger_step_projection_1000th_vs_10th', late, early);
}

await main();
