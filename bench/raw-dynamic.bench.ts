/**
 * Per-operation overhead of the run-time raw-dynamic tier (issue 13): the same Natural execution of 20
 * `nh_evaluate` operations with the tier on and off, alternating in one process (target: ratio < 1.2).
 * A second line adds the built-in pollution checks (hot set per operation, full set per execution).
 */
import { AgentExecutor, Runner, step } from '../kernel/src/index.js';
import { setRuntimeTierActive } from '../kernel/src/harness/raw-dynamic-runtime.js';
import { setRealmChecksActive } from '../kernel/src/harness/realm-integrity.js';
import { ScriptedModel, toolCall } from '../kernel/src/testing.js';
import { report } from './stats.js';

const OPS = 20;
const calls = Array.from({ length: OPS }, (_, i) => toolCall('nh_evaluate', { expression: `items.filter((x) => x % ${i + 2} === 0).map((x) => ({ x, s: String(x) })).length` }));
const items = Array.from({ length: 50 }, (_, i) => i);

async function oneRun(runner: Runner): Promise<number> {
  const t0 = performance.now();
  await runner.run(async () => step({ program: 'execute\nCount <items>.', values: { items } }));
  return (performance.now() - t0) / OPS;
}

function runnerFor(): Runner {
  const model = new ScriptedModel(() => ({ toolCalls: [...calls, toolCall('nh_output', { result: { kind: 'pass' } })] }));
  return new Runner({ executor: new AgentExecutor({ model, maxRequestsPerStep: 10 }) });
}

async function compare(name: string, set: (on: boolean) => void): Promise<void> {
  const runner = runnerFor();
  const on: number[] = [];
  const off: number[] = [];
  for (let i = 0; i < 60; i++) {
    set(i % 2 === 0);
    await oneRun(runner);
  }
  for (let i = 0; i < 400; i++) {
    const active = i % 2 === 0;
    set(active);
    (active ? on : off).push(await oneRun(runner));
  }
  report(name, on, off);
}

async function main(): Promise<void> {
  setRealmChecksActive(false);
  await compare('harness.raw_dynamic_tier_per_operation', setRuntimeTierActive);
  await compare('harness.raw_dynamic_tier_and_realm_checks_per_operation', (on) => {
    setRuntimeTierActive(on);
    setRealmChecksActive(on);
  });
  setRuntimeTierActive(true);
  setRealmChecksActive(true);
}

await main();
