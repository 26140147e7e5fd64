/**
 * Serves the built web notebook (web/dist). Paths are decoded once, dot segments refused, and the real path
 * must stay under the real static root; unknown extension-less paths fall back to index.html.
 * Caching: a built asset named after its content (`assets/name-HASH.ext`) never changes, so browsers keep it
 * for a year without asking again (and reuse the compiled code of its scripts); everything else (index.html,
 * which names the current assets) is revalidated on every load and answered 304 when unchanged.
 * The page (the root's index.html) is sent with a Content-Security-Policy allowing the inline scripts the build
 * named by hash beside it (csp.json); the API server sends the same policy without them with everything else.
 */
import { promises as fs } from 'node:fs';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import path from 'node:path';
import { pagePolicy, SCRIPT_HASHES_FILE } from './content-security.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
};

/** Vite's name for a built asset: its content hash (8 characters) before the extension. */
const HASHED_ASSET = /^assets\/[^/]+-[A-Za-z0-9_-]{8}\.[a-z0-9]+$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Nighthawk TS</title>
<p>The web notebook is not built (no web/dist). The Jupyter API is available under <code>/api</code>.</p>`;

export async function serveStatic(root: string | undefined, pathname: string, res: ServerResponse, requestHeaders: IncomingHttpHeaders = {}): Promise<void> {
  const notFound = (): void => {
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
  };
  const realRoot = root === undefined ? undefined : await fs.realpath(root).catch(() => undefined);
  if (realRoot === undefined) {
    if (pathname === '/' || pathname === '/index.html') res.writeHead(200, { 'Content-Type': TYPES['.html']! }).end(NOT_BUILT);
    else notFound();
    return;
  }
  let segments: string[];
  try {
    segments = pathname.split('/').filter(Boolean).map((s) => decodeURIComponent(s));
  } catch {
    return notFound();
  }
  if (segments.some((s) => s === '..' || s === '.' || s.includes('/') || s.includes('\\') || s.includes('\0'))) return notFound();
  let file = path.join(realRoot, ...segments);
  let stat = await fs.stat(file).catch(() => undefined);
  if (stat?.isDirectory()) {
    file = path.join(file, 'index.html');
    stat = await fs.stat(file).catch(() => undefined);
  }
  if (!stat && path.extname(file) === '') {
    file = path.join(realRoot, 'index.html');
    stat = await fs.stat(file).catch(() => undefined);
  }
  if (!stat?.isFile()) return notFound();
  const real = await fs.realpath(file);
  if (!real.startsWith(realRoot + path.sep)) return notFound();
  const type = TYPES[path.extname(real)] ?? 'application/octet-stream';
  const relative = path.relative(realRoot, real).split(path.sep).join('/');
  const etag = `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
  const headers: Record<string, string> = {
    'Content-Type': type,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': HASHED_ASSET.test(relative) ? IMMUTABLE : 'no-cache',
    ETag: etag,
  };
  if (relative === 'index.html') headers['Content-Security-Policy'] = pagePolicy(await readScriptHashes(realRoot));
  if (requestHeaders['if-none-match']?.split(',').some((tag) => tag.trim() === etag)) {
    res.writeHead(304, headers).end();
    return;
  }
  res.writeHead(200, { ...headers, 'Content-Length': stat.size });
  res.end(await fs.readFile(real));
}

/** The build's csp.json beside index.html, parsed; undefined when it is missing or not JSON (pagePolicy then allows no inline script). */
async function readScriptHashes(realRoot: string): Promise<unknown> {
  try {
    return JSON.parse(await fs.readFile(path.join(realRoot, SCRIPT_HASHES_FILE), 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}
