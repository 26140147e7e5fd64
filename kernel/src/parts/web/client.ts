/**
 * The WebFetchClient contract and the default backend over node:http/https. Redirects are followed
 * by hand so the policy callback judges every hop before anything is sent to it; a redirect response
 * is destroyed without reading its body. Each request uses its own connection (no agent pool), so
 * every connection is opened inside the capability's gateway allowance.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isNighthawkError } from '../../core/index.js';
import { WebFetchFailedError, WebPolicyRefusedError, WebRedirectLimitError } from './errors.js';
import { describeWebRequest, normalizeWebUrl, type NormalizedWebRequest, type WebAddressCallback, type WebMethod, type WebPolicyCallback } from './policy.js';

export interface WebClientRequest {
  /** Normalised absolute URL. */
  readonly url: string;
  readonly method: WebMethod;
  /** Lowercase header names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

export interface WebClientOptions {
  /** Must be applied to every request, including each redirect hop, before it is sent. */
  readonly policy: WebPolicyCallback;
  /**
   * Must be applied to every address a hop's hostname resolves to, before connecting: the policy judged the
   * name, this judges where the name leads (a public-looking name may resolve to loopback or a metadata address).
   */
  readonly address?: WebAddressCallback;
  readonly maxBytes: number;
  readonly maxRedirects: number;
  /** Response headers to report (lowercase). */
  readonly responseHeaders: readonly string[];
  readonly signal: AbortSignal;
  /**
   * Host-held credentials for one hop, asked for after the policy allowed it and never carried to the
   * next hop; they reach neither the model nor the ledger (the request arguments do).
   */
  readonly credentialsFor?: (request: NormalizedWebRequest) => Readonly<Record<string, string>> | undefined;
}

export interface WebFetchResult {
  readonly status: number;
  /** The final URL after redirects. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** UTF-8 text, at most maxBytes bytes of the body. */
  readonly body: string;
  readonly truncated: boolean;
  readonly redirects: number;
}

/**
 * A trusted web backend. It owns the policy callback contract: every transport-normalised request,
 * including redirects and authentication hops, is judged before it is sent, and redirect responses
 * are closed without consuming their bodies.
 */
export interface WebFetchClient {
  fetch(request: WebClientRequest, options: WebClientOptions): Promise<WebFetchResult>;
}

const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** Headers that carry credentials: dropped when a redirect leaves the origin. */
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie'] as const;

export class NodeWebFetchClient implements WebFetchClient {
  async fetch(request: WebClientRequest, options: WebClientOptions): Promise<WebFetchResult> {
    let url = normalizeWebUrl(request.url);
    if (!url) throw new WebFetchFailedError({ url: request.url, reason: 'invalid-redirect', detail: 'not an absolute URL' });
    let method = request.method;
    let body = request.body;
    let headers: Record<string, string> = { ...request.headers };
    for (let hop = 0; ; hop++) {
      const described = describeWebRequest(url, method, hop);
      const decision = options.policy(described);
      if (decision.kind === 'refuse') throw new WebPolicyRefusedError({ url: url.href, hop, reason: decision.reason, detail: decision.detail });
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new WebFetchFailedError({ url: url.href, reason: 'unsupported-scheme', detail: `this client speaks http and https, not ${url.protocol}` });
      }
      const credentials = options.credentialsFor?.(described);
      const lookup = options.address ? checkedLookup(url, hop, described.hostname, options.address) : undefined;
      const response = await send(url, method, credentials ? { ...headers, ...lowercase(credentials) } : headers, body, options.signal, lookup);
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (!REDIRECTS.has(status) || typeof location !== 'string') return await readResult(response, url, hop, method, options);
      response.destroy(); // closed unread
      if (hop >= options.maxRedirects) throw new WebRedirectLimitError({ url: request.url, maxRedirects: options.maxRedirects });
      const next = normalizeWebUrl(location, url.href);
      if (!next) throw new WebFetchFailedError({ url: url.href, reason: 'invalid-redirect', detail: `unusable Location '${location.slice(0, 200)}'` });
      if (status === 303 ? method !== 'HEAD' : (status === 301 || status === 302) && method === 'POST') {
        method = 'GET';
        body = undefined;
        headers = withoutHeaders(headers, ['content-type']);
      }
      if (next.origin !== url.origin) headers = withoutHeaders(headers, CREDENTIAL_HEADERS);
      url = next;
    }
  }
}
Object.freeze(NodeWebFetchClient.prototype); // shared by every run in the process: model code replaces no method

function lowercase(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

function withoutHeaders(headers: Readonly<Record<string, string>>, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !names.includes(k)));
}

/**
 * A lookup that judges every resolved address before the socket may use one. The connection then goes to the
 * address judged here (no second resolution), so a name that re-resolves differently later changes nothing.
 */
function checkedLookup(url: URL, hop: number, hostname: string, check: WebAddressCallback): LookupFunction {
  return (name, options, callback) => {
    dns.lookup(name, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      for (const { address } of addresses) {
        const decision = check(hostname, address);
        if (decision.kind === 'refuse') {
          const refused = new WebPolicyRefusedError({ url: url.href, hop, reason: decision.reason, detail: decision.detail });
          return callback(refused as unknown as NodeJS.ErrnoException, '', 0);
        }
      }
      const first = addresses[0];
      if (options.all) callback(null, addresses);
      else if (first) callback(null, first.address, first.family);
      else callback(Object.assign(new Error(`no address for ${name}`), { code: 'ENOTFOUND' }), '', 0);
    });
  };
}

function send(url: URL, method: WebMethod, headers: Readonly<Record<string, string>>, body: string | undefined, signal: AbortSignal, lookup?: LookupFunction): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(failure(url, signal.reason, signal));
    const outgoing: Record<string, string | number> = { ...headers };
    if (body !== undefined) outgoing['content-length'] = Buffer.byteLength(body);
    const transport = url.protocol === 'https:' ? https : http;
    let request: http.ClientRequest;
    try {
      request = transport.request(url, { method, headers: outgoing, agent: false, signal, ...(lookup ? { lookup } : {}) }, resolve);
    } catch (error) {
      // A host refusal (the effect audit outside a gateway allowance) is not a transport failure.
      return reject(isNighthawkError(error) ? error : failure(url, error, signal));
    }
    // A resolved address the policy refused is a refusal, not a transport failure.
    request.on('error', (error) => reject(error instanceof WebPolicyRefusedError ? error : failure(url, error, signal)));
    request.end(body);
  });
}

async function readResult(response: http.IncomingMessage, url: URL, hop: number, method: WebMethod, options: WebClientOptions): Promise<WebFetchResult> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    if (method !== 'HEAD') {
      for await (const chunk of response as AsyncIterable<Buffer>) {
        if (size + chunk.length > options.maxBytes) {
          chunks.push(chunk.subarray(0, options.maxBytes - size));
          truncated = true;
          break; // leaving the loop destroys the stream: the rest is never read
        }
        chunks.push(chunk);
        size += chunk.length;
      }
    }
  } catch (error) {
    throw failure(url, error, options.signal);
  } finally {
    response.destroy();
  }
  const headers: Record<string, string> = {};
  for (const name of options.responseHeaders) {
    const value = response.headers[name];
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return Object.freeze({
    status: response.statusCode ?? 0,
    url: url.href,
    headers: Object.freeze(headers),
    body: new TextDecoder('utf-8').decode(Buffer.concat(chunks)),
    truncated,
    redirects: hop,
  });
}

function failure(url: URL, error: unknown, signal: AbortSignal): WebFetchFailedError {
  const code = typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : undefined;
  const message = error instanceof Error ? error.message : String(error);
  if (signal.aborted) {
    const timedOut = signal.reason instanceof DOMException && signal.reason.name === 'TimeoutError';
    return new WebFetchFailedError({ url: url.href, reason: timedOut ? 'timeout' : 'aborted', detail: timedOut ? 'the request timed out' : 'the request was cancelled', ...(code ? { code } : {}), cause: error });
  }
  return new WebFetchFailedError({ url: url.href, reason: 'network', detail: message, ...(code ? { code } : {}), cause: error });
}
