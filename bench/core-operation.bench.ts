/**
 * Host overhead per operation (inspection, evaluation, record) with a scripted model, beside a
 * direct call of the same function in the same run; and the cost of the 10th vs the 200th
 * operation of one step (the history must not be copied per turn).
 */
import { AgentExecutor, accept, run, scope, step, type OperationRequest } from '../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../kernel/src/testing.js';
import { percentile, report } from './stats.js';

const OPS = 200;
const STEPS = 60;

let counter = 0;
const work = (n: number) => (counter += n);
const inspectOperation = (_r: OperationRequest) => accept();

/** One step of OPS single-call turns; returns per-operation wall times (model turn to next turn). */
async function oneStep(): Promise<number[]> {
  const stamps: number[] = [];
  const model = new ScriptedModel((_messages, info) => {
    stamps.push(performance.now());
    if (stamps.length > OPS) return { toolCalls: [toolCall(info.outputTools[0]!.name, { result: { kind: 'pass' } })] };
    return { toolCalls: [toolCall('nh_evaluate', { expression: 'work(1)' })] };
  });
  await run(new AgentExecutor({ model, maxRequestsPerStep: OPS + 5 }), () =>
    scope({ taskReferences: { work }, oversight: { inspectOperation } }, () => step({ program: 'execute\nWork.' })),
  );
  const deltas: number[] = [];
  for (let i = 1; i < stamps.length; i++) deltas.push(stamps[i]! - stamps[i - 1]!);
  return deltas;
}

async function main(): Promise<void> {
  const perOp: number[] = [];
  const tenth: number[] = [];
  const twoHundredth: number[] = [];
  for (let s = 0; s < STEPS + 5; s++) {
    const d = await oneStep();
    if (s < 5) continue; // warm-up
    perOp.push(...d);
    tenth.push(d[9]!);
    twoHundredth.push(d[OPS - 1]!);
  }
  const direct: number[] = [];
  for (let i = 0; i < perOp.length; i++) {
    const t0 = performance.now();
    await Promise.resolve(work(1));
    direct.push(performance.now() - t0);
  }
  report('core.operation_overhead', perOp, direct);
  report('core.operation_200th_vs_10th', twoHundredth, tenth);
  const growth = percentile(twoHundredth, 50) / percentile(tenth, 50);
  console.log(`# 200th/10th p50 ratio ${growth.toFixed(2)} (target <= 1.5); per-op p50 target < 0.1 ms`);
}

await main();
