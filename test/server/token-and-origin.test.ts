import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { KernelAPI } from '@jupyterlab/services';
import { startServer } from '../../kernel/src/server/index.js';
import { clientSettings, startKernelServer, type KernelServerFixture } from '../support/kernel-server.js';

let fx: KernelServerFixture;
let kernelId: string;

beforeAll(async () => {
  fx = await startKernelServer({ spareKernels: 0 });
  const kernel = await fx.kernels.startNew();
  kernelId = kernel.id;
}, 60_000);

afterAll(async () => {
  await fx?.close();
});

/** Raw request so Host and Origin can be set freely. */
function get(pathname: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: fx.server.port, path: pathname, headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

function openSocket(query: string, headers: Record<string, string> = {}): Promise<'open' | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${fx.server.wsUrl}api/kernels/${kernelId}/channels${query}`, { headers });
    ws.on('open', () => {
      ws.close();
      resolve('open');
    });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => resolve(0));
  });
}

describe('token', () => {
  test('REST calls without the token, or with a wrong one, are refused with 403', async () => {
    expect(await get('/api/kernels', {})).toBe(403);
    expect(await get('/api/kernels?token=wrong', {})).toBe(403);
    expect(await get('/api/contents', { Authorization: 'token nope' })).toBe(403);
    expect(await get('/api/kernels', { Authorization: `token ${fx.server.token}` })).toBe(200);
    expect(await get(`/api/sessions?token=${fx.server.token}`, {})).toBe(200);
  });

  test('a WebSocket without the token is rejected', async () => {
    expect(await openSocket('')).toBe(403);
    expect(await openSocket('?token=wrong')).toBe(403);
    expect(await openSocket(`?token=${fx.server.token}`)).toBe('open');
  });

  test('the services client with a wrong token cannot start a kernel', async () => {
    const settings = clientSettings(fx.server, 'not-the-token');
    await expect(KernelAPI.startNew({ name: 'nighthawk' }, settings)).rejects.toThrow(/403|token/i);
    await expect(KernelAPI.listRunning(settings)).rejects.toThrow();
  });

  test('the start-up URL carries the token', () => {
    expect(fx.server.url).toBe(`${fx.server.baseUrl}?token=${fx.server.token}`);
    expect(fx.server.token).toMatch(/^[0-9a-f]{48}$/);
  });
});

describe('Host and Origin', () => {
  const auth = () => ({ Authorization: `token ${fx.server.token}` });

  test('a foreign Origin is refused on REST and WebSocket even with the token', async () => {
    expect(await get('/api/kernels', { ...auth(), Origin: 'http://evil.example' })).toBe(403);
    expect(await openSocket(`?token=${fx.server.token}`, { Origin: 'http://evil.example' })).toBe(403);
  });

  test('the same host and port as Origin is allowed', async () => {
    const origin = `http://127.0.0.1:${fx.server.port}`;
    expect(await get('/api/kernels', { ...auth(), Origin: origin })).toBe(200);
    expect(await openSocket(`?token=${fx.server.token}`, { Origin: origin })).toBe('open');
  });

  test('a foreign Host header (DNS rebinding) is refused', async () => {
    expect(await get('/api/kernels', { ...auth(), Host: `evil.example:${fx.server.port}` })).toBe(403);
  });
});

describe('Host and Origin by exact match (DNS rebinding)', () => {
  const auth = () => ({ Authorization: `token ${fx.server.token}` });
  const port = () => fx.server.port;

  test('a Host that merely starts with 127. is refused on REST and on the WebSocket upgrade', async () => {
    for (const host of [`127.evil.com:${port()}`, `127.0.0.1.nip.io:${port()}`, `localhost.evil.com:${port()}`, `127.0.0.2:${port()}`]) {
      expect(await get('/api/kernels', { ...auth(), Host: host }), host).toBe(403);
      expect(await openSocket(`?token=${fx.server.token}`, { Host: host }), host).toBe(403);
    }
  });

  test('an Origin that merely starts with 127. is refused on REST and on the WebSocket upgrade', async () => {
    for (const origin of [`http://127.0.0.1.nip.io:${port()}`, `http://127.evil.com:${port()}`, `http://localhost.evil.com:${port()}`]) {
      expect(await get('/api/kernels', { ...auth(), Origin: origin }), origin).toBe(403);
      expect(await openSocket(`?token=${fx.server.token}`, { Origin: origin }), origin).toBe(403);
    }
  });

  test('the loopback names are accepted as Host and Origin at this port, and refused at another port', async () => {
    for (const name of ['localhost', '127.0.0.1', '[::1]', 'LOCALHOST']) {
      expect(await get('/api/kernels', { ...auth(), Host: `${name}:${port()}` }), name).toBe(200);
      expect(await get('/api/kernels', { ...auth(), Origin: `http://${name}:${port()}` }), name).toBe(200);
      expect(await openSocket(`?token=${fx.server.token}`, { Host: `${name}:${port()}`, Origin: `http://${name}:${port()}` }), name).toBe('open');
    }
    expect(await get('/api/kernels', { ...auth(), Host: `localhost:${port() + 1}` })).toBe(403);
    expect(await get('/api/kernels', { ...auth(), Origin: `http://localhost:${port() + 1}` })).toBe(403);
    expect(await get('/api/kernels', { ...auth(), Origin: `null` })).toBe(403);
  });

  test('--allow-host and --allow-origin lists are matched exactly', async () => {
    const sandbox = mkdtempSync(path.join(tmpdir(), 'nighthawk-allow-'));
    const server = await startServer({ notebookDir: sandbox, port: 0, spareKernels: 0, log: () => {}, allowHosts: ['notebook.internal'], allowOrigins: ['http://localhost:5173'] });
    const other = { server };
    try {
      const at = (path: string, headers: Record<string, string>): Promise<number> =>
        new Promise((resolve, reject) => {
          const req = request({ host: '127.0.0.1', port: other.server.port, path, headers: { Authorization: `token ${other.server.token}`, ...headers } }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          });
          req.on('error', reject);
          req.end();
        });
      const p = other.server.port;
      expect(await at('/api/kernels', { Host: `notebook.internal:${p}` })).toBe(200);
      expect(await at('/api/kernels', { Host: `notebook.internal.evil.com:${p}` })).toBe(403);
      expect(await at('/api/kernels', { Host: `notebook.internal:${p}`, Origin: `http://notebook.internal:${p}` })).toBe(200);
      expect(await at('/api/kernels', { Origin: 'http://localhost:5173' })).toBe(200);
      expect(await at('/api/kernels', { Origin: 'http://localhost:51730' })).toBe(403);
      expect(await at('/api/kernels', { Origin: 'http://localhost:5173.evil.com' })).toBe(403);
    } finally {
      await server.close();
      rmSync(sandbox, { recursive: true, force: true });
    }
  });
});
