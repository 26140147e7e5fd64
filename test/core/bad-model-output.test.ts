import { describe, expect, it } from 'vitest';
import { AgentExecutor, ExecutionError, run, step, type ModelMessage } from '../../kernel/src/index.js';
import { ScriptedModel, toolCall, type ScriptedTurn } from '../../kernel/src/testing.js';

const last = (m: readonly ModelMessage[]) => m.filter((x) => x.role === 'tool').map((x) => JSON.parse((x as { content: string }).content));

async function feedbackFor(bad: ScriptedTurn) {
  let feedback: Record<string, unknown>[] = [];
  const model = new ScriptedModel([
    bad,
    (m) => {
      feedback = last(m);
      return { toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] };
    },
  ]);
  const r = await run(new AgentExecutor({ model }), () => step({ program: 'execute\nGo.' }));
  return { r, feedback };
}

describe('bad model output becomes model-visible feedback or a typed error', () => {
  it('an unknown tool is reported to the model with the available tools', async () => {
    const { r, feedback } = await feedbackFor(() => ({ toolCalls: [toolCall('rm_rf', {})] }));
    expect(r.kind).toBe('pass');
    expect(feedback[0]).toMatchObject({ status: 'error', error: { kind: 'unknown_tool' } });
    expect(String((feedback[0]!.error as { message: string }).message)).toContain('nh_evaluate');
  });

  it('malformed argument JSON is invalid input for the model', async () => {
    const { feedback } = await feedbackFor(() => ({ toolCalls: [toolCall('nh_evaluate', '{"expression": "1 +')] }));
    expect(feedback[0]).toMatchObject({ status: 'failed', error: { kind: 'invalid_input' } });
  });

  it('arguments of the wrong shape are invalid input for the model', async () => {
    const { feedback } = await feedbackFor(() => ({ toolCalls: [toolCall('nh_evaluate', { expr: 1 })] }));
    expect(feedback[0]).toMatchObject({ status: 'failed', error: { kind: 'invalid_input' } });
  });

  it('an invalid outcome is retried, then fails with a typed error', async () => {
    const model = new ScriptedModel(() => ({ toolCalls: [toolCall('nh_output', { result: { kind: 'teleport' } })] }));
    const error = await run(new AgentExecutor({ model, outputRetries: 2 }), () => step({ program: 'execute\nGo.' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExecutionError);
    expect(model.requestCount).toBe(3);
  });

  it('a response without tool calls is retried, then fails with a typed error', async () => {
    const model = new ScriptedModel(() => ({ text: 'I think the answer is 4.' }));
    const error = await run(new AgentExecutor({ model, outputRetries: 1 }), () => step({ program: 'execute\nGo.' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExecutionError);
    expect(model.requestCount).toBe(2);
  });

  it('an empty rejection reason from an inspector is a contract violation, not a silent accept', async () => {
    const { OversightContractError, rejectOperation, scope } = await import('../../kernel/src/index.js');
    let ran = false;
    const model = new ScriptedModel(() => ({ toolCalls: [toolCall('nh_evaluate', { expression: 'touch()' })] }));
    const error = await run(new AgentExecutor({ model }), () =>
      scope({ taskReferences: { touch: () => (ran = true) }, oversight: { inspectOperation: () => rejectOperation('  ') } }, () =>
        step({ program: 'execute\nGo.' }),
      ),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OversightContractError);
    expect(ran).toBe(false);
  });

  it('an expression cannot create or assign globals', async () => {
    const { feedback } = await feedbackFor(() => ({ toolCalls: [toolCall('nh_evaluate', { expression: 'leaked = 1' })] }));
    expect(feedback[0]).toMatchObject({ status: 'failed' });
    expect('leaked' in globalThis).toBe(false);
  });
});
