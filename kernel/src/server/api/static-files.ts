/**
 * Serves the built web notebook (web/dist). Paths are decoded once, dot segments refused, and the real path
 * must stay under the real static root; unknown extension-less paths fall back to index.html.
 */
import { promises as fs } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';

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

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Nighthawk TS</title>
<p>The web notebook is not built (no web/dist). The Jupyter API is available under <code>/api</code>.</p>`;

export async function serveStatic(root: string | undefined, pathname: string, res: ServerResponse): Promise<void> {
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
  res.writeHead(200, { 'Content-Type': type, 'Content-Length': stat.size, 'X-Content-Type-Options': 'nosniff' });
  res.end(await fs.readFile(real));
}
