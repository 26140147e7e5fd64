import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AgentExecutor,
  OperationRejectedError,
  Return,
  accept,
  evaluateExpression,
  naturalFunction,
  rejectOperation,
  run,
  scope,
  type ModelMessage,
  type OperationDecision,
  type OperationRequest,
  type StepExecutor,
} from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

// Seed 000's examples, ported: the program, the forbidden helper and the inspectors are the same.
function setup() {
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
  const calculate = naturalFunction({
    name: 'calculate',
    program: 'execute\nCalculate the requested value using a permitted operation and return it.\n',
    input: z.object({}),
    returns: z.number(),
    then: () => 0,
  });
  return { effects, forbidden, inspectOperation, inspectOperationAsync, calculate };
}

function makeExecutor(): { executor: AgentExecutor; model: ScriptedModel } {
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

describe('seed 000 operation feedback (runtime form)', () => {
  it('a refused operation is corrected in the same step and the result is 2 (sync inspector)', async () => {
    const s = setup();
    const { executor, model } = makeExecutor();
    const result = await run(executor, () =>
      scope({ taskReferences: { forbidden: s.forbidden }, oversight: { inspectOperation: s.inspectOperation } }, () => s.calculate({})),
    );
    expect(result).toBe(2);
    expect(s.effects).toEqual([]);
    expect(model.requestCount).toBe(2);
  });

  it('a refused operation is corrected in the same step and the result is 2 (async inspector)', async () => {
    const s = setup();
    const { executor } = makeExecutor();
    const result = await run(executor, () =>
      scope({ taskReferences: { forbidden: s.forbidden }, oversight: { inspectOperation: s.inspectOperationAsync } }, () => s.calculate({})),
    );
    expect(result).toBe(2);
    expect(s.effects).toEqual([]);
  });

  it('the model sees the refusal reason and guidance before its next response', async () => {
    const s = setup();
    const seen: unknown[] = [];
    const model = new ScriptedModel([
      () => ({ toolCalls: [toolCall('nh_evaluate', { expression: 'forbidden()' })] }),
      (messages, info) => {
        seen.push(...messages.filter((m) => m.role === 'tool').map((m) => JSON.parse((m as { content: string }).content)));
        return { toolCalls: [toolCall(info.outputTools[0]!.name, { result: { kind: 'return', return_expression: '1 + 1' } })] };
      },
    ]);
    await run(new AgentExecutor({ model }), () =>
      scope({ taskReferences: { forbidden: s.forbidden }, oversight: { inspectOperation: s.inspectOperation } }, () => s.calculate({})),
    );
    model.assertComplete();
    expect(seen).toEqual([
      expect.objectContaining({ status: 'rejected', reason: 'This helper is unavailable.', guidance: 'Evaluate 1 + 1 instead.', execution_started: false }),
    ]);
  });

  it('a custom executor catches OperationRejectedError and chooses another operation', async () => {
    const s = setup();
    const reasons: string[] = [];
    const correcting: StepExecutor = {
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
    const result = await run(correcting, () =>
      scope({ taskReferences: { forbidden: s.forbidden }, oversight: { inspectOperation: s.inspectOperationAsync } }, async () => [
        await s.calculate({}),
        await s.calculate({}),
      ]),
    );
    expect(result).toEqual([2, 2]);
    expect(reasons).toEqual(['This helper is unavailable.', 'This helper is unavailable.']);
    expect(s.effects).toEqual([]);
  });
});
