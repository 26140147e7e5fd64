import { describe, expect, it } from 'vitest';
import { AllocationExhaustedError, NaturalExecutionError, Pass, Runner, currentExecutorStepAdmission, step, type StepExecutor } from '../../kernel/src/index.js';

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

  it('provider requests run as host infrastructure: a direct effect inside request() is allowed, outside it is refused', async () => {
    const { writeFileSync, mkdtempSync, existsSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'nh-admit-'));
    const custom: StepExecutor & { admitsExecutorSteps: true } = {
      admitsExecutorSteps: true,
      async runStep() {
        await currentExecutorStepAdmission().request(async () => writeFileSync(join(dir, 'provider-cache'), 'ok'));
        writeFileSync(join(dir, 'interior'), 'no');
        return { outcome: Pass };
      },
    };
    const runner = new Runner({ executor: custom });
    await runner.run(async () => step({ program: 'execute\nGo.' })).catch(() => undefined);
    expect(existsSync(join(dir, 'provider-cache'))).toBe(true);
    expect(existsSync(join(dir, 'interior'))).toBe(false);
    expect(runner.ledger.select({ kind: 'trace.anomaly' }).map((e) => e.status)).toEqual(['unmediated_perimeter_effect']);
  });
});
