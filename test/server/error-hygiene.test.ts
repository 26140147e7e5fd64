import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { emptyNotebook } from '../../shared/index.js';
import { rateLimitedLog } from '../../kernel/src/server/kernel/index.js';
import { startKernelServer, type KernelServerFixture } from '../support/kernel-server.js';

let fx: KernelServerFixture;
const logged: string[] = [];

beforeAll(async () => {
  fx = await startKernelServer({ spareKernels: 0, maxBodyBytes: 1024 * 1024, log: (line) => logged.push(line) });
}, 60_000);

afterAll(async () => {
  await fx?.close();
});

const json = { 'Content-Type': 'application/json' };

async function call(method: string, url: string, body?: string, headers: Record<string, string> = json): Promise<{ status: number; text: string }> {
  const response = await fetch(fx.server.baseUrl + url, { method, headers: { Authorization: `token ${fx.server.token}`, ...headers }, body });
  return { status: response.status, text: await response.text() };
}

/** JSON text of an object nested `depth` levels (built as text: JSON.stringify itself would overflow). */
function nested(depth: number): string {
  return '{"a":'.repeat(depth) + '"bottom"' + '}'.repeat(depth);
}

describe('error responses', () => {
  test('file system failures answer without absolute server paths', async () => {
    writeFileSync(path.join(fx.notebookDir, 'plain.ipynb'), JSON.stringify(emptyNotebook()));
    const attempts = [
      await call('PATCH', 'api/contents/plain.ipynb', JSON.stringify({ path: 'plain.ipynb/inside.ipynb' })),
      await call('PUT', 'api/contents/plain.ipynb/folder', JSON.stringify({ type: 'directory' })),
      await call('PUT', 'api/contents/plain.ipynb/n.ipynb', JSON.stringify({ type: 'notebook', content: emptyNotebook() })),
    ];
    for (const attempt of attempts) {
      expect(attempt.status).toBeGreaterThanOrEqual(400);
      expect(attempt.text).not.toContain(fx.sandbox);
      expect(attempt.text).not.toMatch(/\/(tmp|root|home|work)\//);
    }
  });

  test('a notebook nested 5,000 levels deep is refused with 400, and the server keeps working', async () => {
    const notebook = `{"nbformat":4,"nbformat_minor":5,"metadata":${nested(5_000)},"cells":[]}`;
    const save = await call('PUT', 'api/contents/deep.ipynb', `{"type":"notebook","content":${notebook}}`);
    expect(save.status).toBe(400);
    expect(save.text).toMatch(/nested/i);
    const session = await call('POST', 'api/sessions', `{"path":"x.ipynb","type":"notebook","name":"","kernel":${nested(5_000)}}`);
    expect(session.status).toBe(400);
    writeFileSync(path.join(fx.notebookDir, 'deep-on-disk.ipynb'), notebook);
    const read = await call('GET', 'api/contents/deep-on-disk.ipynb');
    expect(read.status).toBeGreaterThanOrEqual(400);
    expect(read.status).toBeLessThan(500);
    expect((await call('GET', 'api/contents')).status).toBe(200);
  });

  test('a body over the limit is refused with 413', async () => {
    const big = await call('PUT', 'api/contents/big.ipynb', JSON.stringify({ type: 'notebook', content: { ...emptyNotebook(), metadata: { x: 'y'.repeat(2 * 1024 * 1024) } } }));
    expect(big.status).toBe(413);
  });
});

describe('Content-Type on state-changing requests', () => {
  test('POST, PUT and PATCH without Content-Type: application/json are refused with 415', async () => {
    const body = JSON.stringify({ type: 'notebook', content: emptyNotebook() });
    expect((await call('PUT', 'api/contents/ct.ipynb', body, { 'Content-Type': 'text/plain;charset=UTF-8' })).status).toBe(415);
    expect((await call('PUT', 'api/contents/ct.ipynb', body, { 'Content-Type': 'application/x-www-form-urlencoded' })).status).toBe(415);
    expect((await call('POST', 'api/sessions', JSON.stringify({ path: 'a.ipynb', type: 'notebook', name: '' }), { 'Content-Type': 'multipart/form-data; boundary=x' })).status).toBe(415);
    expect((await call('POST', 'api/contents', '{}', {})).status).toBe(415);
    expect((await call('PATCH', 'api/contents/ct.ipynb', '{"path":"b.ipynb"}', { 'Content-Type': 'text/plain' })).status).toBe(415);
    expect((await call('PUT', 'api/contents/ct.ipynb', body, { 'Content-Type': 'application/json; charset=utf-8' })).status).toBe(201);
    expect((await call('PUT', 'api/contents/ct.ipynb', body)).status).toBe(200);
  });
});

describe('log lines', () => {
  test('repeated similar lines are printed a few times per window, then counted', () => {
    let now = 0;
    const lines: string[] = [];
    const log = rateLimitedLog((line) => lines.push(line), { windowMs: 1_000, burst: 3, now: () => now });
    for (let i = 0; i < 1_000; i++) log(`kernel k1: dropped frame (${i} bytes exceeds 64)`);
    log('another kind of line');
    expect(lines).toHaveLength(4);
    now = 1_500;
    log('kernel k1: dropped frame (5 bytes exceeds 64)');
    expect(lines[4]).toMatch(/dropped frame .*\[and 997 similar lines suppressed/);
    expect(lines[5]).toBe('kernel k1: dropped frame (5 bytes exceeds 64)');
    log.flush();
    expect(lines).toHaveLength(6);
  });
});

