import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentExecutor, naturalFunction, run, scope } from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';
import { seed000Examples, seed000Fixture } from '../support/seed-000.js';

// Seed 000's Natural function in the runtime form; `then` is the deterministic code after the block.
const calculate = naturalFunction({
  name: 'calculate',
  program: 'execute\nCalculate the requested value using a permitted operation and return it.\n',
  input: z.object({}),
  returns: z.number(),
  then: () => 0,
});

describe('seed 000 operation feedback (runtime form)', () => {
  seed000Examples(() => calculate({}));

  it('the model sees the refusal reason and guidance before its next response', async () => {
    const s = seed000Fixture();
    const seen: unknown[] = [];
    const model = new ScriptedModel([
      () => ({ toolCalls: [toolCall('nh_evaluate', { expression: 'forbidden()' })] }),
      (messages, info) => {
        seen.push(...messages.filter((m) => m.role === 'tool').map((m) => JSON.parse((m as { content: string }).content)));
        return { toolCalls: [toolCall(info.outputTools[0]!.name, { result: { kind: 'return', return_expression: '1 + 1' } })] };
      },
    ]);
    await run(new AgentExecutor({ model }), () =>
      scope({ taskReferences: { forbidden: s.forbidden }, oversight: { inspectOperation: s.inspectOperation } }, () => calculate({})),
    );
    model.assertComplete();
    expect(seen).toEqual([
      expect.objectContaining({ status: 'rejected', execution_started: false, error: expect.objectContaining({ message: 'This helper is unavailable.', guidance: 'Evaluate 1 + 1 instead.' }) }),
    ]);
  });
});
