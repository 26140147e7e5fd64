/**
 * URL policy: allowed schemes, hostnames and (optionally) ports, applied to transport-normalised
 * requests. Normalisation is WHATWG URL parsing (lowercase scheme and host, punycode, default ports
 * elided), so spelling variants of one destination are judged as that destination. A hostname pattern never
 * admits a non-public address (loopback, private, link-local, metadata, …), neither as an IP literal nor as the
 * address a name resolves to (`WebAddressCallback`, applied by the client to the address it connects to): a
 * pattern written for "hosts on the web" must not reach the host's own network. Only an exact entry does.
 */
import { BlockList, isIPv4, isIPv6 } from 'node:net';
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

/**
 * Judges an address a request's hostname resolved to, before connecting to it. The client applies it to every
 * address the lookup returned, so a name cannot smuggle a non-public address past a hostname pattern.
 */
export type WebAddressCallback = (hostname: string, address: string) => WebPolicyDecision;

// Ranges that are not the public internet (IANA special-purpose registries). IPv4-mapped IPv6 addresses are
// checked against the IPv4 rules by BlockList itself.
const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
  ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) NON_PUBLIC.addSubnet(network, prefix, 'ipv6');

/** True for an IP address (IPv6 with or without brackets) outside the public internet; false for names and public addresses. */
export function isNonPublicAddress(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIPv4(bare)) return NON_PUBLIC.check(bare, 'ipv4');
  if (isIPv6(bare)) return NON_PUBLIC.check(bare, 'ipv6');
  return false;
}

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
    if (!exact.has(request.hostname) && isNonPublicAddress(request.hostname)) return privateRefusal(request.hostname);
    return { kind: 'allow' };
  };
}

/** The address check of the same policy: a non-public address only for a hostname the policy names exactly. */
export function webAddressPolicy(policy: WebUrlPolicy): WebAddressCallback {
  const exact = new Set(policy.hostnames.filter((h): h is string => typeof h === 'string').map(normalizeHostname));
  return (hostname, address) => (!exact.has(hostname) && isNonPublicAddress(address) ? privateRefusal(`${hostname} (${address})`) : { kind: 'allow' });
}

function privateRefusal(what: string): WebPolicyDecision {
  return refuse(WebPolicyRefusal.privateAddress, `${what} is not a public address; only a hostname the policy names exactly may reach one`);
}

function refuse(reason: WebPolicyRefusal, detail: string): WebPolicyDecision {
  return { kind: 'refuse', reason, detail };
}
