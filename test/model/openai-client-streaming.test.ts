import { afterEach, describe, expect, it } from 'vitest';
import type { ModelRequest, ModelStreamEvent } from '../../kernel/src/core/model-client.js';
import { OpenAIModelClient } from '../../kernel/src/model/index.js';
import { completion, startOpenAIServer, toolCall, type OpenAITestServer } from '../support/openai-server.js';

const baseRequest: ModelRequest = {
  messages: [{ role: 'user', content: 'stream please' }],
  tools: [
    { name: 'nh_evaluate', description: 'evaluate', parameters: { type: 'object' } },
    { name: 'final_result', description: 'finish', parameters: { type: 'object' } },
  ],
  outputToolName: 'final_result',
};

let server: OpenAITestServer;
afterEach(async () => server?.close());

function client(): OpenAIModelClient {
  return new OpenAIModelClient({ apiKey: 'sk-stream-test-key', baseURL: server.baseURL, env: {} });
}

describe('OpenAIModelClient streaming', () => {
  it('with onStream, asks for a stream with usage and assembles text from its deltas', async () => {
    server = await startOpenAIServer({ replies: [completion({ text: 'Hello, streaming world', usage: { promptTokens: 12, completionTokens: 4 } })] });
    const events: ModelStreamEvent[] = [];
    const response = await client().request(baseRequest, { onStream: (e) => events.push(e) });
    expect(server.requests[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    const deltas = events.filter((e) => e.kind === 'text-delta').map((e) => (e.kind === 'text-delta' ? e.delta : ''));
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe('Hello, streaming world');
    expect(response.text).toBe('Hello, streaming world');
    expect(response.toolCalls).toEqual([]);
    expect(response.usage).toEqual({ inputTokens: 12, outputTokens: 4, requests: 1 });
    expect(response.finishReason).toBe('stop');
  });

  it('assembles several tool calls from deltas split over many chunks, in emission order', async () => {
    server = await startOpenAIServer({
      chunkSize: 3,
      replies: [
        completion({
          text: 'Let me try.',
          toolCalls: [
            toolCall('nh_evaluate', { expression: 'forbidden()' }, 'call_first'),
            toolCall('final_result', { result: { kind: 'return', return_expression: '1 + 1' } }, 'call_second'),
          ],
        }),
      ],
    });
    const events: ModelStreamEvent[] = [];
    const response = await client().request(baseRequest, { onStream: (e) => events.push(e) });
    expect(response.text).toBe('Let me try.');
    expect(response.toolCalls).toEqual([
      { id: 'call_first', name: 'nh_evaluate', arguments: '{"expression":"forbidden()"}' },
      { id: 'call_second', name: 'final_result', arguments: '{"result":{"kind":"return","return_expression":"1 + 1"}}' },
    ]);
    const callEvents = events.filter((e) => e.kind === 'tool-call-delta');
    expect(callEvents.filter((e) => e.index === 0).length).toBeGreaterThan(3);
    expect(callEvents[0]).toMatchObject({ kind: 'tool-call-delta', index: 0, id: 'call_first', name: 'nh_evaluate' });
    for (const index of [0, 1]) {
      const joined = callEvents.filter((e) => e.index === index).map((e) => e.argumentsDelta).join('');
      expect(joined).toBe(response.toolCalls[index]!.arguments);
    }
    // All of call 0's deltas come before call 1's, as emitted.
    const order = callEvents.map((e) => e.index);
    expect(order).toEqual([...order].sort());
    expect(response.usage).toEqual({ inputTokens: 10, outputTokens: 5, requests: 1 });
  });

  it('passes malformed streamed tool-call JSON through as the raw arguments string', async () => {
    server = await startOpenAIServer({ replies: [completion({ toolCalls: [toolCall('nh_evaluate', '{"expression": [1, 2', 'c')] })] });
    const response = await client().request(baseRequest, { onStream: () => {} });
    expect(response.toolCalls).toEqual([{ id: 'c', name: 'nh_evaluate', arguments: '{"expression": [1, 2' }]);
  });

  it('an onStream callback that throws ends the request with that same error', async () => {
    server = await startOpenAIServer({ replies: [completion({ text: 'some streamed text' })] });
    const stop = new Error('consumer gave up');
    await expect(
      client().request(baseRequest, {
        onStream: () => {
          throw stop;
        },
      }),
    ).rejects.toBe(stop);
    expect(server.requests).toHaveLength(1);
  });
});
