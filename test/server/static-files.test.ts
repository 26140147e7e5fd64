import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type NighthawkServer } from '../../kernel/src/server/index.js';

let root: string;
let server: NighthawkServer;

/** Raw GET so the path reaches the server exactly as written (fetch would normalise `..`). */
function get(rawPath: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path: rawPath }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
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
