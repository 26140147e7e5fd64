import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelRequest, ModelStreamEvent } from '../../kernel/src/core/model-client.js';
import {
  CassetteDivergenceError,
  CassetteFormatError,
  ModelRequestAbortedError,
  OpenAIModelClient,
  readCassette,
  RecordingModelClient,
  ReplayModelClient,
} from '../../kernel/src/model/index.js';
import { completion, startOpenAIServer, toolCall, type OpenAITestServer } from '../support/openai-server.js';

const KEY = 'sk-cassette-secret-5a4b3c2d1e';

const tools = [
  { name: 'nh_evaluate', description: 'evaluate', parameters: { type: 'object', properties: { expression: { type: 'string' } } } },
  { name: 'final_result', description: 'finish', parameters: { type: 'object' } },
];
const first: ModelRequest = {
  messages: [
    { role: 'system', content: 'system prompt' },
    { role: 'user', content: 'Calculate the requested value.' },
  ],
  tools,
  outputToolName: 'final_result',
};
const second: ModelRequest = {
  ...first,
  messages: [
    ...first.messages,
    { role: 'assistant', content: null, toolCalls: [{ id: 'p', name: 'nh_evaluate', arguments: '{"expression":"forbidden()"}' }] },
    { role: 'tool', toolCallId: 'p', name: 'nh_evaluate', content: 'rejected: This helper is unavailable.' },
  ],
  model: 'per-scope-model',
};

let server: OpenAITestServer | undefined;
let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'nh-cassette-'));
  path = join(dir, 'nested', 'run.jsonl');
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function record(): Promise<unknown[]> {
  server = await startOpenAIServer({
    replies: [
      completion({ text: 'trying', toolCalls: [toolCall('nh_evaluate', { expression: 'forbidden()' }, 'p')] }),
      completion({ toolCalls: [toolCall('final_result', { result: 2 }, 'f')], usage: { promptTokens: 40, completionTokens: 6 } }),
    ],
  });
  const recorder = new RecordingModelClient(new OpenAIModelClient({ apiKey: KEY, baseURL: server.baseURL, env: {} }), path);
  const responses = [await recorder.request(first), await recorder.request(second)];
  await server.close();
  server = undefined;
  return responses;
}

describe('recording', () => {
  it('writes one JSONL line per request with the normalised request and the response', async () => {
    await record();
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(2);
    const entries = readCassette(path);
    expect(entries[0]).toMatchObject({ index: 0, label: 'openai:gpt-4o-mini', request: { model: null, outputToolName: 'final_result' } });
    expect(entries[1]!.request.model).toBe('per-scope-model');
    expect(entries[1]!.request.messages).toEqual(second.messages);
    expect(entries[1]!.request.tools).toEqual(tools);
    expect(entries[1]!.response).toMatchObject({
      text: null,
      toolCalls: [{ id: 'f', name: 'final_result', arguments: '{"result":2}' }],
      usage: { inputTokens: 40, outputTokens: 6, requests: 1 },
    });
  });

  it('never writes the API key into the cassette', async () => {
    await record();
    expect(readFileSync(path, 'utf8')).not.toContain(KEY);
  });

  it('a new recording replaces an old file unless append is set', async () => {
    await record();
    await record();
    expect(readCassette(path)).toHaveLength(2);
    server = await startOpenAIServer({ replies: [completion({ text: 'more' })] });
    const appender = new RecordingModelClient(new OpenAIModelClient({ apiKey: KEY, baseURL: server.baseURL, env: {} }), path, { append: true });
    await appender.request(first);
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(3);
  });
});

describe('replay', () => {
  it('serves the recorded responses in order with no server running', async () => {
    const live = await record();
    const replay = new ReplayModelClient(path);
    expect(replay.label).toBe('replay:openai:gpt-4o-mini');
    expect([await replay.request(first), await replay.request(second)]).toEqual(live);
    expect(replay.served).toBe(2);
    replay.assertExhausted();
  });

  it('replays a recorded response as stream events when onStream is passed', async () => {
    await record();
    const replay = new ReplayModelClient(path);
    const events: ModelStreamEvent[] = [];
    await replay.request(first, { onStream: (e) => events.push(e) });
    expect(events).toEqual([
      { kind: 'text-delta', delta: 'trying' },
      { kind: 'tool-call-delta', index: 0, id: 'p', name: 'nh_evaluate', argumentsDelta: '{"expression":"forbidden()"}' },
    ]);
  });

  it('a changed message raises CassetteDivergenceError naming the request index and the field', async () => {
    await record();
    const replay = new ReplayModelClient(path);
    await replay.request(first);
    const edited: ModelRequest = {
      ...second,
      messages: second.messages.map((m, i) => (i === 3 && m.role === 'tool' ? { ...m, content: 'rejected: something else' } : m)),
    };
    const error = await replay.request(edited).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CassetteDivergenceError);
    expect(error).toMatchObject({
      kind: 'cassette-divergence',
      index: 1,
      field: 'messages[3].content',
      expected: '"rejected: This helper is unavailable."',
      actual: '"rejected: something else"',
    });
    expect((error as Error).message).toContain('Request 1');
    expect(replay.served).toBe(1);
  });

  it('divergence names extra messages, tool changes and model changes', async () => {
    await record();
    const cases: [ModelRequest, string][] = [
      [{ ...first, messages: [...first.messages, { role: 'user', content: 'extra' }] }, 'messages[2]'],
      [{ ...first, tools: [tools[1]!] }, 'tools[0].description'],
      [{ ...first, model: 'other-model' }, 'model'],
      [{ ...first, outputToolName: 'done' }, 'outputToolName'],
    ];
    for (const [request, field] of cases) {
      await expect(new ReplayModelClient(path).request(request)).rejects.toMatchObject({ index: 0, field });
    }
  });

  it('a request past the end of the cassette diverges, and stopping early is detected', async () => {
    await record();
    const replay = new ReplayModelClient(path);
    expect(() => replay.assertExhausted()).toThrow(CassetteDivergenceError);
    await replay.request(first);
    await replay.request(second);
    await expect(replay.request(first)).rejects.toMatchObject({ kind: 'cassette-divergence', index: 2, field: 'request', expected: undefined });
  });

  it('key order and undefined fields do not count as differences', async () => {
    await record();
    const reordered: ModelRequest = {
      outputToolName: 'final_result',
      model: undefined,
      tools: tools.map((t) => ({ parameters: t.parameters, description: t.description, name: t.name })),
      messages: first.messages.map((m) => ({ content: m.content, role: m.role }) as typeof m),
      signal: new AbortController().signal,
    };
    await expect(new ReplayModelClient(path).request(reordered)).resolves.toMatchObject({ text: 'trying' });
  });

  it('an aborted signal cancels a replayed request', async () => {
    await record();
    await expect(new ReplayModelClient(path).request({ ...first, signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
      ModelRequestAbortedError,
    );
  });

  it('a missing or malformed cassette raises CassetteFormatError at construction', () => {
    expect(() => new ReplayModelClient(join(dir, 'absent.jsonl'))).toThrow(CassetteFormatError);
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"index":0,"label":"x","request":{"messages":[],"tools":[]},"response":{"toolCalls":[]}}\nnot json\n');
    expect(() => new ReplayModelClient(bad)).toThrow(expect.objectContaining({ kind: 'cassette-format', line: 2 }));
  });
});
