/**
 * ModelClient for OpenAI Chat Completions and any compatible server (Ollama, vLLM, LM Studio,
 * llama.cpp server, Azure OpenAI), built on the `openai` package. Retries are ours alone: the
 * package's own retries are disabled so the bound documented here is the real one.
 */
import type OpenAI from 'openai';
import { loadOpenAI } from './openai-module.js';
import { copyNetworkOrigins, registerSecret, type ModelClient, type ModelRequest, type ModelResponse, type ModelStreamEvent, type Usage } from '../core/index.js';
import { ModelAuthenticationError, ModelRequestAbortedError, ModelRequestError, ModelTimeoutError } from './errors.js';
import { classifyOpenAIError, describeAbortReason, displayURL } from './openai-errors.js';
import { fromCompletion, StreamAssembler, toChatMessages, toChatTools } from './openai-mapping.js';
import { meteredFetch, REPORT_USAGE } from './reply-usage.js';
import { abortableDelay, backoffDelayMs, DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.js';

export const DEFAULT_OPENAI_MODEL = 'gpt-4o-mini';
export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';
const DEFAULT_TIMEOUT_MS = 120_000;
/** Sent to servers that do not check keys (a base URL other than OpenAI's with no key configured). */
const PLACEHOLDER_API_KEY = 'nighthawk-no-key';
/** The abort reason of our own timer, so a timeout is told apart from the caller's cancellation. */
const TIMED_OUT = Symbol('nighthawk.model-timeout');

export interface BeforeRequestInfo {
  /** The model this request will use. */
  readonly model: string;
  /** 0 for the first provider request of a call, then 1, 2 … for retries. */
  readonly attempt: number;
  readonly request: ModelRequest;
}

export interface RetryInfo {
  /** The retry about to be made (1 for the first retry). */
  readonly retry: number;
  readonly status: number | undefined;
  readonly delayMs: number;
}

export interface OpenAIModelClientOptions {
  /** Defaults to `OPENAI_API_KEY`. Required for OpenAI's own endpoint; optional for other base URLs. */
  readonly apiKey?: string | undefined;
  /** Defaults to `OPENAI_BASE_URL`, then `https://api.openai.com/v1`. */
  readonly baseURL?: string | undefined;
  /**
   * Where requests connect (ModelClient.networkOrigins): by default the base URL's origin. Name a proxy's origin
   * here when requests go through one.
   */
  readonly networkOrigins?: readonly string[] | undefined;
  /** Defaults to `NIGHTHAWK_MODEL`, then `gpt-4o-mini`. `ModelRequest.model` overrides it per call. */
  readonly model?: string | undefined;
  /** Retries for 429 and 5xx responses after the first attempt (default 2). */
  readonly maxRetries?: number | undefined;
  readonly retryBaseDelayMs?: number | undefined;
  /** Bound on any single backoff wait, a server's `retry-after` included (default 8000). */
  readonly retryMaxDelayMs?: number | undefined;
  /** Per provider request, streaming included (default 120000). */
  readonly timeoutMs?: number | undefined;
  /** `required` (default) makes the model finish through a tool; some local servers only support `auto`. */
  readonly toolChoice?: 'required' | 'auto' | undefined;
  /** Called before every provider request, retries included. If it throws, no request is sent and the error propagates unchanged. */
  readonly beforeRequest?: ((info: BeforeRequestInfo) => void | Promise<void>) | undefined;
  /** Notified before each backoff wait. */
  readonly onRetry?: ((info: RetryInfo) => void) | undefined;
  /** Environment to read configuration from (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Jitter source in [0, 1) (default `Math.random`). */
  readonly random?: (() => number) | undefined;
}

type ChatBody = Omit<OpenAI.Chat.ChatCompletionCreateParamsNonStreaming, 'stream'>;

/** A base URL's origin (scheme, host and port, no credentials); the text itself when it is not a URL (admits nothing). */
function originOf(baseURL: string): string {
  try {
    return new URL(baseURL).origin;
  } catch {
    return baseURL;
  }
}

/**
 * Sends each ModelRequest as one Chat Completions call (streamed when `onStream` is given).
 * Construction throws ModelAuthenticationError when OpenAI's endpoint is used without a key.
 * `request()` throws ModelAuthenticationError (401), ModelRequestError (other statuses, after
 * retrying 429/5xx; connection failures), ModelTimeoutError, or ModelRequestAbortedError.
 */
export class OpenAIModelClient implements ModelClient {
  readonly label: string;
  readonly model: string;
  /** The base URL without any credentials it may contain. */
  readonly baseURL: string;
  readonly networkOrigins: readonly string[];
  #client: OpenAI | undefined;
  readonly #baseURLOption: string;
  readonly #apiKey: string;
  readonly #retry: RetryPolicy;
  readonly #timeoutMs: number;
  readonly #toolChoice: 'required' | 'auto';
  readonly #beforeRequest: OpenAIModelClientOptions['beforeRequest'];
  readonly #onRetry: OpenAIModelClientOptions['onRetry'];
  readonly #random: () => number;

  constructor(options: OpenAIModelClientOptions = {}) {
    const env = options.env ?? process.env;
    const baseURL = nonEmpty(options.baseURL) ?? nonEmpty(env.OPENAI_BASE_URL) ?? DEFAULT_OPENAI_BASE_URL;
    this.baseURL = displayURL(baseURL);
    const apiKey = nonEmpty(options.apiKey) ?? nonEmpty(env.OPENAI_API_KEY);
    // Self-hosted servers rarely check keys; OpenAI always does, so fail before the first request there.
    if (!apiKey && isOpenAIHost(baseURL)) throw new ModelAuthenticationError({ reason: 'missing-key', baseURL: this.baseURL });
    this.#apiKey = apiKey ?? PLACEHOLDER_API_KEY;
    // The configured key is redacted wherever the host writes (ledger, stores, cassettes, outputs).
    if (apiKey && apiKey.length >= 8) registerSecret('OPENAI_API_KEY', apiKey);
    this.model = nonEmpty(options.model) ?? nonEmpty(env.NIGHTHAWK_MODEL) ?? DEFAULT_OPENAI_MODEL;
    this.label = `openai:${this.model}`;
    this.#retry = {
      maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries,
      baseDelayMs: options.retryBaseDelayMs ?? DEFAULT_RETRY_POLICY.baseDelayMs,
      maxDelayMs: options.retryMaxDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs,
    };
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#toolChoice = options.toolChoice ?? 'required';
    this.#beforeRequest = options.beforeRequest;
    this.#onRetry = options.onRetry;
    this.#random = options.random ?? Math.random;
    this.#baseURLOption = baseURL;
    this.networkOrigins = copyNetworkOrigins(options.networkOrigins ?? [originOf(baseURL)], 'OpenAIModelClient')!;
  }

  async request(request: ModelRequest, options?: { onStream?: (event: ModelStreamEvent) => void }): Promise<ModelResponse> {
    const model = nonEmpty(request.model) ?? this.model;
    const body: ChatBody = {
      model,
      messages: toChatMessages(request.messages),
      ...(request.tools.length > 0 ? { tools: toChatTools(request.tools), tool_choice: this.#toolChoice } : {}),
    };
    for (let attempt = 0; ; attempt++) {
      if (request.signal?.aborted) throw new ModelRequestAbortedError({ reason: this.#reason(request.signal.reason) });
      await this.#beforeRequest?.({ model, attempt, request });
      try {
        return await this.#send(body, request.signal, options?.onStream, request.reportUsage);
      } catch (error) {
        if (error instanceof CallbackFailure) throw error.error;
        const failure = classifyOpenAIError(error, { baseURL: this.baseURL, apiKey: this.#apiKey, attempts: attempt + 1, timeoutMs: this.#timeoutMs });
        if (!failure.retryable || attempt >= this.#retry.maxRetries) throw failure.error;
        const delayMs = backoffDelayMs(this.#retry, attempt, this.#random, failure.retryAfterMs);
        this.#onRetry?.({ retry: attempt + 1, status: failure.status, delayMs });
        await abortableDelay(delayMs, request.signal).catch((reason: unknown) => {
          throw new ModelRequestAbortedError({ reason: this.#reason(reason) });
        });
      }
    }
  }

  async #send(
    body: ChatBody,
    signal: AbortSignal | undefined,
    onStream: ((event: ModelStreamEvent) => void) | undefined,
    reportUsage: ((usage: Partial<Usage>) => void) | undefined,
  ): Promise<ModelResponse> {
    // Before the timeout starts: importing the package is not the provider's time. The package fetches with the
    // global fetch as it is at the first request (the host has checked it then), metered (see reply-usage.ts).
    const client = (this.#client ??= new (await loadOpenAI()).default({
      apiKey: this.#apiKey,
      baseURL: this.#baseURLOption,
      maxRetries: 0,
      timeout: this.#timeoutMs,
      fetch: meteredFetch(globalThis.fetch as Parameters<typeof meteredFetch>[0]) as typeof fetch,
    }));
    // One controller for the caller's signal and our timeout, which also covers a stalled stream body.
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(TIMED_OUT), this.#timeoutMs);
    const forward = (): void => controller.abort(signal?.reason);
    signal?.addEventListener('abort', forward, { once: true });
    const callbackFailure: { error?: unknown } = {};
    try {
      const requestOptions = {
        signal: controller.signal,
        maxRetries: 0,
        timeout: this.#timeoutMs,
        // Carried to meteredFetch, which takes it out before the request is sent.
        ...(reportUsage ? { fetchOptions: { [REPORT_USAGE]: reportUsage } as OpenAI.RequestOptions["fetchOptions"] } : {}),
      };
      if (!onStream) {
        const completion = await client.chat.completions.create({ ...body, stream: false }, requestOptions);
        return fromCompletion(completion) ?? this.#noChoice();
      }
      const stream = await client.chat.completions.create(
        { ...body, stream: true, stream_options: { include_usage: true } },
        requestOptions,
      );
      const assembler = new StreamAssembler((event) => {
        try {
          onStream(event);
        } catch (error) {
          callbackFailure.error = error;
          controller.abort(error);
          throw error;
        }
      });
      for await (const chunk of stream) assembler.add(chunk);
      // The package's stream ends quietly when aborted; a partial response must not pass as complete.
      if (controller.signal.aborted) throw controller.signal.reason;
      return assembler.finish();
    } catch (error) {
      if ('error' in callbackFailure) throw new CallbackFailure(callbackFailure.error);
      if (controller.signal.aborted) {
        throw controller.signal.reason === TIMED_OUT
          ? new ModelTimeoutError({ timeoutMs: this.#timeoutMs, baseURL: this.baseURL })
          : new ModelRequestAbortedError({ reason: this.#reason(controller.signal.reason) });
      }
      throw error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forward);
    }
  }

  #noChoice(): never {
    throw new ModelRequestError({ status: undefined, attempts: 1, baseURL: this.baseURL, detail: 'the response contained no choices' });
  }

  #reason(reason: unknown): string | undefined {
    return describeAbortReason(reason, this.#apiKey);
  }
}
Object.freeze(OpenAIModelClient.prototype); // shared by every run in the process: model code replaces no method

/** Carries an error thrown by the caller's onStream out of #send, so it is rethrown unchanged and never retried. */
class CallbackFailure {
  constructor(readonly error: unknown) {}
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

function isOpenAIHost(baseURL: string): boolean {
  try {
    return new URL(baseURL).hostname.toLowerCase() === 'api.openai.com';
  } catch {
    return false;
  }
}
