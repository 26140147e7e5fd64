// Issue 15.7: `npm start` skips builds that are up to date and reaches its URL quickly, and a busy port moves
// on to the next one with a clear line (no EADDRINUSE, no crash stack from half-started kernels).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.js';
import { startOnce } from '../support/npm-start.js';

describe('npm start', () => {
  let scratch: string;
  let blocker: Server;
  let busy: number;

  beforeAll(async () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'nighthawk-start-'));
    busy = await freePort();
    blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(busy, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    await new Promise((resolve) => blocker?.close(resolve));
    rmSync(scratch, { recursive: true, force: true });
  });

  it('with its port busy, says so and serves on the next free one', { timeout: 700_000 }, async () => {
    const run = await startOnce(['--port', String(busy)], scratch);
    try {
      expect(run.output).toContain(`Port ${busy} is in use; using port`);
      const port = Number(/using port (\d+) instead/.exec(run.output)![1]);
      expect(port).toBeGreaterThan(busy);
      expect(run.url).toContain(`:${port}/`);
      const res = await fetch(run.url.replace(/\?token=.*/, 'api/status'), { headers: { Authorization: `token ${/token=(\w+)/.exec(run.url)![1]}` } });
      expect(res.status).toBeLessThan(500);
      expect(run.output).not.toMatch(/EADDRINUSE|ERR_IPC_CHANNEL_CLOSED/);
    } finally {
      await run.stop();
    }
  });

  it('a second start with nothing changed skips both builds and reaches its URL in under 3 s', { timeout: 700_000 }, async () => {
    // The first start above built whatever was stale; nothing changed since.
    const run = await startOnce(['--port', '0'], scratch);
    try {
      expect(run.output).toContain('library build is up to date (skipped)');
      expect(run.output).toContain('web build is up to date (skipped)');
      expect(run.ms).toBeLessThan(3000);
    } finally {
      await run.stop();
    }
  });
});
