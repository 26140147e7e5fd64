import { withAllowance } from '../../kernel/src/harness/host-context.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ActiveBranchesError,
  NaturalExecutionError,
  Return,
  Runner,
  UsageError,
  defineTool,
  scope,
  step,
  evaluateExpression,
  type StepExecutor,
} from '../../kernel/src/index.js';
import { toolCall } from '../../kernel/src/testing.js';
import { finish, scriptedRunner } from './support.js';

describe('host seams around Natural executions in a run', () => {
  it('the return outcome is not offered inside an agent run', async () => {
    let schema = '';
    const { runner } = scriptedRunner((_m, info) => {
      schema = JSON.stringify(info.outputTools[0]!.parameters);
      return { toolCalls: [finish()] };
    });
    await runner.run(async () => step({ program: 'execute\nGo.', returnAllowed: true, returns: z.number() }));
    expect(schema).not.toContain('"return"');
    expect(schema).toContain('"pass"');
  });

  it('an executor that emits return anyway fails the execution', async () => {
    const sneaky: StepExecutor & { admitsExecutorSteps: true } = { admitsExecutorSteps: true, runStep: async () => ({ outcome: Return.of(1) }) };
    const error = await new Runner({ executor: sneaky }).run(async () => step({ program: 'execute\nGo.', returnAllowed: true })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NaturalExecutionError);
    expect((error as NaturalExecutionError).failure).toBe('failed');
  });

  it('a raise surfaces as NaturalExecutionError carrying the requested type as data and the error as cause', async () => {
    class QuotaError extends Error {}
    const { runner } = scriptedRunner([() => ({ toolCalls: [finish({ kind: 'raise', raise_message: 'over quota', raise_error_type: 'QuotaError' })] })]);
    const error = await runner.run(async () => step({ program: 'execute\nCheck <QuotaError>.', values: { QuotaError } })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NaturalExecutionError);
    expect((error as NaturalExecutionError).requestedType).toBe('QuotaError');
    expect((error as NaturalExecutionError).cause).toBeInstanceOf(QuotaError);
    expect(runner.ledger.select({ kind: 'execution.end' })[0]!.status).toBe('raised');
  });

  it('a foreign inspector installed inside the run is a trace anomaly that fails the execution', async () => {
    const { runner, model } = scriptedRunner([() => ({ toolCalls: [finish()] })]);
    const error = await runner
      .run(async () => scope({ oversight: { inspectOperation: () => ({ kind: 'accept' }) } }, () => step({ program: 'execute\nGo.' })))
      .catch((e: unknown) => e);
    expect((error as NaturalExecutionError).failure).toBe('trace_anomaly');
    expect(runner.ledger.select({ kind: 'trace.anomaly' })[0]!.status).toBe('foreign_oversight');
    expect(runner.ledger.select({ kind: 'execution.end' })).toHaveLength(1);
    expect(model.requestCount).toBe(0);
  });

  it('a cleared inspector is a trace anomaly that fails the execution', async () => {
    const { runner } = scriptedRunner([() => ({ toolCalls: [finish()] })]);
    const error = await runner.run(async () => scope({ oversight: null }, () => step({ program: 'execute\nGo.' }))).catch((e: unknown) => e);
    expect((error as NaturalExecutionError).failure).toBe('trace_anomaly');
    expect(runner.ledger.select({ kind: 'trace.anomaly' })[0]!.status).toBe('cleared_oversight');
  });

  it('a tool visible without a grant is a trace anomaly that fails the execution', async () => {
    const rogue = defineTool({ name: 'rogue', description: 'x', input: z.object({}), run: () => 1 });
    const { runner } = scriptedRunner([() => ({ toolCalls: [finish()] })]);
    const error = await runner.run(async () => scope({ tools: [rogue] }, () => step({ program: 'execute\nGo.' }))).catch((e: unknown) => e);
    expect((error as NaturalExecutionError).failure).toBe('trace_anomaly');
    expect(runner.ledger.select({ kind: 'trace.anomaly' })[0]!.data).toMatchObject({ anomalyKind: 'ungranted_tool', tools: ['rogue'] });
  });

  it('a composition may not replace the step executor inside a run', async () => {
    const { runner } = scriptedRunner([]);
    const other: StepExecutor = { runStep: async () => ({ outcome: { kind: 'pass' } }) };
    const error = await runner.run(async () => scope({ executor: other }, () => step({ program: 'execute\nGo.' }))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
  });

  it('branches still active at run end are a trace anomaly and the value is not accepted', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { runner } = scriptedRunner(async () => {
      await gate;
      return { toolCalls: [finish()] };
    });
    const error = await runner.run(async () => {
      void step({ program: 'execute\nSlow.' }).catch(() => undefined);
      await new Promise((r) => setImmediate(r));
      return 'value';
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ActiveBranchesError);
    expect(runner.ledger.select({ kind: 'trace.anomaly' }).map((e) => e.status)).toContain('branches_active_at_run_end');
    // The default mechanism establishes no cessation, so the run has no run end (seed 002).
    expect((error as ActiveBranchesError).ceased).toBe(false);
    expect(runner.ledger.select({ kind: 'run.end' })).toHaveLength(0);
    release();
  });

  it('raw dynamic execution in a model expression is refused recoverably and recorded', async () => {
    let feedback = '';
    const { runner } = scriptedRunner([
      () => ({ toolCalls: [toolCall('nh_evaluate', { expression: 'eval("1+1")' })] }),
      (m) => {
        feedback = (m[m.length - 1] as { content: string }).content;
        return { toolCalls: [finish()] };
      },
    ]);
    await runner.run(async () => step({ program: 'execute\nGo.' }));
    expect(JSON.parse(feedback)).toMatchObject({ status: 'rejected' });
    expect(runner.ledger.select({ kind: 'trace.anomaly' })[0]!.status).toBe('raw_dynamic_execution');
  });

  it('an operation evaluated under a gateway allowance is a mediation bypass that fails its execution', async () => {
    const sneaky: StepExecutor & { admitsExecutorSteps: true } = {
      admitsExecutorSteps: true,
      runStep: async (request) => {
        await withAllowance('smuggled', () => evaluateExpression(request.stepContext, '1 + 1'));
        return { outcome: { kind: 'pass' } };
      },
    };
    const runner = new Runner({ executor: sneaky });
    const error = await runner.run(async () => step({ program: 'execute\nGo.' })).catch((e: unknown) => e);
    expect((error as NaturalExecutionError).failure).toBe('mediation_bypass');
    expect(runner.ledger.select({ kind: 'trace.anomaly' })[0]!.status).toBe('operation_under_gateway_allowance');
  });
});

describe('failures of core stages the executor never sees', () => {
  it('an unresolved read binding inside a run is a NaturalExecutionError with exactly one start and end event', async () => {
    const { runner, model } = scriptedRunner([]);
    const error = await runner.run(async () => step({ program: 'execute\nUse <missing>.' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NaturalExecutionError);
    expect((error as NaturalExecutionError).failure).toBe('failed');
    expect((error as NaturalExecutionError).cause).toMatchObject({ bindingName: 'missing' });
    expect(runner.ledger.select({ kind: ['execution.start', 'execution.end'] }).map((e) => [e.kind, e.status])).toEqual([
      ['execution.start', undefined],
      ['execution.end', 'failed'],
    ]);
    expect(model.requestCount).toBe(0);
  });
});
