/**
 * URL policy: allowed schemes, hostnames and (optionally) ports, applied to transport-normalised
 * requests. Normalisation is WHATWG URL parsing (lowercase scheme and host, punycode, default ports
 * elided), so spelling variants of one destination are judged as that destination. The application
 * owns DNS, proxies and network isolation; this judges destinations by name only.
 */
import { UsageError } from '../../core/index.js';
import { WebPolicyRefusal } from './errors.js';

export interface WebUrlPolicy {
  /** Allowed schemes, for example `['https']` (a trailing colon and case are ignored). */
  readonly schemes: readonly string[];
  /** Exact hostnames (normalised like URLs: case, punycode) or patterns tested against the normalised hostname. */
  readonly hostnames: readonly (string | RegExp)[];
  /** Allowed effective ports (after default-port resolution); any port when absent. */
  readonly ports?: readonly number[];
}

export type WebMethod = 'GET' | 'HEAD' | 'POST';

/** What the policy sees for each request a backend is about to send. */
export interface NormalizedWebRequest {
  /** The normalised URL (WHATWG `href`). */
  readonly url: string;
  /** Lowercase, without the colon. */
  readonly scheme: string;
  /** Lowercase ASCII (punycode), without a trailing dot; IPv6 in brackets. */
  readonly hostname: string;
  /** The effective port (default ports resolved). */
  readonly port: number;
  readonly method: WebMethod;
  /** 0 for the submitted request, n for the n-th redirect. */
  readonly hop: number;
}

export type WebPolicyDecision = { readonly kind: 'allow' } | { readonly kind: 'refuse'; readonly reason: WebPolicyRefusal; readonly detail: string };

/** The callback every WebFetchClient must apply to each request (including each redirect) before sending it. */
export type WebPolicyCallback = (request: NormalizedWebRequest) => WebPolicyDecision;

const DEFAULT_PORTS: Readonly<Record<string, number>> = { http: 80, https: 443, ws: 80, wss: 443, ftp: 21 };

/** Parses and normalises a URL; `undefined` when it is not an absolute URL. */
export function normalizeWebUrl(raw: string, base?: string): URL | undefined {
  try {
    return new URL(raw, base);
  } catch {
    return undefined;
  }
}

/** The policy's view of a parsed URL. */
export function describeWebRequest(url: URL, method: WebMethod, hop: number): NormalizedWebRequest {
  const scheme = url.protocol.replace(/:$/, '');
  const port = url.port ? Number(url.port) : (DEFAULT_PORTS[scheme] ?? 0);
  return Object.freeze({ url: url.href, scheme, hostname: url.hostname.replace(/\.$/, ''), port, method, hop });
}

function normalizeHostname(host: string): string {
  const url = normalizeWebUrl(`http://${host}/`);
  if (!url || url.hostname === '' || url.username || url.port || url.pathname !== '/') throw new UsageError(`Web policy hostname '${host}' is not a hostname.`);
  return url.hostname.replace(/\.$/, '');
}

/** Builds the policy callback. Invalid policy entries are a UsageError at definition time. */
export function webUrlPolicy(policy: WebUrlPolicy): WebPolicyCallback {
  const schemes = new Set(policy.schemes.map((s) => s.toLowerCase().replace(/:$/, '')));
  const exact = new Set<string>();
  const patterns: RegExp[] = [];
  for (const h of policy.hostnames) {
    // Stateless copies: a global or sticky flag would make `test` depend on the previous call.
    if (h instanceof RegExp) patterns.push(new RegExp(h.source, h.flags.replace(/[gy]/g, '')));
    else exact.add(normalizeHostname(h));
  }
  const ports = policy.ports ? new Set(policy.ports) : undefined;
  if (ports) for (const p of ports) if (!Number.isInteger(p) || p < 1 || p > 65_535) throw new UsageError(`Web policy port ${p} is not a TCP port.`);
  return (request) => {
    if (!schemes.has(request.scheme)) return refuse(WebPolicyRefusal.scheme, `scheme '${request.scheme}' is not allowed`);
    const url = new URL(request.url);
    if (url.username || url.password) return refuse(WebPolicyRefusal.credentials, 'URLs carrying credentials are not sent; use an authorization header');
    if (!exact.has(request.hostname) && !patterns.some((p) => p.test(request.hostname))) return refuse(WebPolicyRefusal.hostname, `host '${request.hostname}' is not allowed`);
    if (ports && !ports.has(request.port)) return refuse(WebPolicyRefusal.port, `port ${request.port} is not allowed`);
    return { kind: 'allow' };
  };
}

function refuse(reason: WebPolicyRefusal, detail: string): WebPolicyDecision {
  return { kind: 'refuse', reason, detail };
}
