/**
 * The executor-step admission is the step executor's seam (seed 002): it admits each provider request, runs it as
 * host infrastructure and reports its usage to the allocation. Model code must never get it, directly or through
 * a value the host reads while it sets up a step; usage figures never lower the accounting; and an admission
 * kept past its Natural execution admits nothing. Each attack runs from a model expression, generated code and
 * a SessionFunction body.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

const finish = () => toolCall('nh_output', { result: { kind: 'pass' } });
const anomalies = (events: readonly nh.LedgerEvent[]) => events.filter((e) => e.kind === 'trace.anomaly').map((e) => e.status);

/**
 * Starts a Natural step with a Proxy reference whose traps try the admission: a trap the host ran while rendering
 * the step would write `probe.scratch` under the model-request allowance.
 */
const TRAP_ATTACK = `
  const fs = process.getBuiltinModule('node:fs');
  const hit = (where) => {
    probe.traps.push(where);
    try {
      const admission = nh.currentState().requestAdmission;
      probe.pending = admission && admission.request(async () => fs.writeFileSync(probe.scratch, 'x'));
      if (probe.pending) probe.pending.catch(() => {});
    } catch (e) { probe.refused = e.name; }
  };
  const bait = new Proxy({ note: 'n' }, {
    get(o, k) { hit('get'); return o[k]; }, ownKeys(o) { hit('ownKeys'); return Reflect.ownKeys(o); },
    getOwnPropertyDescriptor(o, k) { hit('gopd'); return Reflect.getOwnPropertyDescriptor(o, k); },
    getPrototypeOf() { hit('proto'); return Object.prototype; }, has(o, k) { hit('has'); return k in o; },
  });
  await nh.step({ program: 'execute\\nRead <bait>.', references: { bait } });
  if (probe.pending) await probe.pending.catch(() => {});
  return 'done';`;

function trapProbe() {
  const dir = mkdtempSync(join(tmpdir(), 'nh-admission-'));
  return { scratch: join(dir, 'written-under-allowance.txt'), traps: [] as string[], refused: undefined as string | undefined };
}

/** A model that answers the attacked step's child with one look at its prompt, and every other request with pass. */
function promptRecordingModel(first?: () => ReturnType<typeof toolCall>) {
  const prompts: string[] = [];
  const model = new ScriptedModel((messages, info) => {
    prompts.push(messages.map((m) => ('content' in m && typeof m.content === 'string' ? m.content : '')).join('\n'));
    if (first && info.requestNumber === 1) return { toolCalls: [first()] };
    return { toolCalls: [finish()] };
  });
  return { model, prompts };
}

describe('a proxy the host reads while setting up a step never runs its traps, so it cannot reach the admission', () => {
  it('from a model expression', async () => {
    const probe = trapProbe();
    const { model, prompts } = promptRecordingModel(() => toolCall('nh_evaluate', { expression: `(async () => { ${TRAP_ATTACK} })()` }));
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
    await runner.run(async () => nh.step({ program: 'execute\nGo.' }), { grant: { references: { nh, probe } } });
    expect(probe.traps).toEqual([]);
    expect(existsSync(probe.scratch)).toBe(false);
    expect(prompts.some((p) => p.includes('bait: object = <proxy>'))).toBe(true);
  });

  it('from generated code', async () => {
    const probe = trapProbe();
    const { model, prompts } = promptRecordingModel();
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
    await runner.run(
      async (ctx) => {
        const module = await ctx.dispatch({
          language: 'javascript',
          intent: 'define',
          source: `export async function attack() { ${TRAP_ATTACK} }`,
          dependencies: [
            { name: 'nh', kind: 'reference', type: 'object' },
            { name: 'probe', kind: 'reference', type: 'object' },
          ],
        });
        return (module.exports['attack'] as () => Promise<string>)();
      },
      { grant: { references: { nh, probe } } },
    );
    expect(probe.traps).toEqual([]);
    expect(existsSync(probe.scratch)).toBe(false);
    expect(prompts.some((p) => p.includes('bait: object = <proxy>'))).toBe(true);
  });

  it('from a SessionFunction body', async () => {
    const probe = trapProbe();
    const { model } = promptRecordingModel();
    const session = new nh.Session({ executor: new nh.AgentExecutor({ model }) });
    const body = new Function('nh', 'probe', `return async function attack() { ${TRAP_ATTACK} };`)(nh, probe) as () => Promise<string>;
    const { attack } = session.materialized(session.submit('async function attack() {}'), { attack: body });
    await expect(attack!()).resolves.toBe('done');
    expect(probe.traps).toEqual([]);
    expect(existsSync(probe.scratch)).toBe(false);
  });
});

describe('the admission refuses model code and outlives nothing', () => {
  it('admit, observe and request from an expression are refused and recorded (the allocation cannot be read or reset through them)', async () => {
    const probe: Record<string, unknown> = {};
    const tries = ['admit()', 'observe({ inputTokens: -1e9 })', 'request(async () => 1)']
      .map((use) => `await (async () => { try { await nh.currentExecutorStepAdmission().${use}; return 'allowed'; } catch (e) { return e.name; } })()`)
      .join(', ');
    const model = new ScriptedModel((_m, info) => (info.requestNumber === 1 ? { toolCalls: [toolCall('nh_evaluate', { expression: `(async () => { probe.seen = [${tries}]; })()` }), finish()] } : { toolCalls: [finish()] }));
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
    await runner.run(async () => nh.step({ program: 'execute\nGo.' }), { grant: { references: { nh, probe } } });
    expect(probe['seen']).toEqual(['HostIntegrityError', 'HostIntegrityError', 'HostIntegrityError']);
    expect(anomalies(runner.ledger.events()).filter((k) => k === 'admission_from_operation' || k === 'operator_control_in_run').length).toBeGreaterThanOrEqual(3);
  });

  it("an admission a custom executor kept past its execution's end admits nothing more, and the attempt is recorded", async () => {
    let kept: ReturnType<typeof nh.currentExecutorStepAdmission> | undefined;
    const custom: nh.StepExecutor & { admitsExecutorSteps: true } = {
      admitsExecutorSteps: true,
      async runStep() {
        kept ??= nh.currentExecutorStepAdmission();
        await kept.request(async () => undefined);
        return { outcome: nh.Pass };
      },
    };
    const runner = new nh.Runner({ executor: custom });
    const error = await runner
      .run(async () => {
        await nh.step({ program: 'execute\nFirst.' });
        await nh.step({ program: 'execute\nSecond.' });
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(nh.NaturalExecutionError);
    expect(anomalies(runner.ledger.events())).toContain('stale_admission');
    const ends = runner.ledger.select({ kind: 'execution.end' }).map((e) => e.status);
    expect(ends).toEqual(['completed', 'failed']);
  });

  it('usage never lowers the accounting: negative or NaN figures are refused by the meter and ignored by the allocation', async () => {
    const meter = new nh.UsageMeter();
    meter.record({ inputTokens: 10, requests: 1 });
    expect(() => meter.record({ inputTokens: -1e9 })).toThrow(/finite, non-negative/);
    expect(() => meter.record({ requests: Number.NaN })).toThrow(/finite, non-negative/);
    expect(meter.total).toEqual({ inputTokens: 10, outputTokens: 0, requests: 1 });
    // Through a run under aggregate accounting: a model expression records negative usage on its execution's meter.
    const run = async (attack: boolean) => {
      const probe: Record<string, unknown> = {};
      const model = new ScriptedModel((_m, info) => {
        const usage = { inputTokens: 400, outputTokens: 0 };
        if (attack && info.requestNumber === 1) return { toolCalls: [toolCall('nh_evaluate', { expression: '(() => { try { nh.currentUsageMeter().record({ inputTokens: -1e9, requests: -1000 }); } catch (e) { probe.refused = e.name; } })()' })], usage };
        return info.requestNumber % 10 !== 0 ? { toolCalls: [toolCall('nh_evaluate', { expression: '1' })], usage } : { toolCalls: [finish()], usage };
      });
      const inner = new nh.AgentExecutor({ model, maxRequestsPerStep: 50 });
      const platform: nh.StepExecutor = { runStep: (request) => inner.runStep(request) };
      const runner = new nh.Runner({ executor: platform, acceptsAggregateExecutorAccounting: true });
      const outcome = await runner
        .run(async () => nh.step({ program: 'execute\nGo.' }), { grant: { references: { nh, probe } }, allocation: { maxCost: 2000, maxExecutorSteps: 5 } })
        .then(
          () => 'completed',
          (e: nh.NaturalExecutionError) => e.failure,
        );
      return { outcome, requests: model.requestCount, refused: probe['refused'] };
    };
    const baseline = await run(false);
    const attacked = await run(true);
    expect(baseline.outcome).toBe('allocation_exhausted');
    // The host's meter refuses model code before the figures are looked at (usage-meter.test.ts).
    expect(attacked).toEqual({ ...baseline, refused: 'HostIntegrityError' });
  });

  it('under the adapter the step scope holds no admission, and the public runOutsideInterior refuses model code', async () => {
    const probe: Record<string, unknown> = {};
    const expression = `(() => {
      probe.ambient = nh.currentState().requestAdmission === undefined ? 'none' : 'present';
      try { nh.runOutsideInterior(() => 1); probe.cleared = 'allowed'; } catch (e) { probe.cleared = e.name; }
    })()`;
    const model = new ScriptedModel((_m, info) => (info.requestNumber === 1 ? { toolCalls: [toolCall('nh_evaluate', { expression }), finish()] } : { toolCalls: [finish()] }));
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
    await runner.run(async () => nh.step({ program: 'execute\nGo.' }), { grant: { references: { nh, probe } } });
    expect(probe).toEqual({ ambient: 'none', cleared: 'HostIntegrityError' });
    expect(anomalies(runner.ledger.events())).toContain('operator_control_in_run');
    // Operator code may still use it.
    expect(nh.runOutsideInterior(() => 7)).toBe(7);
  });

  it('the public runOutsideInterior refuses generated code too, and an executor handle leaked into an operation body admits nothing', async () => {
    let leaked: ReturnType<typeof nh.currentExecutorStepAdmission> | undefined;
    const probe: Record<string, unknown> = {};
    const custom: nh.StepExecutor & { admitsExecutorSteps: true } = {
      admitsExecutorSteps: true,
      async runStep(request) {
        leaked = nh.currentExecutorStepAdmission();
        await leaked.request(async () => undefined);
        // The operator's executor runs an operation whose body (here a host-side stand-in for a model's) uses the handle.
        await nh.evaluateExpression(request.stepContext, '(async () => { try { await probe.leaked.request(async () => 1); probe.used = "allowed"; } catch (e) { probe.used = e.name; } })()');
        return { outcome: nh.Pass };
      },
    };
    const runner = new nh.Runner({ executor: custom });
    await runner.run(
      async (ctx) => {
        const module = await ctx.dispatch({
          language: 'javascript',
          intent: 'define',
          source: `export function clear() { try { nh.runOutsideInterior(() => 1); return 'allowed'; } catch (e) { return e.name; } }`,
          dependencies: [{ name: 'nh', kind: 'reference', type: 'object' }],
        });
        probe['generated'] = (module.exports['clear'] as () => string)();
        Object.defineProperty(probe, 'leaked', { get: () => leaked });
        await nh.step({ program: 'execute\nGo.' });
      },
      { grant: { references: { nh, probe } } },
    );
    expect(probe['generated']).toBe('HostIntegrityError');
    expect(probe['used']).toBe('HostIntegrityError');
    expect(anomalies(runner.ledger.events())).toEqual(expect.arrayContaining(['operator_control_in_run', 'admission_from_operation']));
  });
});

