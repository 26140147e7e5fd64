/**
 * The Content-Security-Policy sent with every response. The page runs only its own scripts (no eval, and no
 * inline script but the one its build names by hash), talks only to this origin (REST and WebSocket), and cannot
 * be framed; Monaco needs inline styles and a worker from this origin. A script that slipped past the output
 * sanitizer would still not run.
 */
const directives = (scriptSources: readonly string[]): string =>
  [
    "default-src 'self'",
    `script-src ${["'self'", ...scriptSources].join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');

export const CONTENT_SECURITY_POLICY = directives([]);

/** What the web build writes beside index.html: the hashes of the inline scripts index.html carries (vite.config.ts). */
export const SCRIPT_HASHES_FILE = 'csp.json';

/** A CSP hash source for SHA-256, as browsers compare it: 32 bytes in padded base64. */
const SHA256_SOURCE = /^sha256-[A-Za-z0-9+/]{43}=$/;

/**
 * The policy for the web notebook's page: the base policy with `script-src` allowing exactly the inline scripts
 * `scriptHashesFile` names. Anything else in that file (not a list of SHA-256 sources) allows none.
 */
export function pagePolicy(scriptHashesFile: unknown): string {
  const hashes = (scriptHashesFile as { scriptHashes?: unknown } | null)?.scriptHashes;
  if (!Array.isArray(hashes) || !hashes.every((h): h is string => typeof h === 'string' && SHA256_SOURCE.test(h))) return CONTENT_SECURITY_POLICY;
  return directives(hashes.map((h) => `'${h}'`));
}
