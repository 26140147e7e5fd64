/**
 * OpenAIModelClient reports a reply's usage from the reply's bytes (ModelRequest.reportUsage) before the
 * `openai` package parses it, so built-ins replaced while the request is in flight cannot change the count.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelRequest, Usage } from '../../kernel/src/core/index.js';
import { OpenAIModelClient } from '../../kernel/src/model/index.js';
import { completion, startOpenAIServer, type OpenAITestServer } from '../support/openai-server.js';

const baseRequest: ModelRequest = {
  messages: [{ role: 'user', content: 'count me' }],
  tools: [{ name: 'final_result', description: 'finish', parameters: { type: 'object' } }],
  outputToolName: 'final_result',
};
const usage = { promptTokens: 400, completionTokens: 100 };
const realJson = Response.prototype.json;
const realParse = JSON.parse;
const mutableResponse = Response.prototype as { json: (this: Response) => Promise<unknown> };
type Decode = (this: unknown, ...args: unknown[]) => string;
const mutableDecoder = TextDecoder.prototype as unknown as { decode: Decode };
const realDecode = mutableDecoder.decode;

let server: OpenAITestServer | undefined;
afterEach(async () => {
  mutableResponse.json = realJson;
  JSON.parse = realParse;
  mutableDecoder.decode = realDecode;
  await server?.close();
  server = undefined;
});

const client = (s: OpenAITestServer) => new OpenAIModelClient({ apiKey: 'sk-reply-usage-0123456789', baseURL: s.baseURL, env: {}, maxRetries: 0 });

async function reported(s: OpenAITestServer, stream: boolean, during?: () => void): Promise<{ reports: Partial<Usage>[]; claimed: unknown }> {
  const reports: Partial<Usage>[] = [];
  // Fires while the reply is held back by the server, i.e. with the request in flight.
  const timer = during ? setTimeout(during, 15) : undefined;
  try {
    const response = await client(s).request({ ...baseRequest, reportUsage: (u) => reports.push(u) }, stream ? { onStream: () => {} } : undefined);
    return { reports, claimed: response.usage };
  } finally {
    clearTimeout(timer);
    mutableResponse.json = realJson;
    JSON.parse = realParse;
    mutableDecoder.decode = realDecode;
  }
}

describe('the usage of a reply, read from its bytes', () => {
  for (const stream of [false, true]) {
    const form = stream ? 'a streamed reply' : 'a reply';
    it(`${form}: reported once, as the server stated it, and the request sent carries nothing of the report`, async () => {
      server = await startOpenAIServer({ replies: [completion({ text: 'ok', usage }), completion({ text: 'ok', usage })] });
      const { reports, claimed } = await reported(server, stream);
      expect(reports).toEqual([{ inputTokens: 400, outputTokens: 100 }]);
      expect(claimed).toEqual({ inputTokens: 400, outputTokens: 100, requests: 1 });
      expect(server.requests[0]!.rawBody).not.toContain('reportUsage');
      // The same request unmetered: the metered fetch forwarded body and headers unchanged.
      await client(server).request(baseRequest, stream ? { onStream: () => {} } : undefined);
      const [metered, plain] = server.requests;
      expect(metered!.rawBody).toBe(plain!.rawBody);
      expect(metered!.headers).toEqual(plain!.headers);
    });
  }

  it('a reply parsed through built-ins replaced in flight: the package sees zero usage, the report does not', async () => {
    server = await startOpenAIServer({ replies: [{ kind: 'delay', ms: 60, reply: completion({ text: 'ok', usage }) }] });
    const { reports, claimed } = await reported(server, false, () => {
      mutableResponse.json = async function (this: Response) {
        const body = (await realJson.call(this)) as { usage: unknown };
        return { ...body, usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } };
      };
      JSON.parse = (text: string) => ({ ...(realParse(text) as object), usage: null });
    });
    expect(claimed).toMatchObject({ inputTokens: 0, outputTokens: 0 });
    expect(reports).toEqual([{ inputTokens: 400, outputTokens: 100 }]);
  });

  it('a streamed reply whose decoder was replaced in flight: the report still has the usage', async () => {
    server = await startOpenAIServer({ replies: [{ kind: 'delay', ms: 60, reply: completion({ text: 'ok', usage }) }] });
    const { reports } = await reported(server, true, () => {
      mutableDecoder.decode = function (this: unknown, ...args: unknown[]) {
        return realDecode.apply(this, args).replace(/"usage":\{[^}]*\}/g, '"usage":null');
      };
    });
    expect(reports).toEqual([{ inputTokens: 400, outputTokens: 100 }]);
  });

  it('an error reply reports nothing', async () => {
    server = await startOpenAIServer({ replies: [{ kind: 'error', status: 400, message: 'bad request' }] });
    const reports: Partial<Usage>[] = [];
    await expect(client(server).request({ ...baseRequest, reportUsage: (u) => reports.push(u) })).rejects.toThrow(/400/);
    expect(reports).toEqual([]);
  });

  it('a stream cut off by the timeout reports nothing it did not see, and the request fails as before', async () => {
    server = await startOpenAIServer({ replies: [{ kind: 'stalled-stream', reply: completion({ text: 'never finished', usage }) }] });
    const reports: Partial<Usage>[] = [];
    const slow = new OpenAIModelClient({ apiKey: 'sk-reply-usage-0123456789', baseURL: server.baseURL, env: {}, maxRetries: 0, timeoutMs: 150 });
    await expect(slow.request({ ...baseRequest, reportUsage: (u) => reports.push(u) }, { onStream: () => {} })).rejects.toThrow(/timed out|timeout/i);
    await new Promise((r) => setTimeout(r, 50));
    expect(reports).toEqual([]);
  });

  it('a body that is not JSON reports nothing; the package refuses it as before', async () => {
    server = await startOpenAIServer({ replies: [{ kind: 'raw', status: 200, body: '{"choices": [', contentType: 'application/json' }] });
    const reports: Partial<Usage>[] = [];
    await expect(client(server).request({ ...baseRequest, reportUsage: (u) => reports.push(u) })).rejects.toThrow();
    expect(reports).toEqual([]);
  });

  it('a request without reportUsage reads its reply as before', async () => {
    server = await startOpenAIServer({ replies: [completion({ text: 'plain', usage })] });
    const response = await client(server).request(baseRequest);
    expect(response).toMatchObject({ text: 'plain', usage: { inputTokens: 400, outputTokens: 100 } });
  });
});
