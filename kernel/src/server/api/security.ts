/**
 * Request checks shared by REST and WebSocket: the token (`Authorization: token …` or `?token=`), the Host
 * header (DNS-rebinding guard when bound to loopback) and the Origin header (same host:port, an allowed
 * origin, or none at all as with Node clients).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

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
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || host.startsWith('127.');
}

export interface OriginPolicy {
  bindHost: string;
  port: () => number;
  allowOrigins: readonly string[];
}

/** Why the request is refused, or undefined when Host and Origin are acceptable. */
export function checkHostAndOrigin(req: IncomingMessage, policy: OriginPolicy): string | undefined {
  const host = req.headers.host;
  if (typeof host !== 'string') return 'missing Host header';
  const port = policy.port();
  if (isLoopback(policy.bindHost)) {
    const hostname = host.replace(/:\d+$/, '');
    const hostPort = /:(\d+)$/.exec(host)?.[1];
    if (!isLoopback(hostname) && hostname !== policy.bindHost) return `Host '${host.slice(0, 100)}' is not this server`;
    if (hostPort !== undefined && Number(hostPort) !== port) return `Host '${host.slice(0, 100)}' is not this server`;
  }
  const origin = req.headers.origin;
  if (origin === undefined) return undefined;
  if (policy.allowOrigins.includes(origin)) return undefined;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return 'malformed Origin header';
  }
  const originPort = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if ((url.protocol === 'http:' || url.protocol === 'https:') && url.host === host) return undefined;
  if (url.protocol === 'http:' && isLoopback(url.hostname) && originPort === port && isLoopback(host.replace(/:\d+$/, ''))) return undefined;
  return `Origin '${origin.slice(0, 100)}' is not allowed`;
}
