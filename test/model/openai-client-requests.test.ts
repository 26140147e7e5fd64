import { afterEach, describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../kernel/src/core/model-client.js';
import { OpenAIModelClient } from '../../kernel/src/model/index.js';
import { completion, startOpenAIServer, toolCall, type OpenAITestServer } from '../support/openai-server.js';

const KEY = 'sk-test-0123456789abcdef';

const evaluateTool = {
  name: 'nh_evaluate',
  description: 'Evaluate an expression',
  parameters: { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] },
};
const outputTool = { name: 'final_result', description: 'Finish the step', parameters: { type: 'object' } };

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    messages: [
      { role: 'system', content: 'You are a step executor.' },
      { role: 'user', content: 'Calculate the value.' },
    ],
    tools: [evaluateTool, outputTool],
    outputToolName: 'final_result',
    ...overrides,
  };
}

let server: OpenAITestServer;
afterEach(async () => server?.close());

describe('OpenAIModelClient requests', () => {
  it('maps messages, tool calls and tool results to the chat completions format', async () => {
    server = await startOpenAIServer({ replies: [completion({ text: 'ok' })] });
    const client = new OpenAIModelClient({ apiKey: KEY, baseURL: server.baseURL, env: {} });
    await client.request(
      request({
        messages: [
          { role: 'system', content: 'sys' },
          { role: 'user', content: 'go' },
          { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'nh_evaluate', arguments: '{"expression":"1"}' }] },
          { role: 'tool', toolCallId: 'c1', name: 'nh_evaluate', content: '1' },
          { role: 'assistant', content: 'thinking', toolCalls: [] },
        ],
      }),
    );
    const body = server.requests[0]!.body;
    expect(body.messages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'nh_evaluate', arguments: '{"expression":"1"}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: '1' },
      { role: 'assistant', content: 'thinking' },
    ]);
  });

  it('sends action tools and the output tool as function tools with tool_choice required', async () => {
    server = await startOpenAIServer({ replies: [completion({ text: 'ok' })] });
    const client = new OpenAIModelClient({ apiKey: KEY, baseURL: server.baseURL, env: {} });
    await client.request(request());
    const body = server.requests[0]!.body;
    expect(body.tools).toEqual([
      { type: 'function', function: evaluateTool },
      { type: 'function', function: outputTool },
    ]);
    expect(body.tool_choice).toBe('required');
    expect(body.stream).toBeFalsy();
  });

  it('keeps several tool calls of one response in emission order, with usage', async () => {
    server = await startOpenAIServer({
      replies: [
        completion({
          toolCalls: [
            toolCall('nh_evaluate', { expression: 'a()' }, 'call_a'),
            toolCall('nh_evaluate', { expression: 'b()' }, 'call_b'),
            toolCall('final_result', { result: 1 }, 'call_c'),
          ],
          usage: { promptTokens: 31, completionTokens: 7 },
        }),
      ],
    });
    const client = new OpenAIModelClient({ apiKey: KEY, baseURL: server.baseURL, env: {} });
    const response = await client.request(request());
    expect(response.toolCalls).toEqual([
      { id: 'call_a', name: 'nh_evaluate', arguments: '{"expression":"a()"}' },
      { id: 'call_b', name: 'nh_evaluate', arguments: '{"expression":"b()"}' },
      { id: 'call_c', name: 'final_result', arguments: '{"result":1}' },
    ]);
    expect(response.usage).toEqual({ inputTokens: 31, outputTokens: 7, requests: 1 });
    expect(response.finishReason).toBe('tool_calls');
    expect(response.text).toBeNull();
  });

  it('passes malformed tool-call JSON through as the raw arguments string', async () => {
    server = await startOpenAIServer({ replies: [completion({ toolCalls: [toolCall('nh_evaluate', '{"expression": "1 +', 'bad')] })] });
    const client = new OpenAIModelClient({ apiKey: KEY, baseURL: server.baseURL, env: {} });
    const response = await client.request(request());
    expect(response.toolCalls).toEqual([{ id: 'bad', name: 'nh_evaluate', arguments: '{"expression": "1 +' }]);
  });

  it('reads key, base URL and model from the environment and sends the key as a bearer token', async () => {
    server = await startOpenAIServer({ replies: [completion({ text: 'ok' })] });
    const client = new OpenAIModelClient({ env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: server.baseURL, NIGHTHAWK_MODEL: 'local-llama' } });
    expect(client.label).toBe('openai:local-llama');
    const response = await client.request(request());
    expect(server.requests[0]!.body.model).toBe('local-llama');
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(response.model).toBe('local-llama');
  });

  it('uses gpt-4o-mini by default and lets request.model override the model per call', async () => {
    server = await startOpenAIServer({ replies: [completion({ text: 'a' }), completion({ text: 'b' })] });
    const client = new OpenAIModelClient({ apiKey: KEY, baseURL: server.baseURL, env: {} });
    expect(client.model).toBe('gpt-4o-mini');
    await client.request(request());
    await client.request(request({ model: 'gpt-4.1' }));
    expect(server.requests.map((r) => r.body.model)).toEqual(['gpt-4o-mini', 'gpt-4.1']);
  });

  it('explicit options take precedence over the environment', async () => {
    server = await startOpenAIServer({ replies: [completion({ text: 'ok' })] });
    const client = new OpenAIModelClient({
      apiKey: KEY,
      baseURL: server.baseURL,
      model: 'explicit-model',
      env: { OPENAI_API_KEY: 'sk-env-key-should-not-be-used', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', NIGHTHAWK_MODEL: 'env-model' },
    });
    await client.request(request());
    expect(server.requests[0]!.body.model).toBe('explicit-model');
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('a self-hosted base URL works without a key, sending a placeholder', async () => {
    server = await startOpenAIServer({ replies: [completion({ text: 'ok' })] });
    const client = new OpenAIModelClient({ baseURL: server.baseURL, env: {} });
    const response = await client.request(request());
    expect(response.text).toBe('ok');
    expect(server.requests[0]!.headers.authorization).toBe('Bearer nighthawk-no-key');
  });
});

describe('OpenAIModelClient beforeRequest hook', () => {
  it('is called before every provider request with the model and attempt', async () => {
    server = await startOpenAIServer({ replies: [{ kind: 'error', status: 503 }, completion({ text: 'ok' })] });
    const seen: { model: string; attempt: number; requestsAtCall: number }[] = [];
    const client = new OpenAIModelClient({
      apiKey: KEY,
      baseURL: server.baseURL,
      env: {},
      retryBaseDelayMs: 1,
      beforeRequest: ({ model, attempt }) => {
        seen.push({ model, attempt, requestsAtCall: server.requests.length });
      },
    });
    await client.request(request());
    expect(seen).toEqual([
      { model: 'gpt-4o-mini', attempt: 0, requestsAtCall: 0 },
      { model: 'gpt-4o-mini', attempt: 1, requestsAtCall: 1 },
    ]);
  });

  it('when the hook refuses, its error propagates and no request reaches the server', async () => {
    server = await startOpenAIServer({ replies: [completion({ text: 'never served' })] });
    const refusal = new Error('allocation exhausted');
    const client = new OpenAIModelClient({
      apiKey: KEY,
      baseURL: server.baseURL,
      env: {},
      beforeRequest: async () => {
        throw refusal;
      },
    });
    await expect(client.request(request())).rejects.toBe(refusal);
    expect(server.requests).toHaveLength(0);
    expect(server.pending).toBe(1);
  });
});
