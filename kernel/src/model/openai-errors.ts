/**
 * Turns what the `openai` package throws into our typed errors, deciding which are retried.
 * Provider errors are never attached as `cause`: they may quote request details, so only a
 * redacted description survives.
 */
import type { APIError } from 'openai';
import { loadedOpenAI } from './openai-module.js';
import { describeError, isNighthawkError, type NighthawkError } from '../core/index.js';
import {
  ModelAuthenticationError,
  ModelRequestAbortedError,
  ModelRequestError,
  ModelTimeoutError,
  redactSecret,
} from './errors.js';
import { isRetryableStatus, retryAfterMs } from './retry.js';

export interface ClassifiedFailure {
  readonly error: NighthawkError;
  readonly retryable: boolean;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
}

export function classifyOpenAIError(
  error: unknown,
  context: { baseURL: string; apiKey: string; attempts: number; timeoutMs: number },
): ClassifiedFailure {
  const { baseURL, apiKey, attempts } = context;
  const plain = (e: NighthawkError, status?: number): ClassifiedFailure => ({
    error: e,
    retryable: false,
    status,
    retryAfterMs: undefined,
  });
  if (isNighthawkError(error)) return plain(error);
  const openai = loadedOpenAI();
  if (openai && error instanceof openai.APIConnectionTimeoutError) return plain(new ModelTimeoutError({ timeoutMs: context.timeoutMs, baseURL }));
  if (openai && error instanceof openai.APIUserAbortError) return plain(new ModelRequestAbortedError({}));
  if (openai && error instanceof openai.APIError) {
    const status = typeof error.status === 'number' ? error.status : undefined;
    if (status === 401) return plain(new ModelAuthenticationError({ reason: 'rejected-key', baseURL }), 401);
    const detail = describeProviderError(error, apiKey);
    return {
      error: new ModelRequestError({ status, attempts, baseURL, detail }),
      retryable: isRetryableStatus(status),
      status,
      retryAfterMs: retryAfterMs(error.headers instanceof Headers ? error.headers : undefined),
    };
  }
  return plain(new ModelRequestError({ status: undefined, attempts, baseURL, detail: describeFailure(error, apiKey) }));
}

function describeProviderError(error: APIError, apiKey: string): string {
  const body = error.error as { message?: unknown } | undefined;
  const message = typeof body?.message === 'string' ? body.message : error.message;
  return redactSecret(bounded(message), apiKey);
}

/** Error text plus its causes (undici hides `ECONNREFUSED` in `cause`), redacted and bounded. */
function describeFailure(error: unknown, apiKey: string): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 4; depth++) {
    parts.push(describeError(current, 200));
    current = current instanceof Error ? current.cause : undefined;
  }
  return redactSecret(parts.join(' <- '), apiKey);
}

/** A bounded, redacted description of an abort reason; undefined for the default AbortError. */
export function describeAbortReason(reason: unknown, apiKey: string): string | undefined {
  if (reason === undefined) return undefined;
  if (reason instanceof Error && reason.name === 'AbortError') return undefined;
  return redactSecret(describeError(reason, 200), apiKey);
}

/** The URL as shown in messages: credentials embedded in it are removed. */
export function displayURL(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return url;
  }
}

function bounded(text: string, max = 300): string {
  return text.length > max ? text.slice(0, max - 1) + '…' : text;
}
