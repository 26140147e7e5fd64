import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type NighthawkServer } from '../../kernel/src/server/index.js';

let root: string;
let server: NighthawkServer;

/** Raw GET so the path reaches the server exactly as written (fetch would normalise `..`). */
function get(rawPath: string): Promise<{ status: number; body: string }> {
  return getWithHeaders(rawPath).then(({ status, body }) => ({ status, body }));
}

function getWithHeaders(rawPath: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path: rawPath, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'nighthawk-static-'));
  const web = path.join(root, 'web-dist');
  mkdirSync(path.join(web, 'assets'), { recursive: true });
  writeFileSync(path.join(web, 'index.html'), '<title>notebook</title>');
  writeFileSync(path.join(web, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(path.join(web, 'assets', 'index-C6M6Cj_Z.js'), 'console.log(2)');
  writeFileSync(path.join(root, 'secret.txt'), 'outside');
  symlinkSync(path.join(root, 'secret.txt'), path.join(web, 'assets', 'leak.js'));
  server = await startServer({ notebookDir: path.join(root, 'nb'), staticDir: web, port: 0, spareKernels: 0, log: () => {} });
});

afterAll(async () => {
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('static web notebook files', () => {
  test('the built web app is served at / and its assets by path, without a token', async () => {
    expect(await get('/')).toEqual({ status: 200, body: '<title>notebook</title>' });
    expect((await get('/assets/app.js')).body).toBe('console.log(1)');
    expect((await get('/some/client/route')).body).toBe('<title>notebook</title>');
  });

  test('an asset named after its content is kept for a year; every other file is revalidated', async () => {
    const hashed = await getWithHeaders('/assets/index-C6M6Cj_Z.js');
    expect(hashed.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const p of ['/', '/index.html', '/assets/app.js', '/some/client/route']) {
      expect((await getWithHeaders(p)).headers['cache-control'], p).toBe('no-cache');
    }
  });

  test('a revalidation of an unchanged file is answered 304 without a body; a changed file is sent again', async () => {
    const first = await getWithHeaders('/');
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await getWithHeaders('/', { 'If-None-Match': etag });
    expect(again).toMatchObject({ status: 304, body: '' });
    expect(again.headers.etag).toBe(etag);
    const index = path.join(root, 'web-dist', 'index.html');
    writeFileSync(index, '<title>notebook v2</title>');
    utimesSync(index, new Date(), new Date(Date.now() + 5_000));
    const changed = await getWithHeaders('/', { 'If-None-Match': etag });
    expect(changed).toMatchObject({ status: 200, body: '<title>notebook v2</title>' });
    expect(changed.headers.etag).not.toBe(etag);
    writeFileSync(index, '<title>notebook</title>');
  });

  test('no path reaches a file outside the static directory', async () => {
    for (const p of ['/../secret.txt', '/assets/../../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/assets/leak.js', '/%2e%2e%5csecret.txt', `/${encodeURIComponent(path.join(root, 'secret.txt'))}`]) {
      const response = await get(p);
      expect(response.body, p).not.toContain('outside');
    }
  });

  test('without a built web app the root explains that the UI is not built', async () => {
    const bare = await startServer({ notebookDir: path.join(root, 'nb2'), staticDir: path.join(root, 'missing'), port: 0, spareKernels: 0, log: () => {} });
    try {
      const response = await fetch(bare.baseUrl);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('not built');
    } finally {
      await bare.close();
    }
  });
});

describe('the page\'s Content-Security-Policy', () => {
  const scriptSrc = (csp: string | string[] | undefined): string => String(csp).split(';').map((d) => d.trim()).find((d) => d.startsWith('script-src')) ?? '';
  const hash = `sha256-${'A'.repeat(42)}E=`;
  async function withHashesFile(content: string | undefined, check: () => Promise<void>): Promise<void> {
    const file = path.join(root, 'web-dist', 'csp.json');
    if (content === undefined) rmSync(file, { force: true });
    else writeFileSync(file, content);
    try {
      await check();
    } finally {
      rmSync(file, { force: true });
    }
  }

  test('index.html (also as the fallback of a client route) allows exactly the inline scripts csp.json names; nothing else of the API or the assets does', async () => {
    await withHashesFile(JSON.stringify({ scriptHashes: [hash] }), async () => {
      for (const p of ['/', '/index.html', '/some/client/route']) {
        expect(scriptSrc((await getWithHeaders(p)).headers['content-security-policy']), p).toBe(`script-src 'self' '${hash}'`);
      }
      for (const p of ['/assets/app.js', '/api/status', '/csp.json']) {
        expect(scriptSrc((await getWithHeaders(p)).headers['content-security-policy']), p).toBe("script-src 'self'");
      }
    });
  });

  test('a csp.json that is missing, not JSON, or names anything but SHA-256 hashes allows no inline script', async () => {
    const hostile = [
      undefined,
      'not json',
      JSON.stringify({ scriptHashes: "'unsafe-inline'" }),
      JSON.stringify({ scriptHashes: ["'unsafe-inline'"] }),
      JSON.stringify({ scriptHashes: [hash, "'unsafe-eval'"] }),
      JSON.stringify({ scriptHashes: [`${hash}; script-src *`] }),
      JSON.stringify({ scriptHashes: [`sha384-${'A'.repeat(64)}`] }),
      JSON.stringify({ scriptHashes: [`${hash} https://evil.example`] }),
      JSON.stringify([hash]),
    ];
    for (const content of hostile) {
      await withHashesFile(content, async () => {
        const headers = (await getWithHeaders('/')).headers;
        expect(scriptSrc(headers['content-security-policy']), String(content)).toBe("script-src 'self'");
        expect(String(headers['content-security-policy'])).not.toMatch(/unsafe-eval|evil|\*/);
      });
    }
  });
});
