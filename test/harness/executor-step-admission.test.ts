import { describe, expect, it } from 'vitest';
import { AllocationExhaustedError, NaturalExecutionError, Pass, Runner, ANY_NETWORK_ORIGIN, currentExecutorStepAdmission, step, type StepExecutor } from '../../kernel/src/index.js';

describe('executor-step observation modes', () => {
  it('a custom executor that admits its steps sends exactly N provider requests under an allocation of N', async () => {
    let sent = 0;
    const custom: StepExecutor & { admitsExecutorSteps: true } = {
      admitsExecutorSteps: true,
      async runStep() {
        const admission = currentExecutorStepAdmission();
        for (let i = 0; i < 5; i++) {
          await admission.request(async () => {
            sent++;
          });
          admission.observe({ inputTokens: 1, outputTokens: 1 });
        }
        return { outcome: Pass };
      },
    };
    const runner = new Runner({ executor: custom });
    const error = await runner.run(async () => step({ program: 'execute\nGo.' }), { allocation: { maxExecutorSteps: 3 } }).catch((e: unknown) => e);
    expect(sent).toBe(3);
    expect(error).toBeInstanceOf(NaturalExecutionError);
    expect((error as NaturalExecutionError).cause).toBeInstanceOf(AllocationExhaustedError);
    expect(runner.ledger.select({ kind: 'run.entry' })[0]!.data).toMatchObject({ executorStepObservation: 'custom-admission' });
  });

  it('a provider request runs under an allowance for the network only: fetch inside request() is allowed; a file write there, or outside it, is refused', async () => {
    const { writeFileSync, mkdtempSync, existsSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'nh-admit-'));
    let fetched = '';
    const refusals: string[] = [];
    const custom: StepExecutor & { admitsExecutorSteps: true } = {
      admitsExecutorSteps: true,
      async runStep() {
        const admission = currentExecutorStepAdmission();
        // A request sent with no origins reaches no network (fail closed); one that declares any keeps it.
        await admission.request(async () => fetch('data:text/plain,no')).catch((e: Error) => refusals.push(e.name));
        await admission.request(async () => (fetched = await (await fetch('data:text/plain,ok')).text()), [ANY_NETWORK_ORIGIN]);
        await admission.request(async () => writeFileSync(join(dir, 'provider-cache'), 'no')).catch((e: Error) => refusals.push(e.name));
        try {
          writeFileSync(join(dir, 'interior'), 'no');
        } catch (e) {
          refusals.push((e as Error).name);
        }
        return { outcome: Pass };
      },
    };
    const runner = new Runner({ executor: custom });
    await runner.run(async () => step({ program: 'execute\nGo.' })).catch(() => undefined);
    expect(fetched).toBe('ok');
    expect(existsSync(join(dir, 'provider-cache'))).toBe(false);
    expect(existsSync(join(dir, 'interior'))).toBe(false);
    expect(refusals).toEqual(['UnmediatedPerimeterEffectError', 'UnmediatedPerimeterEffectError', 'UnmediatedPerimeterEffectError']);
    const anomalies = runner.ledger.select({ kind: 'trace.anomaly' });
    expect(anomalies.map((e) => [e.status, (e.data as { effect?: string; during?: string }).during])).toEqual([
      ['unmediated_perimeter_effect', 'model-request'],
      ['unmediated_perimeter_effect', 'model-request'],
      ['unmediated_perimeter_effect', undefined],
    ]);
  });
});
