/**
 * Per-request overhead of OpenAIModelClient over the raw `openai` client, both against the same
 * local OpenAI-compatible server in the same run. Requests alternate between the two so drift in
 * the machine's load affects both alike. Target ratio: under 1.05. The "metered" lines send what a run sends:
 * `reportUsage`, so the reply's usage is read from its bytes before the package parses them (reply-usage.ts).
 */
import OpenAI from 'openai';
import type { ModelRequest } from '../kernel/src/core/index.js';
import { OpenAIModelClient } from '../kernel/src/model/index.js';
import { completion, startOpenAIServer, toolCall } from '../test/support/openai-server.js';
import { report, sample } from './stats.js';

const ITERATIONS = 2_000;

const request: ModelRequest = {
  messages: [
    { role: 'system', content: 'You execute one Natural block inside a live TypeScript function.'.repeat(8) },
    { role: 'user', content: 'PROGRAM:\nCalculate the requested value using a permitted operation and return it.' },
    { role: 'assistant', content: null, toolCalls: [{ id: 'proposal', name: 'nh_evaluate', arguments: '{"expression":"forbidden()"}' }] },
    { role: 'tool', toolCallId: 'proposal', name: 'nh_evaluate', content: '{"status":"rejected","reason":"This helper is unavailable."}' },
  ],
  tools: [
    { name: 'nh_evaluate', description: 'Evaluate one expression.', parameters: { type: 'object', properties: { expression: { type: 'string' } } } },
    { name: 'nh_output', description: 'Finish the step.', parameters: { type: 'object', properties: { result: { type: 'object' } } } },
  ],
  outputToolName: 'nh_output',
};

const server = await startOpenAIServer({
  handler: () =>
    completion({
      toolCalls: [
        toolCall('nh_evaluate', { expression: '1 + 1' }, 'a'),
        toolCall('nh_output', { result: { kind: 'return', return_expression: '1 + 1' } }, 'b'),
      ],
    }),
});

try {
  const apiKey = 'sk-bench-key';
  const ours = new OpenAIModelClient({ apiKey, baseURL: server.baseURL, env: {} });
  const raw = new OpenAI({ apiKey, baseURL: server.baseURL, maxRetries: 0 });
  // The raw baseline sends the same body, already in the provider's shape.
  const rawBody: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming = {
    model: ours.model,
    messages: [
      { role: 'system', content: (request.messages[0] as { content: string }).content },
      { role: 'user', content: (request.messages[1] as { content: string }).content },
      { role: 'assistant', content: null, tool_calls: [{ id: 'proposal', type: 'function', function: { name: 'nh_evaluate', arguments: '{"expression":"forbidden()"}' } }] },
      { role: 'tool', tool_call_id: 'proposal', content: '{"status":"rejected","reason":"This helper is unavailable."}' },
    ],
    tools: request.tools.map((t) => ({ type: 'function' as const, function: { ...t, parameters: { ...t.parameters } } })),
    tool_choice: 'required',
  };
  const oursOnce = () => ours.request(request);
  const rawOnce = async () => {
    const c = await raw.chat.completions.create(rawBody);
    return c.choices[0]?.message.tool_calls;
  };
  const oursStream = () => ours.request(request, { onStream: () => {} });
  const metered: ModelRequest = { ...request, reportUsage: () => {} };
  const oursMetered = () => ours.request(metered);
  const oursMeteredStream = () => ours.request(metered, { onStream: () => {} });
  const rawStream = async () => {
    const stream = await raw.chat.completions.create({ ...rawBody, stream: true, stream_options: { include_usage: true } });
    let n = 0;
    for await (const chunk of stream) n += chunk.choices.length;
    return n;
  };

  await sample(200, oursOnce);
  await sample(200, rawOnce);
  const samples = { ours: [] as number[], raw: [] as number[], oursStream: [] as number[], rawStream: [] as number[], metered: [] as number[], meteredStream: [] as number[] };
  // Alternating request by request (and swapping who goes first) cancels drift in the machine's load.
  for (let i = 0; i < ITERATIONS; i++) {
    const pairs = [
      [oursOnce, samples.ours],
      [rawOnce, samples.raw],
      [oursStream, samples.oursStream],
      [rawStream, samples.rawStream],
      [oursMetered, samples.metered],
      [oursMeteredStream, samples.meteredStream],
    ] as const;
    const order = i % 2 === 0 ? [0, 1, 2, 3, 4, 5] : [1, 0, 3, 2, 5, 4];
    for (const k of order) pairs[k]![1].push(...(await sample(1, pairs[k]![0], 0)));
  }
  report('model_client_request_vs_raw_openai', samples.ours, samples.raw);
  report('model_client_stream_vs_raw_openai', samples.oursStream, samples.rawStream);
  report('model_client_metered_request_vs_raw_openai', samples.metered, samples.raw);
  report('model_client_metered_stream_vs_raw_openai', samples.meteredStream, samples.rawStream);
} finally {
  await server.close();
}
