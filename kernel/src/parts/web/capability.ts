/**
 * The web fetch capability: a perimeter capability (egress footprint), so the host gateway checks the
 * grant, the request type and the effective policy and records a durable attempt before the body runs;
 * the body runs under the gateway allowance, the only place its connections are permitted. The URL
 * policy judges the submitted request here and every hop again inside the client.
 */
import { z } from 'zod';
import { isNighthawkError, reportRefusal, UsageError } from '../../core/index.js';
import { defineCapability, type Capability } from '../../harness/index.js';
import { NodeWebFetchClient, type WebFetchClient, type WebFetchResult } from './client.js';
import { WebPolicyRefusal, WebPolicyRefusedError } from './errors.js';
import { describeWebRequest, normalizeWebUrl, webAddressPolicy, webUrlPolicy, type NormalizedWebRequest, type WebMethod, type WebUrlPolicy } from './policy.js';

/** Request headers the transport owns: setting them could redirect a request past the policy (host) or desynchronise framing. */
const TRANSPORT_HEADERS: ReadonlySet<string> = new Set([
  'host', 'connection', 'content-length', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'keep-alive', 'expect', 'proxy-connection',
]);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export const webFetchRequestSchema = z
  .object({
    url: z.string().min(1).max(8_192),
    method: z.enum(['GET', 'HEAD', 'POST']).optional(),
    headers: z
      .record(z.string(), z.string().max(8_192))
      .optional()
      .refine((h) => !h || Object.keys(h).every((k) => TOKEN.test(k) && !TRANSPORT_HEADERS.has(k.toLowerCase())), { message: 'header names must be tokens and not transport headers (host, connection, content-length, …)' })
      .refine((h) => !h || Object.values(h).every((v) => !/[\r\n\0]/.test(v)), { message: 'header values must not contain CR, LF or NUL' }),
    body: z.string().max(1_048_576).optional(),
  })
  .refine((r) => r.body === undefined || r.method === 'POST', { message: 'only POST requests carry a body', path: ['body'] });

export type WebFetchRequest = z.infer<typeof webFetchRequestSchema>;

export const DEFAULT_RESPONSE_HEADERS: readonly string[] = Object.freeze(['content-type', 'content-length', 'content-language', 'last-modified', 'etag', 'cache-control']);

export interface WebFetchCapabilityOptions {
  readonly policy: WebUrlPolicy;
  /** The trusted backend; it must apply the policy callback to every hop. Default: NodeWebFetchClient. */
  readonly client?: WebFetchClient;
  /** Response body bound in bytes (default 256 KiB); a longer body is cut and `truncated` is true. */
  readonly maxBytes?: number;
  /** Whole-fetch timeout including redirects (default 30 s). */
  readonly timeoutMs?: number;
  /** Default 5. */
  readonly maxRedirects?: number;
  /** Capability name (default `web_fetch`). */
  readonly name?: string;
  readonly responseHeaders?: readonly string[];
  /**
   * Credentials the host attaches to a hop the policy allowed (for example by origin). Secrets given
   * here stay out of the model's request and so out of the ledger and the audit record.
   */
  readonly credentialsFor?: (request: NormalizedWebRequest) => Readonly<Record<string, string>> | undefined;
}

export const WEB_FETCH_SIGNATURE =
  '(request: { url: string; method?: "GET" | "HEAD" | "POST"; headers?: Record<string, string>; body?: string }) => Promise<{ status: number; url: string; headers: Record<string, string>; body: string; truncated: boolean; redirects: number }>';

export function webFetchCapability(options: WebFetchCapabilityOptions): Capability<WebFetchRequest, WebFetchResult> {
  const policy = webUrlPolicy(options.policy);
  const address = webAddressPolicy(options.policy);
  const client = options.client ?? new NodeWebFetchClient();
  const maxBytes = positiveInteger(options.maxBytes ?? 262_144, 'maxBytes');
  const timeoutMs = positiveInteger(options.timeoutMs ?? 30_000, 'timeoutMs');
  const maxRedirects = options.maxRedirects ?? 5;
  if (!Number.isInteger(maxRedirects) || maxRedirects < 0) throw new UsageError('webFetchCapability(): maxRedirects must be a non-negative integer.');
  const responseHeaders = Object.freeze((options.responseHeaders ?? DEFAULT_RESPONSE_HEADERS).map((h) => h.toLowerCase()));
  const name = options.name ?? 'web_fetch';
  return defineCapability({
    name,
    description: 'Fetch a URL over HTTP(S) with GET, HEAD or POST and return { status, url, headers, body, truncated }. Only destinations the host policy allows are contacted, redirects included; the body is text and bounded.',
    request: webFetchRequestSchema,
    footprint: ['egress'],
    signature: WEB_FETCH_SIGNATURE,
    run: async (args, context) => {
      try {
        return await fetchChecked(args, context.signal);
      } catch (error) {
        // A refused destination is an attempt the operator reviews, not only a failed call (every hop, redirects included).
        if (isNighthawkError(error) && error.kind === 'web-policy-refused') reportRefusal('web_policy_refused', { capability: name, ...refusalFacts(error as WebPolicyRefusedError) });
        throw error;
      }
    },
  });

  async function fetchChecked(args: WebFetchRequest, runSignal: AbortSignal): Promise<WebFetchResult> {
    const method: WebMethod = args.method ?? 'GET';
    const url = normalizeWebUrl(args.url);
    if (!url) throw new WebPolicyRefusedError({ url: args.url.slice(0, 200), hop: 0, reason: WebPolicyRefusal.invalidUrl, detail: 'not an absolute URL' });
    // Judged here as well as in the client, so a backend that forgot the first hop still sends nothing refused.
    const decision = policy(describeWebRequest(url, method, 0));
    if (decision.kind === 'refuse') throw new WebPolicyRefusedError({ url: url.href, hop: 0, reason: decision.reason, detail: decision.detail });
    const headers = Object.fromEntries(Object.entries(args.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    const signal = AbortSignal.any([runSignal, AbortSignal.timeout(timeoutMs)]);
    return await client.fetch(
      { url: url.href, method, headers, ...(args.body !== undefined ? { body: args.body } : {}) },
      { policy, address, maxBytes, maxRedirects, responseHeaders, signal, ...(options.credentialsFor ? { credentialsFor: options.credentialsFor } : {}) },
    );
  }
}

/** The hop, the reason and the destination's scheme and host; not its path or query (a redirect may carry a token there). */
function refusalFacts(error: WebPolicyRefusedError): Record<string, string | number> {
  const facts: Record<string, string | number> = { hop: typeof error.hop === 'number' ? error.hop : -1, reason: String(error.reason) };
  const url = typeof error.url === 'string' ? normalizeWebUrl(error.url) : undefined;
  if (url) Object.assign(facts, { scheme: url.protocol.replace(/:$/, ''), host: url.hostname });
  return facts;
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`webFetchCapability(): ${name} must be a positive integer.`);
  return value;
}
