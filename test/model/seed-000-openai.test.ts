import { afterEach, describe, expect, it } from 'vitest';
import { AgentExecutor, OUTPUT_TOOL_NAME, OpenAIModelClient, run, scope } from '../../kernel/src/index.js';
import { completion, startOpenAIServer, toolCall, type OpenAITestServer } from '../support/openai-server.js';
import { recordingOversight, seed000, seed000Model, toolResults } from '../support/openai-seed-000.js';

const KEY = 'sk-seed-000-integration-key';

let server: OpenAITestServer;
afterEach(async () => server?.close());

function executorFor(s: OpenAITestServer, options: { stream?: boolean } = {}): AgentExecutor {
  const client = new OpenAIModelClient({ apiKey: KEY, baseURL: s.baseURL, env: {} });
  const model = options.stream
    ? { label: client.label, request: (r: Parameters<typeof client.request>[0]) => client.request(r, { onStream: () => {} }) }
    : client;
  return new AgentExecutor({ model });
}

describe("seed 000's sync example through the openai client", () => {
  it('the refused forbidden() is corrected in the same step; result 2 and no effects', async () => {
    server = await startOpenAIServer({ handler: seed000Model });
    const s = seed000();
    const records = recordingOversight(s.inspectOperation);
    const result = await run(executorFor(server), () =>
      scope({ taskReferences: { forbidden: s.forbidden }, oversight: records.oversight }, () => s.calculate({})),
    );
    expect(result).toBe(2);
    expect(s.effects).toEqual([]);
    expect(server.requests).toHaveLength(2);
    expect(records.steps).toHaveLength(1);
    expect(records.steps[0]!.status).toBe('completed');
    expect(records.operations.map((o) => [o.request.kind, o.status, o.request.expression])).toEqual([
      ['evaluate', 'rejected', 'forbidden()'],
      ['output', 'completed', '1 + 1'],
    ]);
  });

  it('the second request carries the refusal with reason and guidance for the proposal call', async () => {
    server = await startOpenAIServer({ handler: seed000Model });
    const s = seed000();
    const records = recordingOversight(s.inspectOperation);
    await run(executorFor(server), () =>
      scope({ taskReferences: { forbidden: s.forbidden }, oversight: records.oversight }, () => s.calculate({})),
    );
    const [first, second] = server.requests.map((r) => r.body);
    expect(toolResults(first!)).toEqual([]);
    const messages = second!.messages as { role: string; tool_call_id?: string; tool_calls?: unknown[] }[];
    expect(messages.find((m) => m.role === 'assistant')?.tool_calls).toEqual([
      { id: 'proposal', type: 'function', function: { name: 'nh_evaluate', arguments: '{"expression":"forbidden()"}' } },
    ]);
    expect(messages.find((m) => m.role === 'tool')?.tool_call_id).toBe('proposal');
    // Seed 000: the tool error shape, the reason as its message, with identities and execution-start information,
    // and nothing else (no arguments, no diagnostic exception).
    const refused = records.operations[0]!.request;
    expect(toolResults(second!)).toEqual([
      {
        status: 'rejected',
        operation_id: refused.operationId,
        step_id: refused.stepId,
        execution_id: refused.executionId,
        execution_started: false,
        error: { kind: 'rejected', class: 'OperationRejectedError', message: 'This helper is unavailable.', guidance: 'Evaluate 1 + 1 instead.' },
      },
    ]);
    const toolNames = (second!.tools as { function: { name: string } }[]).map((t) => t.function.name);
    expect(toolNames).toContain('nh_evaluate');
    expect(toolNames[toolNames.length - 1]).toBe(OUTPUT_TOOL_NAME);
    expect(second!.tool_choice).toBe('required');
    expect(server.requests.every((r) => !r.rawBody.includes(KEY))).toBe(true);
  });

  it('gives the same result when the client streams', async () => {
    server = await startOpenAIServer({ handler: seed000Model, chunkSize: 2 });
    const s = seed000();
    const result = await run(executorFor(server, { stream: true }), () =>
      scope({ taskReferences: { forbidden: s.forbidden }, oversight: { inspectOperation: s.inspectOperation } }, () => s.calculate({})),
    );
    expect(result).toBe(2);
    expect(s.effects).toEqual([]);
    expect(server.requests.every((r) => r.body.stream === true)).toBe(true);
  });

  it('a per-scope model choice reaches the provider request', async () => {
    server = await startOpenAIServer({ handler: seed000Model });
    const s = seed000();
    await run(executorFor(server), () =>
      scope({ taskReferences: { forbidden: s.forbidden }, oversight: { inspectOperation: s.inspectOperation }, model: 'scope-model' }, () =>
        s.calculate({}),
      ),
    );
    expect(server.requests.map((r) => r.body.model)).toEqual(['scope-model', 'scope-model']);
  });
});

describe('three tool calls in one response with a refusal in the middle', () => {
  it('keeps the first call, records the refusal, skips the third, and the model sees all three results', async () => {
    server = await startOpenAIServer({
      replies: [
        completion({
          toolCalls: [
            toolCall('nh_evaluate', { expression: 'first()' }, 'a'),
            toolCall('nh_evaluate', { expression: 'forbidden()' }, 'b'),
            toolCall('nh_evaluate', { expression: 'third()' }, 'c'),
          ],
        }),
        completion({ toolCalls: [toolCall(OUTPUT_TOOL_NAME, { result: { kind: 'return', return_expression: '1 + 1' } }, 'd')] }),
      ],
    });
    const s = seed000();
    const first = () => (s.effects.push('first body'), 1);
    const third = () => (s.effects.push('third body'), 3);
    const records = recordingOversight(s.inspectOperation);
    const result = await run(executorFor(server), () =>
      scope({ taskReferences: { forbidden: s.forbidden, first, third }, oversight: records.oversight }, () => s.calculate({})),
    );
    expect(result).toBe(2);
    expect(s.effects).toEqual(['first body']);
    const [a, b, c, output] = records.operations;
    expect([a, b, c, output].map((o) => [o!.request.expression, o!.status])).toEqual([
      ['first()', 'completed'],
      ['forbidden()', 'rejected'],
      ['third()', 'skipped'],
      ['1 + 1', 'completed'],
    ]);
    expect(c!.blockedByOperationId).toBe(b!.request.operationId);
    const second = server.requests[1]!.body;
    const tools = (second.messages as { role: string; tool_call_id?: string }[]).filter((m) => m.role === 'tool');
    expect(tools.map((m) => m.tool_call_id)).toEqual(['a', 'b', 'c']);
    expect(toolResults(second)).toEqual([
      expect.objectContaining({ status: 'completed', operation_id: a!.request.operationId, value: 1 }),
      expect.objectContaining({ status: 'rejected', operation_id: b!.request.operationId, error: expect.objectContaining({ message: 'This helper is unavailable.' }) }),
      expect.objectContaining({ status: 'skipped', operation_id: c!.request.operationId, blocked_by_operation_id: b!.request.operationId }),
    ]);
    expect(server.pending).toBe(0);
  });
});
