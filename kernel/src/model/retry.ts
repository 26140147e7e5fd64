/** Backoff for retried provider requests: exponential, jittered, and never longer than a bound. */

export interface RetryPolicy {
  /** Retries after the first attempt; 0 disables retrying. */
  readonly maxRetries: number;
  readonly baseDelayMs: number;
  /** Upper bound of any single wait, including one a `retry-after` header asks for. */
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({ maxRetries: 2, baseDelayMs: 500, maxDelayMs: 8_000 });

/** HTTP statuses worth retrying: rate limits and server-side failures. */
export function isRetryableStatus(status: number | undefined): boolean {
  return status === 429 || (status !== undefined && status >= 500 && status <= 599);
}

/** Reads `retry-after-ms` or `retry-after` (seconds or an HTTP date) in milliseconds. */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  const ms = headers?.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The wait before retry number `retry` (0-based): half of the exponential step plus up to another
 * half of jitter, raised to the server's `retry-after` if it asks for more, capped at `maxDelayMs`.
 */
export function backoffDelayMs(policy: RetryPolicy, retry: number, random: () => number, serverAfterMs?: number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  const jittered = step / 2 + random() * (step / 2);
  return Math.min(policy.maxDelayMs, Math.max(jittered, serverAfterMs ?? 0));
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function abortableDelay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
