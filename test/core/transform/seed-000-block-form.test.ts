import { afterAll, describe, expect, it } from 'vitest';
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
} from '../../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../../kernel/src/testing.js';
import { ENTRY, compileModule, removeCompiledModules } from './compile-module.js';

afterAll(removeCompiledModules);

// Seed 000's Natural function, in the block form, compiled by the esbuild plugin.
const { calculate } = await compileModule<{ calculate: () => Promise<number> }>(
  `import * as nh from ${JSON.stringify(ENTRY)};

export const calculate = nh.function(async function calculate(): Promise<number> {
  \`execute
  Calculate the requested value using a permitted operation and return it.
  \`;
  return 0;
});
`,
  'seed000',
);

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
  return { effects, forbidden, inspectOperation, inspectOperationAsync };
}

function makeExecutor(): AgentExecutor {
  let requests = 0;
  const model = new ScriptedModel((messages: readonly ModelMessage[], info) => {
    requests += 1;
    if (requests === 1) return { toolCalls: [toolCall('nh_evaluate', { expression: 'forbidden()' }, 'proposal')] };
    expect(requests).toBe(2);
    const denied = messages.some((m) => m.role === 'tool' && JSON.parse(m.content).status === 'rejected');
    expect(denied).toBe(true);
    return { toolCalls: [toolCall(info.outputTools[0]!.name, { result: { kind: 'return', return_expression: '1 + 1' } }, 'finish')] };
  });
  return new AgentExecutor({ model });
}

describe('seed 000 operation feedback (block form)', () => {
  it('a refused operation is corrected in the same step and the result is 2 (sync inspector)', async () => {
    const s = setup();
    const result = await run(makeExecutor(), () =>
      scope({ taskReferences: { forbidden: s.forbidden }, oversight: { inspectOperation: s.inspectOperation } }, () => calculate()),
    );
    expect(result).toBe(2);
    expect(s.effects).toEqual([]);
  });

  it('a refused operation is corrected in the same step and the result is 2 (async inspector)', async () => {
    const s = setup();
    const result = await run(makeExecutor(), () =>
      scope({ taskReferences: { forbidden: s.forbidden }, oversight: { inspectOperation: s.inspectOperationAsync } }, () => calculate()),
    );
    expect(result).toBe(2);
    expect(s.effects).toEqual([]);
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
        await calculate(),
        await calculate(),
      ]),
    );
    expect(result).toEqual([2, 2]);
    expect(reasons).toEqual(['This helper is unavailable.', 'This helper is unavailable.']);
    expect(s.effects).toEqual([]);
  });
});
