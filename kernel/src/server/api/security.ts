/**
 * Request checks shared by REST and WebSocket: the token (`Authorization: token …` or `?token=`), the Host
 * header (DNS-rebinding guard: exact names only) and the Origin header (an accepted name at this port, an
 * allowed origin, or none at all as with Node clients).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { hostname, networkInterfaces } from 'node:os';

export function generateToken(): string {
  return randomBytes(24).toString('hex');
}

export function tokenMatches(expected: string, req: IncomingMessage, query: URLSearchParams): boolean {
  const header = req.headers.authorization;
  let given: string | undefined;
  if (typeof header === 'string') {
    const match = /^(?:token|bearer)\s+(\S+)$/i.exec(header.trim());
    if (match) given = match[1];
  }
  given ??= query.get('token') ?? undefined;
  if (given === undefined) return false;
  // Compared as digests of equal length, so the time taken says nothing about the token's length either.
  const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** Names that always mean this machine. Matched exactly: `127.evil.com` is a DNS name, not loopback. */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];
const WILDCARD_BINDS = new Set(['0.0.0.0', '::', '[::]', '']);

export interface OriginPolicy {
  bindHost: string;
  port: () => number;
  /** Browser origins allowed besides this server's own (exact `scheme://host[:port]` strings). */
  allowOrigins: readonly string[];
  /** Extra Host names accepted (exact, case-insensitive; `name` or `name:port`). */
  allowHosts?: readonly string[];
}

function bracket(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * The host names a request may address: loopback names, the bound address, the `--allow-host` list and,
 * when bound to every interface, this machine's interface addresses and host name. Everything is an exact
 * (lower-case) match so no prefix or suffix trick passes.
 */
export function acceptedHostNames(policy: OriginPolicy): Set<string> {
  const names = new Set<string>(LOOPBACK_NAMES);
  const bind = policy.bindHost.toLowerCase();
  if (WILDCARD_BINDS.has(bind)) {
    for (const list of Object.values(networkInterfaces())) {
      for (const entry of list ?? []) names.add(bracket(entry.address.toLowerCase()));
    }
    names.add(hostname().toLowerCase());
  } else {
    names.add(bracket(bind));
  }
  for (const extra of policy.allowHosts ?? []) names.add(extra.toLowerCase());
  return names;
}

/** Splits a Host header value into a lower-case name (IPv6 kept in brackets) and an optional port. */
function parseHost(value: string): { name: string; port: number | undefined } | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]/\s@]+)(?::(\d{1,5}))?$/i.exec(value.trim());
  if (!match) return undefined;
  return { name: match[1]!.toLowerCase(), port: match[2] === undefined ? undefined : Number(match[2]) };
}

/** Builds the checker once (interface addresses are read at start, not per request). */
export function hostAndOriginChecker(policy: OriginPolicy): (req: IncomingMessage) => string | undefined {
  const names = acceptedHostNames(policy);
  const allowOrigins = new Set(policy.allowOrigins);
  const nameAccepted = (name: string, port: number | undefined): boolean =>
    names.has(name) || (port !== undefined && names.has(`${name}:${port}`));
  return (req) => {
    const host = req.headers.host;
    if (typeof host !== 'string') return 'missing Host header';
    const shown = host.slice(0, 100);
    const parsed = parseHost(host);
    if (!parsed) return `Host '${shown}' is malformed`;
    const port = policy.port();
    if (!nameAccepted(parsed.name, parsed.port)) return `Host '${shown}' is not this server (use --allow-host to add a name)`;
    // A Host without a port came through a proxy on a default port; its name was matched exactly above.
    if (parsed.port !== undefined && parsed.port !== port && !names.has(`${parsed.name}:${parsed.port}`)) {
      return `Host '${shown}' is not this server`;
    }
    const origin = req.headers.origin;
    if (origin === undefined) return undefined;
    if (allowOrigins.has(origin)) return undefined;
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return `Origin '${origin.slice(0, 100)}' is not allowed`;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return `Origin '${origin.slice(0, 100)}' is not allowed`;
    const originName = url.hostname.toLowerCase();
    const originPort = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    // The page's own address (Host already checked), e.g. behind a proxy on another port.
    if (url.host.toLowerCase() === host.trim().toLowerCase()) return undefined;
    if (nameAccepted(originName, originPort) && (originPort === port || names.has(`${originName}:${originPort}`))) return undefined;
    return `Origin '${origin.slice(0, 100)}' is not allowed (use --allow-origin to add one)`;
  };
}
