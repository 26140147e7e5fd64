import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { isNighthawkError } from '../../kernel/src/core/errors.js';
import type { ModelRequest } from '../../kernel/src/core/model-client.js';
import {
  ModelAuthenticationError,
  ModelRequestAbortedError,
  ModelRequestError,
  ModelTimeoutError,
  OpenAIModelClient,
  type OpenAIModelClientOptions,
  type RetryInfo,
} from '../../kernel/src/model/index.js';
import { completion, startOpenAIServer, type OpenAITestServer } from '../support/openai-server.js';

const KEY = 'sk-secret-KEY-9f8e7d6c5b4a';

const baseRequest: ModelRequest = {
  messages: [{ role: 'user', content: 'hello' }],
  tools: [{ name: 'final_result', description: 'finish', parameters: { type: 'object' } }],
  outputToolName: 'final_result',
};

let server: OpenAITestServer;
afterEach(async () => server?.close());

function client(options: OpenAIModelClientOptions = {}): OpenAIModelClient {
  return new OpenAIModelClient({ apiKey: KEY, baseURL: server.baseURL, env: {}, retryBaseDelayMs: 1, ...options });
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    expect(isNighthawkError(error)).toBe(true);
    return error as Error;
  }
  throw new Error('expected the request to fail');
}

/** Everything a user could see of an error: message, fields, inspection output. */
function visible(value: unknown): string {
  return [inspect(value, { depth: 6, showHidden: true }), JSON.stringify(value), String(value)].join('\n');
}

describe('authentication errors', () => {
  it("without a key for OpenAI's endpoint, construction fails naming OPENAI_API_KEY", () => {
    for (const env of [{}, { OPENAI_API_KEY: '' }, { OPENAI_BASE_URL: 'https://api.openai.com/v1' }]) {
      let thrown: unknown;
      try {
        new OpenAIModelClient({ env });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ModelAuthenticationError);
      expect((thrown as ModelAuthenticationError).reason).toBe('missing-key');
      expect((thrown as ModelAuthenticationError).variable).toBe('OPENAI_API_KEY');
      expect((thrown as Error).message).toContain('OPENAI_API_KEY');
    }
  });

  it('a 401 becomes ModelAuthenticationError naming OPENAI_API_KEY, is not retried, and does not leak the key', async () => {
    server = await startOpenAIServer({ replies: [{ kind: 'error', status: 401, message: 'Incorrect API key', echoAuthorization: true }] });
    const error = await failure(client().request(baseRequest));
    expect(error).toBeInstanceOf(ModelAuthenticationError);
    expect(error).toMatchObject({ kind: 'model-authentication', reason: 'rejected-key', status: 401, variable: 'OPENAI_API_KEY' });
    expect(error.message).toContain('OPENAI_API_KEY');
    expect(server.requests).toHaveLength(1);
    expect(visible(error)).not.toContain(KEY);
  });
});

describe('retries for 429 and 5xx', () => {
  it('a 429 with retry-after is retried and then succeeds', async () => {
    server = await startOpenAIServer({
      replies: [{ kind: 'error', status: 429, headers: { 'retry-after': '0' } }, completion({ text: 'done' })],
    });
    const retries: RetryInfo[] = [];
    const response = await client({ onRetry: (info) => retries.push(info) }).request(baseRequest);
    expect(response.text).toBe('done');
    expect(server.requests).toHaveLength(2);
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ retry: 1, status: 429 });
  });

  it("a server's retry-after longer than the bound is capped at retryMaxDelayMs", async () => {
    server = await startOpenAIServer({
      replies: [{ kind: 'error', status: 429, headers: { 'retry-after': '3600' } }, completion({ text: 'done' })],
    });
    const retries: RetryInfo[] = [];
    await client({ retryMaxDelayMs: 5, onRetry: (info) => retries.push(info) }).request(baseRequest);
    expect(retries.map((r) => r.delayMs)).toEqual([5]);
  });

  it('backoff grows exponentially with jitter between half and the full step', async () => {
    const statuses = [500, 502, 503];
    server = await startOpenAIServer({ replies: statuses.map((status) => ({ kind: 'error' as const, status })) });
    const low: RetryInfo[] = [];
    await failure(client({ maxRetries: 2, retryBaseDelayMs: 8, random: () => 0, onRetry: (i) => low.push(i) }).request(baseRequest));
    expect(low.map((r) => r.delayMs)).toEqual([4, 8]);
    server.enqueue(...statuses.map((status) => ({ kind: 'error' as const, status })));
    const high: RetryInfo[] = [];
    await failure(client({ maxRetries: 2, retryBaseDelayMs: 8, random: () => 0.5, onRetry: (i) => high.push(i) }).request(baseRequest));
    expect(high.map((r) => r.delayMs)).toEqual([6, 12]);
    expect(high.map((r) => r.status)).toEqual([500, 502]);
  });

  it('after maxRetries a 5xx becomes ModelRequestError carrying the status and the attempts', async () => {
    server = await startOpenAIServer({ replies: [500, 500, 500, 500].map((status) => ({ kind: 'error' as const, status })) });
    const error = await failure(client().request(baseRequest));
    expect(error).toBeInstanceOf(ModelRequestError);
    expect(error).toMatchObject({ kind: 'model-request', status: 500, attempts: 3 });
    expect(server.requests).toHaveLength(3);
    expect(server.pending).toBe(1);
  });

  it('a persistent 429 becomes ModelRequestError with status 429 after the configured retries', async () => {
    server = await startOpenAIServer({ replies: [429, 429].map((status) => ({ kind: 'error' as const, status })) });
    const error = await failure(client({ maxRetries: 1 }).request(baseRequest));
    expect(error).toMatchObject({ status: 429, attempts: 2 });
    expect(error.message).toContain('rate limiting');
    expect(server.requests).toHaveLength(2);
  });

  it('maxRetries 0 sends exactly one request, and the openai package adds no retries of its own', async () => {
    server = await startOpenAIServer({ replies: [{ kind: 'error', status: 503 }, completion({ text: 'unused' })] });
    const error = await failure(client({ maxRetries: 0 }).request(baseRequest));
    expect(error).toMatchObject({ status: 503, attempts: 1 });
    expect(server.requests).toHaveLength(1);
  });

  it('a 400 is not retried and carries its status and the provider message', async () => {
    server = await startOpenAIServer({ replies: [{ kind: 'error', status: 400, message: 'tool_choice unsupported' }] });
    const error = await failure(client().request(baseRequest));
    expect(error).toMatchObject({ status: 400, attempts: 1, detail: 'tool_choice unsupported' });
    expect(server.requests).toHaveLength(1);
  });

  it('a connection failure is a ModelRequestError without status that suggests checking the base URL', async () => {
    server = await startOpenAIServer();
    const closedURL = server.baseURL;
    await server.close();
    const error = await failure(new OpenAIModelClient({ apiKey: KEY, baseURL: closedURL, env: {} }).request(baseRequest));
    expect(error).toBeInstanceOf(ModelRequestError);
    expect((error as ModelRequestError).status).toBeUndefined();
    expect(error.message).toContain('OPENAI_BASE_URL');
    server = await startOpenAIServer();
  });
});

describe('timeouts and cancellation', () => {
  it('a server that never answers ends in ModelTimeoutError after timeoutMs, without retrying', async () => {
    server = await startOpenAIServer({ replies: [{ kind: 'hang' }] });
    const error = await failure(client({ timeoutMs: 100 }).request(baseRequest));
    expect(error).toBeInstanceOf(ModelTimeoutError);
    expect(error).toMatchObject({ kind: 'model-timeout', timeoutMs: 100 });
    expect(server.requests).toHaveLength(1);
  });

  it('a stream that stalls after its first chunk ends in ModelTimeoutError', async () => {
    server = await startOpenAIServer({ replies: [{ kind: 'stalled-stream', reply: completion({ text: 'partial' }) }] });
    const error = await failure(client({ timeoutMs: 150 }).request(baseRequest, { onStream: () => {} }));
    expect(error).toBeInstanceOf(ModelTimeoutError);
  });

  it('aborting in the middle of a stream is a cancellation, never a partial response', async () => {
    const controller = new AbortController();
    server = await startOpenAIServer({ replies: [{ kind: 'stalled-stream', reply: completion({ text: 'partial text' }), chunks: 2 }] });
    const deltas: string[] = [];
    const error = await failure(
      client().request(
        { ...baseRequest, signal: controller.signal },
        {
          onStream: (event) => {
            if (event.kind === 'text-delta') deltas.push(event.delta);
            controller.abort('stop streaming');
          },
        },
      ),
    );
    expect(deltas).toEqual(['part']);
    expect(error).toBeInstanceOf(ModelRequestAbortedError);
    expect((error as ModelRequestAbortedError).reason).toBe('stop streaming');
  });

  it('an already aborted signal sends no request', async () => {
    server = await startOpenAIServer({ replies: [completion({ text: 'unused' })] });
    const error = await failure(client().request({ ...baseRequest, signal: AbortSignal.abort('stopped') }));
    expect(error).toBeInstanceOf(ModelRequestAbortedError);
    expect(server.requests).toHaveLength(0);
  });

  it('aborting while the server is working cancels the request with the abort reason', async () => {
    const controller = new AbortController();
    server = await startOpenAIServer({
      handler: () => {
        controller.abort(new Error(`user pressed stop (${KEY})`));
        return { kind: 'hang' };
      },
    });
    const error = await failure(client().request({ ...baseRequest, signal: controller.signal }));
    expect(error).toBeInstanceOf(ModelRequestAbortedError);
    expect((error as ModelRequestAbortedError).reason).toContain('user pressed stop');
    expect(visible(error)).not.toContain(KEY);
  });

  it('aborting during a backoff wait ends the call without another request', async () => {
    const controller = new AbortController();
    server = await startOpenAIServer({ replies: [{ kind: 'error', status: 429, headers: { 'retry-after': '3600' } }, completion({ text: 'unused' })] });
    const error = await failure(
      client({ retryMaxDelayMs: 60_000, onRetry: () => controller.abort() }).request({ ...baseRequest, signal: controller.signal }),
    );
    expect(error).toBeInstanceOf(ModelRequestAbortedError);
    expect(server.requests).toHaveLength(1);
  });
});

describe('the API key never leaks', () => {
  it('errors, the client object and provider messages never contain the key', async () => {
    server = await startOpenAIServer({
      replies: [
        { kind: 'error', status: 500, message: 'upstream failed', echoAuthorization: true },
        { kind: 'error', status: 400, message: `bad request for key ${KEY}` },
        { kind: 'error', status: 401, echoAuthorization: true },
      ],
    });
    const c = client({ maxRetries: 0 });
    const errors = [await failure(c.request(baseRequest)), await failure(c.request(baseRequest)), await failure(c.request(baseRequest))];
    expect(server.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    expect((errors[0] as ModelRequestError).detail).toContain('[redacted]');
    for (const error of errors) expect(visible(error)).not.toContain(KEY);
    expect(visible(c)).not.toContain(KEY);
    expect(c.label).not.toContain(KEY);
  });
});
