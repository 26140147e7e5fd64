/**
 * Errors of the model clients. Messages name the fix a user can make and never contain the API key:
 * provider text is passed through `redactSecret` before it reaches a message or field.
 */
import { NighthawkError } from '../core/index.js';

/** The environment variable a user sets to authenticate; named by every authentication error. */
export const API_KEY_VARIABLE = 'OPENAI_API_KEY';

/** No API key is configured, or the provider refused the one sent (HTTP 401). Never retried. */
export class ModelAuthenticationError extends NighthawkError {
  override readonly kind = 'model-authentication' as const;
  readonly reason: 'missing-key' | 'rejected-key';
  readonly variable: typeof API_KEY_VARIABLE;
  readonly status: 401 | undefined;
  readonly baseURL: string;
  constructor(options: { reason: 'missing-key' | 'rejected-key'; baseURL: string }) {
    const message =
      options.reason === 'missing-key'
        ? `No API key for ${options.baseURL}: set ${API_KEY_VARIABLE} or pass the apiKey option.`
        : `The server at ${options.baseURL} rejected the API key (HTTP 401): check ${API_KEY_VARIABLE} or the apiKey option.`;
    super('model-authentication', message);
    this.reason = options.reason;
    this.variable = API_KEY_VARIABLE;
    this.status = options.reason === 'rejected-key' ? 401 : undefined;
    this.baseURL = options.baseURL;
  }
}

/**
 * A provider request that failed: an HTTP error status (after the retries for 429 and 5xx ran out),
 * a connection failure (`status` undefined), or a response the client cannot read.
 */
export class ModelRequestError extends NighthawkError {
  override readonly kind = 'model-request' as const;
  readonly status: number | undefined;
  /** Provider requests sent for this call, retries included. */
  readonly attempts: number;
  readonly baseURL: string;
  /** The provider's own description, with the API key redacted. */
  readonly detail: string;
  constructor(options: { status: number | undefined; attempts: number; baseURL: string; detail: string }) {
    const what = options.status === undefined ? 'could not be completed' : `failed with HTTP ${options.status}`;
    const retried = options.attempts > 1 ? ` after ${options.attempts} attempts` : '';
    const hint =
      options.status === undefined
        ? ' Is the server running? Check OPENAI_BASE_URL or the baseURL option.'
        : options.status === 429
          ? ' The provider is rate limiting; wait or raise the maxRetries option.'
          : '';
    super('model-request', `Model request to ${options.baseURL} ${what}${retried}: ${options.detail}.${hint}`);
    this.status = options.status;
    this.attempts = options.attempts;
    this.baseURL = options.baseURL;
    this.detail = options.detail;
  }
}

/** One provider request took longer than the configured timeout; the request was cancelled. */
export class ModelTimeoutError extends NighthawkError {
  override readonly kind = 'model-timeout' as const;
  readonly timeoutMs: number;
  readonly baseURL: string;
  constructor(options: { timeoutMs: number; baseURL: string }) {
    super(
      'model-timeout',
      `Model request to ${options.baseURL} timed out after ${options.timeoutMs} ms; raise the timeoutMs option if the model is slow.`,
    );
    this.timeoutMs = options.timeoutMs;
    this.baseURL = options.baseURL;
  }
}

/** The caller's AbortSignal fired before the response was complete. */
export class ModelRequestAbortedError extends NighthawkError {
  override readonly kind = 'model-aborted' as const;
  /** The signal's reason, described (bounded, redacted). */
  readonly reason: string | undefined;
  constructor(options: { reason?: string | undefined }) {
    super('model-aborted', `Model request was cancelled${options.reason ? `: ${options.reason}` : ''}.`);
    this.reason = options.reason;
  }
}

/** Replay received a request that differs from the recording (or one more than was recorded). */
export class CassetteDivergenceError extends NighthawkError {
  override readonly kind = 'cassette-divergence' as const;
  readonly path: string;
  /** Zero-based index of the first request that differs. */
  readonly index: number;
  /** Path of the first differing field, e.g. `messages[2].content`, `tools[0].name`, or `request` past the end. */
  readonly field: string;
  /** Canonical JSON of the recorded and received values at `field` (bounded); undefined when absent. */
  readonly expected: string | undefined;
  readonly actual: string | undefined;
  constructor(options: { path: string; index: number; field: string; expected: string | undefined; actual: string | undefined }) {
    super(
      'cassette-divergence',
      `Request ${options.index} diverges from the cassette ${options.path} at ${options.field}: ` +
        `recorded ${options.expected ?? '(nothing)'}, received ${options.actual ?? '(nothing)'}. ` +
        'Re-record the cassette if the program changed on purpose.',
    );
    this.path = options.path;
    this.index = options.index;
    this.field = options.field;
    this.expected = options.expected;
    this.actual = options.actual;
  }
}

/** A cassette file that is missing or not valid JSONL in the expected shape. */
export class CassetteFormatError extends NighthawkError {
  override readonly kind = 'cassette-format' as const;
  readonly path: string;
  /** One-based line number, or undefined when the file itself is the problem. */
  readonly line: number | undefined;
  constructor(options: { path: string; line?: number | undefined; detail: string }) {
    super('cassette-format', `Cassette ${options.path}${options.line ? ` line ${options.line}` : ''}: ${options.detail}`);
    this.path = options.path;
    this.line = options.line;
  }
}

/** Replaces every occurrence of `secret` in `text`; secrets shorter than 4 characters are not real keys. */
export function redactSecret(text: string, secret: string | undefined): string {
  if (!secret || secret.length < 4) return text;
  return text.split(secret).join('[redacted]');
}
