/**
 * Per-operation host overhead on the product's real path: inside a Runner, with the host oversight,
 * the capability/tool projection and every operation recorded as a ledger snapshot (issue 2's target:
 * p50 < 0.1 ms), beside the core-only figure measured in the same process; and the 10th vs the 200th
 * operation of one step (target: flat, the ledger and history must not be copied per operation).
 * With an application `inspectOperation` the host runs the full realm check before each decision
 * (~0.1 ms); `..._without_app_inspector` is the same loop without one.
 */
import { AgentExecutor, Runner, accept, redactionsIn, redactValue, registerSecret, run, scope, step, type OperationRequest } from '../kernel/src/index.js';
import { snapshot, snapshotRedacted } from '../kernel/src/harness/snapshot.js';
import { ScriptedModel, toolCall } from '../kernel/src/testing.js';
import { percentile, report } from './stats.js';

const OPS = 200;
const STEPS = 60;

let counter = 0;
const work = (n: number) => (counter += n);
const inspectOperation = (_r: OperationRequest) => accept();

function scripted(stamps: number[]): ScriptedModel {
  return new ScriptedModel((_messages, info) => {
    stamps.push(performance.now());
    if (stamps.length > OPS) return { toolCalls: [toolCall(info.outputTools[0]!.name, { result: { kind: 'pass' } })] };
    return { toolCalls: [toolCall('nh_evaluate', { expression: 'work(1)' })] };
  });
}

function deltas(stamps: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < stamps.length; i++) out.push(stamps[i]! - stamps[i - 1]!);
  return out;
}

async function coreStep(): Promise<number[]> {
  const stamps: number[] = [];
  await run(new AgentExecutor({ model: scripted(stamps), maxRequestsPerStep: OPS + 5 }), () =>
    scope({ taskReferences: { work }, oversight: { inspectOperation } }, () => step({ program: 'execute\nWork.' })),
  );
  return deltas(stamps);
}

async function main(): Promise<void> {
  // One Runner (one growing ledger) for every step, as in a long-lived Session.
  let current: number[] = [];
  const executor = new AgentExecutor({
    model: new ScriptedModel((_m, info) => {
      current.push(performance.now());
      if (current.length > OPS) return { toolCalls: [toolCall(info.outputTools[0]!.name, { result: { kind: 'pass' } })] };
      return { toolCalls: [toolCall('nh_evaluate', { expression: 'work(1)' })] };
    }),
    maxRequestsPerStep: OPS + 5,
  });
  const runner = new Runner({ executor, allocation: { maxExecutorSteps: OPS + 10 } });
  const perOp: number[] = [];
  const tenth: number[] = [];
  const last: number[] = [];
  const core: number[] = [];
  for (let s = 0; s < STEPS + 5; s++) {
    current = [];
    await runner.run(async () => step({ program: 'execute\nWork.', references: { work } }), { grant: { references: { work } }, oversight: { inspectOperation } });
    const d = deltas(current);
    const c = await coreStep();
    if (s < 5) continue; // warm-up
    perOp.push(...d);
    tenth.push(d[9]!);
    last.push(d[OPS - 1]!);
    core.push(...c);
  }
  const bare: number[] = [];
  for (let s = 0; s < STEPS + 5; s++) {
    current = [];
    await runner.run(async () => step({ program: 'execute\nWork.', references: { work } }), { grant: { references: { work } } });
    if (s >= 5) bare.push(...deltas(current));
  }
  report('harness.runner_operation_overhead', perOp, core);
  report('harness.runner_operation_overhead_without_app_inspector', bare, core);
  report('harness.runner_operation_200th_vs_10th', last, tenth);
  const growth = percentile(last, 50) / percentile(tenth, 50);
  console.log(`# runner+ledger per-op p50 ${percentile(perOp, 50).toFixed(4)} ms (target < 0.03) beside core-only ${percentile(core, 50).toFixed(4)} ms; 200th/10th p50 ratio ${growth.toFixed(2)} (target <= 1.5); ledger events ${runner.ledger.size}`);

  // Last: a registered secret is process-wide and permanent.
  registerSecret('BENCH_API_KEY', SECRET);
  recordRedaction();
  const withSecret: number[] = [];
  for (let s = 0; s < STEPS + 5; s++) {
    current = [];
    await runner.run(async () => step({ program: 'execute\nWork.', references: { work } }), { grant: { references: { work } }, oversight: { inspectOperation } });
    if (s >= 5) withSecret.push(...deltas(current));
  }
  report('harness.runner_operation_with_secret', withSecret, perOp);
}

const SECRET = 'sk-bench-0123456789abcdefghijklmnop';

/**
 * Recording one operation with a registered secret: the one walk that snapshots, redacts and reports
 * (what the ledger does) beside the former path, a snapshot, a redacting walk over it and a walk that
 * looks for the redactions, in the same process. Timed in batches: one record takes microseconds.
 */
function recordRedaction(): void {
  const record = {
    request: { operationId: 'op_01', kind: 'evaluate', stepId: 'natural-block', executionId: 'exe_01', runId: 'run_01', expression: 'work(1)', toolName: 'nh_evaluate' },
    status: 'completed',
    sequence: 3,
    startedAt: 1_796_000_000_000,
    durationMs: 0.02,
    valuePreview: `{"reply":"the key is ${SECRET}","items":[1,2,3]}`,
    usage: { requests: 1, inputTokens: 120, outputTokens: 30 },
  };
  const BATCH = 200;
  const time = (fn: () => unknown): number[] => {
    const out: number[] = [];
    for (let round = 0; round < 550; round++) {
      const t0 = performance.now();
      for (let i = 0; i < BATCH; i++) fn();
      if (round >= 50) out.push((performance.now() - t0) / BATCH);
    }
    return out;
  };
  const before = time(() => {
    const data = redactValue(snapshot(record));
    return redactionsIn(data);
  });
  const now = time(() => snapshotRedacted(record).redacted);
  report('harness.operation_record_redaction_one_walk', now, before);
}

await main();
