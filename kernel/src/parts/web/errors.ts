/** Errors of the web fetch capability. Each carries typed fields; messages are built from them. */
import { NighthawkError } from '../../core/index.js';

export const WebPolicyRefusal = {
  invalidUrl: 'invalid-url',
  scheme: 'scheme',
  hostname: 'hostname',
  port: 'port',
  credentials: 'credentials-in-url',
  /** A loopback, private, link-local or other non-public address reached through a pattern, not an exact entry. */
  privateAddress: 'private-address',
} as const;
export type WebPolicyRefusal = (typeof WebPolicyRefusal)[keyof typeof WebPolicyRefusal];

/** The URL policy refused a request before it was sent. `hop` 0 is the submitted request, 1.. are redirects. */
export class WebPolicyRefusedError extends NighthawkError {
  readonly url: string;
  readonly hop: number;
  readonly reason: WebPolicyRefusal;
  constructor(options: { url: string; hop: number; reason: WebPolicyRefusal; detail: string }) {
    const where = options.hop === 0 ? 'the request' : `redirect hop ${options.hop}`;
    super('web-policy-refused', `The web policy refused ${where} to ${options.url} (${options.reason}): ${options.detail}. Nothing was sent to it.`);
    this.url = options.url;
    this.hop = options.hop;
    this.reason = options.reason;
  }
}

/** More redirects than the capability allows; the last redirect was not followed. */
export class WebRedirectLimitError extends NighthawkError {
  readonly url: string;
  readonly maxRedirects: number;
  constructor(options: { url: string; maxRedirects: number }) {
    super('web-redirect-limit', `Fetching ${options.url} exceeded ${options.maxRedirects} redirects; the next one was not followed.`);
    this.url = options.url;
    this.maxRedirects = options.maxRedirects;
  }
}

export const WebFetchFailure = {
  network: 'network',
  timeout: 'timeout',
  aborted: 'aborted',
  unsupportedScheme: 'unsupported-scheme',
  invalidRedirect: 'invalid-redirect',
} as const;
export type WebFetchFailure = (typeof WebFetchFailure)[keyof typeof WebFetchFailure];

/** The transport failed (connection error, timeout, cancellation, an unusable redirect). */
export class WebFetchFailedError extends NighthawkError {
  readonly url: string;
  readonly reason: WebFetchFailure;
  readonly code: string | undefined;
  constructor(options: { url: string; reason: WebFetchFailure; detail: string; code?: string; cause?: unknown }) {
    super('web-fetch-failed', `Fetching ${options.url} failed (${options.reason}): ${options.detail}`, { cause: options.cause });
    this.url = options.url;
    this.reason = options.reason;
    this.code = options.code;
  }
}
