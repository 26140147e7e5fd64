/**
 * Seed 000: "Explicit AbortStep decisions propagate StepAbortedError from either inspector, unless terminal delivery
 * raises a host exception" (then OperationDeliveryError keeps the record and the notification failure), and "An
 * AbortStep permanently ends its target step" (also one decided at commit; nor does a finished step run more).
 */
import { describe, expect, it } from 'vitest';
import {
  AgentExecutor,
  OperationDeliveryError,
  OversightContractError,
  Pass,
  StepAbortedError,
  TerminalOperationError,
  abortStep,
  accept,
  evaluateExpression,
  run,
  scope,
  step,
  type OperationFinished,
  type OperationRequest,
  type Oversight,
  type StepContext,
  type StepExecutor,
} from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

class Fatal extends TerminalOperationError {}

describe('a failed delivery of the record that ends the step', () => {
  const endings: Array<[string, (r: OperationRequest) => ReturnType<NonNullable<Oversight['inspectOperation']>>, 'aborted' | 'failed', () => unknown]> = [
    ['an AbortStep decision', (r) => (r.expression === 'x()' ? abortStep('stop here') : accept()), 'aborted', () => 1],
    ['an inspector that throws', (r) => { if (r.expression === 'x()') throw new Error('inspector bug'); return accept(); }, 'aborted', () => 1],
    ['a TerminalOperationError from the body', () => accept(), 'failed', () => { throw new Fatal('fatal'); }],
  ];
  for (const [label, inspectOperation, status, x] of endings) {
    it(`${label}: the caller gets OperationDeliveryError with the record and the notification failure`, async () => {
      const sinkDown = new Error('audit sink down');
      let ranY = false;
      const delivered: OperationFinished[] = [];
      const model = new ScriptedModel([
        () => ({ toolCalls: [toolCall('nh_evaluate', { expression: 'x()' }), toolCall('nh_evaluate', { expression: 'y()' })] }),
        () => ({ toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] }),
      ]);
      const error = await run(new AgentExecutor({ model }), () =>
        scope({
          taskReferences: { x, y: () => (ranY = true) },
          oversight: {
            inspectOperation,
            onOperationFinished: (f) => {
              delivered.push(f);
              if (f.status === status && f.request.expression === 'x()') throw sinkDown;
            },
          },
        }, () => step({ program: 'execute\nGo.' })),
      ).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(OperationDeliveryError);
      const failure = error as OperationDeliveryError;
      expect(failure.finished.status).toBe(status);
      expect(failure.finished.request.expression).toBe('x()');
      expect(failure.deliveryCause).toBe(sinkDown);
      // The step ended there: the sibling in the same response is recorded skipped and never ran.
      expect(delivered.map((f) => [f.request.expression, f.status])).toEqual([['x()', status], ['y()', 'skipped']]);
      expect(ranY).toBe(false);
    });
  }

  it('a delivery that succeeds leaves the ending as it was (StepAbortedError, OversightContractError)', async () => {
    for (const [inspectOperation, type] of [[() => abortStep('stop'), StepAbortedError], [() => { throw new Error('bug'); }, OversightContractError]] as const) {
      const model = new ScriptedModel([() => ({ toolCalls: [toolCall('nh_evaluate', { expression: '1' })] })]);
      const error = await run(new AgentExecutor({ model }), () =>
        scope({ oversight: { inspectOperation, onOperationFinished: () => {} } }, () => step({ program: 'execute\nGo.' })),
      ).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(type);
    }
  });
});

describe('an ended step runs no more operations', () => {
  /** Runs a step whose executor keeps its step context, then proposes one more operation on it afterwards. */
  async function afterTheStep(oversight: Oversight, during?: (ctx: StepContext) => Promise<unknown>) {
    let kept: StepContext | undefined;
    const effects: string[] = [];
    const records: OperationFinished[] = [];
    const executor: StepExecutor = {
      async runStep({ stepContext }) {
        kept = stepContext;
        await during?.(stepContext).catch(() => undefined);
        return { outcome: Pass };
      },
    };
    return run(executor, async () => {
      const stepError = await scope({ taskReferences: { touch: (s: string) => effects.push(s) }, oversight: { ...oversight, onOperationFinished: (f) => void records.push(f) } }, () =>
        step({ program: 'execute\nGo.' }),
      ).then(() => undefined, (e: unknown) => e);
      const later = await evaluateExpression(kept!, 'touch("after")').then((v) => ({ value: v }), (e: unknown) => ({ error: e }));
      return { stepError, later, effects, records };
    });
  }

  it('after an AbortStep at commit: the body never runs, the attempt is recorded aborted and throws that StepAbortedError', async () => {
    const { stepError, later, effects, records } = await afterTheStep({ inspectStepCommit: () => abortStep('stop at commit') });
    expect(stepError).toBeInstanceOf(StepAbortedError);
    expect((stepError as StepAbortedError).subject).toBe('step_commit');
    expect(effects).toEqual([]);
    expect('error' in later && later.error).toBe(stepError);
    expect(records.map((r) => r.status)).toEqual(['aborted']);
  });

  it('after an AbortStep on an operation (as before): the same', async () => {
    const { stepError, later, effects, records } = await afterTheStep(
      { inspectOperation: (r) => (r.expression === 'touch("in")' ? abortStep('stop') : accept()) },
      (ctx) => evaluateExpression(ctx, 'touch("in")'),
    );
    expect(stepError).toBeInstanceOf(StepAbortedError);
    expect(effects).toEqual([]);
    expect('error' in later && later.error).toBe(stepError);
    expect(records.map((r) => r.status)).toEqual(['aborted', 'aborted']);
  });

  it('after a step that completed: the body never runs, and the attempt is refused as a StepAbortedError naming the finished step', async () => {
    const { stepError, later, effects, records } = await afterTheStep({}, (ctx) => evaluateExpression(ctx, 'touch("in")'));
    expect(stepError).toBeUndefined();
    expect(effects).toEqual(['in']);
    expect('error' in later && later.error).toBeInstanceOf(StepAbortedError);
    expect(String((later as { error: Error }).error.message)).toMatch(/has finished/);
    expect(records.map((r) => r.status)).toEqual(['completed', 'aborted']);
  });
});
