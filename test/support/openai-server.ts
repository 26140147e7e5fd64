/**
 * A small OpenAI-compatible Chat Completions server for tests and benchmarks: scripted replies
 * (queue or handler), tool calls, SSE streaming with tool-call deltas split over chunks, scripted
 * errors and delays. It records every request it receives. Listens on 127.0.0.1, port 0.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedToolCall {
  readonly id?: string;
  readonly name: string;
  /** A string is sent verbatim (it may be malformed JSON); an object is JSON-encoded. */
  readonly arguments: string | Readonly<Record<string, unknown>>;
}

export interface ScriptedCompletion {
  readonly kind: 'completion';
  readonly text?: string | null;
  readonly toolCalls?: readonly ScriptedToolCall[];
  readonly usage?: { readonly promptTokens: number; readonly completionTokens: number };
  readonly finishReason?: string;
}

export type ScriptedReply =
  | ScriptedCompletion
  | {
      readonly kind: 'error';
      readonly status: number;
      readonly message?: string;
      readonly headers?: Readonly<Record<string, string>>;
      /** Quote the received Authorization header in the message, as careless providers do. */
      readonly echoAuthorization?: boolean;
    }
  /** Waits `ms` before sending `reply`; nothing is sent if the client gave up meanwhile. */
  | { readonly kind: 'delay'; readonly ms: number; readonly reply: ScriptedReply }
  /** Never answers; the connection stays open until the client gives up or the server closes. */
  | { readonly kind: 'hang' }
  /** Streams the first `chunks` chunks of `reply` (default 2), then stops sending without ending the response. */
  | { readonly kind: 'stalled-stream'; readonly reply: ScriptedCompletion; readonly chunks?: number }
  | { readonly kind: 'raw'; readonly status: number; readonly body: string; readonly contentType?: string };

/** The parsed JSON body of a chat completion request. */
export type ChatRequestBody = { readonly [key: string]: unknown };

export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly rawBody: string;
  readonly body: ChatRequestBody;
}

export type ReplyHandler = (body: ChatRequestBody, index: number) => ScriptedReply | Promise<ScriptedReply>;

export interface OpenAIServerOptions {
  readonly replies?: readonly ScriptedReply[];
  /** Used when the queue is empty. Without it an empty queue answers 500. */
  readonly handler?: ReplyHandler;
  /** Characters per streamed content or arguments fragment (default 4). */
  readonly chunkSize?: number;
}

export interface OpenAITestServer {
  /** `http://127.0.0.1:<port>/v1`, for `OPENAI_BASE_URL` or the `baseURL` option. */
  readonly baseURL: string;
  readonly requests: readonly ReceivedRequest[];
  /** Scripted replies not yet served. */
  readonly pending: number;
  /** Requests that found neither a queued reply nor a handler. */
  readonly unscripted: number;
  enqueue(...replies: ScriptedReply[]): void;
  close(): Promise<void>;
}

export function completion(fields: Omit<ScriptedCompletion, 'kind'>): ScriptedCompletion {
  return { kind: 'completion', ...fields };
}

export function toolCall(name: string, args: string | Readonly<Record<string, unknown>>, id?: string): ScriptedToolCall {
  return id === undefined ? { name, arguments: args } : { id, name, arguments: args };
}

export async function startOpenAIServer(options: OpenAIServerOptions = {}): Promise<OpenAITestServer> {
  const queue: ScriptedReply[] = [...(options.replies ?? [])];
  const requests: ReceivedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const chunkSize = options.chunkSize ?? 4;
  let unscripted = 0;

  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const rawBody = Buffer.concat(parts).toString('utf8');
      let body: ChatRequestBody = {};
      try {
        body = rawBody ? (JSON.parse(rawBody) as ChatRequestBody) : {};
      } catch {
        body = {};
      }
      const index = requests.length;
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, rawBody, body });
      if (req.method !== 'POST' || !(req.url ?? '').endsWith('/chat/completions')) {
        return sendError(res, 404, `No route for ${req.method} ${req.url}`);
      }
      void nextReply(body, index).then((reply) => {
        if (reply) serve(res, reply, body, req.headers);
        else {
          unscripted++;
          sendError(res, 500, 'openai-server: no scripted reply left for this request');
        }
      });
    });
  });

  async function nextReply(body: ChatRequestBody, index: number): Promise<ScriptedReply | undefined> {
    const queued = queue.shift();
    if (queued) return queued;
    return options.handler ? options.handler(body, index) : undefined;
  }

  function serve(res: ServerResponse, reply: ScriptedReply, body: ChatRequestBody, headers: IncomingHttpHeaders): void {
    if (res.destroyed) return;
    switch (reply.kind) {
      case 'completion':
        return body.stream === true ? streamCompletion(res, reply, body, chunkSize) : sendCompletion(res, reply, body);
      case 'error': {
        const auth = String(headers.authorization ?? '');
        const message = (reply.message ?? `scripted error ${reply.status}`) + (reply.echoAuthorization ? ` (received ${auth})` : '');
        return sendError(res, reply.status, message, reply.headers);
      }
      case 'delay': {
        const timer = setTimeout(() => {
          timers.delete(timer);
          serve(res, reply.reply, body, headers);
        }, reply.ms);
        timers.add(timer);
        return;
      }
      case 'hang':
        return;
      case 'stalled-stream': {
        const chunks = completionChunks(reply.reply, body, chunkSize);
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        for (const chunk of chunks.slice(0, reply.chunks ?? 2)) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
        return;
      }
      case 'raw':
        res.writeHead(reply.status, { 'content-type': reply.contentType ?? 'application/json' });
        res.end(reply.body);
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    get pending() {
      return queue.length;
    },
    get unscripted() {
      return unscripted;
    },
    enqueue(...replies) {
      queue.push(...replies);
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

const CREATED = 1_700_000_000;

function modelOf(body: ChatRequestBody): string {
  return typeof body.model === 'string' ? body.model : 'unknown-model';
}

function encodedCalls(reply: ScriptedCompletion): { id: string; name: string; arguments: string }[] {
  return (reply.toolCalls ?? []).map((call, i) => ({
    id: call.id ?? `call_${i + 1}`,
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
  }));
}

function usageOf(reply: ScriptedCompletion): { prompt_tokens: number; completion_tokens: number; total_tokens: number } {
  const prompt = reply.usage?.promptTokens ?? 10;
  const done = reply.usage?.completionTokens ?? 5;
  return { prompt_tokens: prompt, completion_tokens: done, total_tokens: prompt + done };
}

function finishReasonOf(reply: ScriptedCompletion): string {
  return reply.finishReason ?? ((reply.toolCalls ?? []).length > 0 ? 'tool_calls' : 'stop');
}

function sendCompletion(res: ServerResponse, reply: ScriptedCompletion, body: ChatRequestBody): void {
  const calls = encodedCalls(reply);
  const message = {
    role: 'assistant',
    content: reply.text ?? null,
    refusal: null,
    ...(calls.length > 0
      ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) }
      : {}),
  };
  const payload = {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: CREATED,
    model: modelOf(body),
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReasonOf(reply) }],
    usage: usageOf(reply),
  };
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(payload));
}

function split(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

/** The SSE chunks of a completion: role, content pieces, tool-call deltas, finish, then usage if asked. */
export function completionChunks(reply: ScriptedCompletion, body: ChatRequestBody, chunkSize: number): object[] {
  const base = { id: 'chatcmpl-test', object: 'chat.completion.chunk', created: CREATED, model: modelOf(body) };
  const chunk = (delta: object, finishReason: string | null = null): object => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });
  const chunks: object[] = [chunk({ role: 'assistant', content: '' })];
  for (const piece of split(reply.text ?? '', chunkSize)) chunks.push(chunk({ content: piece }));
  encodedCalls(reply).forEach((call, index) => {
    chunks.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    for (const piece of split(call.arguments, chunkSize)) {
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  chunks.push(chunk({}, finishReasonOf(reply)));
  const streamOptions = body.stream_options as { include_usage?: unknown } | undefined;
  if (streamOptions?.include_usage === true) chunks.push({ ...base, choices: [], usage: usageOf(reply) });
  return chunks;
}

function streamCompletion(res: ServerResponse, reply: ScriptedCompletion, body: ChatRequestBody, chunkSize: number): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const chunk of completionChunks(reply, body, chunkSize)) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
  res.end('data: [DONE]\n\n');
}

function sendError(res: ServerResponse, status: number, message: string, headers: Readonly<Record<string, string>> = {}): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'server_error', code: null } }));
}
