/**
 * Seed 000's examples, shared by the runtime-form and block-form suites so both forms are held to
 * the same assertions: result 2 from a refused-then-corrected operation, and `effects` empty.
 */
import { expect, it } from 'vitest';
import {
  AgentExecutor,
  OperationRejectedError,
  Return,
  accept,
  evaluateExpression,
  rejectOperation,
  run,
  scope,
  type ModelMessage,
  type OperationDecision,
  type OperationRequest,
  type StepExecutor,
} from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

export function seed000Fixture() {
  const effects: string[] = [];
  const forbidden = () => {
    effects.push('forbidden body');
    return 2;
  };
  const inspectOperation = (request: OperationRequest): OperationDecision =>
    request.expression === 'forbidden()' ? rejectOperation('This helper is unavailable.', 'Evaluate 1 + 1 instead.') : accept();
  const inspectOperationAsync = async (request: OperationRequest): Promise<OperationDecision> => {
    await Promise.resolve();
    return inspectOperation(request);
  };
  return { effects, forbidden, inspectOperation, inspectOperationAsync };
}

/** The seed's FunctionModel: propose forbidden(), see the denial, then return 1 + 1. */
export function seed000Executor(): { executor: AgentExecutor; model: ScriptedModel } {
  let requests = 0;
  const model = new ScriptedModel((messages: readonly ModelMessage[], info) => {
    requests += 1;
    if (requests === 1) return { toolCalls: [toolCall('nh_evaluate', { expression: 'forbidden()' }, 'proposal')] };
    expect(requests).toBe(2);
    const denied = messages.some((m) => m.role === 'tool' && JSON.parse(m.content).status === 'rejected');
    expect(denied).toBe(true);
    return { toolCalls: [toolCall(info.outputTools[0]!.name, { result: { kind: 'return', return_expression: '1 + 1' } }, 'finish')] };
  });
  return { executor: new AgentExecutor({ model }), model };
}

/** The seed's CorrectingExecutor: catches the refusal and evaluates 1 + 1 instead. */
export function correctingExecutor(reasons: string[]): StepExecutor {
  return {
    async runStep(request) {
      let value: unknown;
      try {
        value = await evaluateExpression(request.stepContext, 'forbidden()');
      } catch (refusal) {
        expect(refusal).toBeInstanceOf(OperationRejectedError);
        reasons.push((refusal as OperationRejectedError).rejection.reason);
        value = await evaluateExpression(request.stepContext, '1 + 1');
      }
      return { outcome: Return.of(value) };
    },
  };
}

/** Registers the seed's three examples against one form of `calculate`. */
export function seed000Examples(calculate: () => Promise<number>): void {
  it('a refused operation is corrected in the same step and the result is 2 (sync inspector)', async () => {
    const s = seed000Fixture();
    const { executor, model } = seed000Executor();
    const result = await run(executor, () =>
      scope({ taskReferences: { forbidden: s.forbidden }, oversight: { inspectOperation: s.inspectOperation } }, () => calculate()),
    );
    expect(result).toBe(2);
    expect(s.effects).toEqual([]);
    expect(model.requestCount).toBe(2);
  });

  it('a refused operation is corrected in the same step and the result is 2 (async inspector)', async () => {
    const s = seed000Fixture();
    const { executor } = seed000Executor();
    const result = await run(executor, () =>
      scope({ taskReferences: { forbidden: s.forbidden }, oversight: { inspectOperation: s.inspectOperationAsync } }, () => calculate()),
    );
    expect(result).toBe(2);
    expect(s.effects).toEqual([]);
  });

  it('a custom executor catches OperationRejectedError and chooses another operation', async () => {
    const s = seed000Fixture();
    const reasons: string[] = [];
    const result = await run(correctingExecutor(reasons), () =>
      scope({ taskReferences: { forbidden: s.forbidden }, oversight: { inspectOperation: s.inspectOperationAsync } }, async () => [await calculate(), await calculate()]),
    );
    expect(result).toEqual([2, 2]);
    expect(reasons).toEqual(['This helper is unavailable.', 'This helper is unavailable.']);
    expect(s.effects).toEqual([]);
  });
}
