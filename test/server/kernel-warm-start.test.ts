/**
 * Warm before asked: a kernel reads "starting" (to its clients and in the REST model) until it can run code,
 * not merely once it answered kernel_info; a pooled process loads and converts a first cell before it is
 * handed out (further conversions until someone connects, leaving no declarations behind), and writes the V8
 * code cache other kernel processes start from.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Kernel } from '@jupyterlab/services';
import { WebSocket } from 'ws';
import { KernelProcess } from '../../kernel/src/server/kernel/kernel-process-handle.js';
import { startKernelServer } from '../support/kernel-server.js';
import { runCell } from '../support/kernel-client.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const sessionHost = path.join(root, 'dist', 'kernel', 'src', 'server', 'display', 'session-host.js');
const scratch = mkdtempSync(path.join(tmpdir(), 'nighthawk-warm-'));
const cacheDir = path.join(scratch, 'code-cache');
const LOAD_MS = 1500;

beforeAll(() => {
  if (!existsSync(sessionHost)) execFileSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'ignore' });
  // Kernel processes inherit the environment: their code cache goes where this test can look.
  process.env['NIGHTHAWK_CODE_CACHE_DIR'] = cacheDir;
  process.env['NIGHTHAWK_CONVERSION_CACHE_DIR'] = path.join(scratch, 'conversions');
});

afterAll(() => {
  delete process.env['NIGHTHAWK_CODE_CACHE_DIR'];
  delete process.env['NIGHTHAWK_CONVERSION_CACHE_DIR'];
  rmSync(scratch, { recursive: true, force: true });
});

async function restModelState(baseUrl: string, token: string, id: string): Promise<string> {
  const response = await fetch(`${baseUrl}api/kernels/${id}?token=${token}`);
  return ((await response.json()) as { execution_state: string }).execution_state;
}

/** A server whose kernels' host module takes LOAD_MS to load: it stands for the compiler and library load. */
function slowHostServer(): ReturnType<typeof startKernelServer> {
  const slowHost = path.join(scratch, 'slow-host.mjs');
  writeFileSync(slowHost, `await new Promise((r) => setTimeout(r, ${LOAD_MS}));\nexport function createKernelHost() { return { submitCell() {}, afterCell() {} }; }\n`);
  return startKernelServer({ spareKernels: 0, hostModule: slowHost });
}

function untilIdle(kernel: Kernel.IKernelConnection): Promise<void> {
  return new Promise<void>((resolve) => {
    if (kernel.status === 'idle') resolve();
    kernel.statusChanged.connect((_k, status) => status === 'idle' && resolve());
  });
}

describe('a cold kernel', () => {
  test('reads "starting" after its first kernel_info reply until its host has loaded, then idle, then runs code', async () => {
    const fx = await slowHostServer();
    try {
      const kernel: Kernel.IKernelConnection = await fx.kernels.startNew();
      const seen: string[] = [];
      kernel.statusChanged.connect((_k, status) => seen.push(status));
      await kernel.info;
      const infoAt = performance.now();
      await new Promise((r) => setTimeout(r, 200));
      expect(kernel.status).toBe('starting');
      expect(await restModelState(fx.server.baseUrl, fx.server.token, kernel.id)).toBe('starting');
      await untilIdle(kernel);
      // Idle only once the host loaded: well after kernel_info, never before "starting".
      expect(performance.now() - infoAt).toBeGreaterThan(LOAD_MS / 3);
      expect(seen.lastIndexOf('starting')).toBeLessThan(seen.lastIndexOf('idle'));
      expect(await restModelState(fx.server.baseUrl, fx.server.token, kernel.id)).toBe('idle');
      const run = await runCell(kernel, '6 * 7');
      expect(run.result?.['text/plain']).toBe('42');
    } finally {
      await fx.close();
    }
  }, 60_000);
});

/** The first frame a new channels connection receives, sending nothing (JSON frames: no subprotocol asked). */
function firstFrame(baseUrl: string, token: string, id: string): Promise<{ channel: string; header: { msg_type: string }; parent_header: object; content: { execution_state?: string } }> {
  const url = `${baseUrl.replace(/^http/, 'ws')}api/kernels/${id}/channels?token=${token}`;
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.on('message', (data) => {
      ws.close();
      resolve(JSON.parse(data.toString()) as never);
    });
    ws.on('error', reject);
  });
}

describe('a new kernel connection', () => {
  test('is told the kernel\'s state at once (an iopub status with no parent): "starting" while it loads, then "idle"', async () => {
    const fx = await slowHostServer();
    try {
      const kernel: Kernel.IKernelConnection = await fx.kernels.startNew();
      await kernel.info;
      const early = await firstFrame(fx.server.baseUrl, fx.server.token, kernel.id);
      expect(early).toMatchObject({ channel: 'iopub', header: { msg_type: 'status' }, parent_header: {}, content: { execution_state: 'starting' } });
      await untilIdle(kernel);
      const later = await firstFrame(fx.server.baseUrl, fx.server.token, kernel.id);
      expect(later).toMatchObject({ channel: 'iopub', header: { msg_type: 'status' }, parent_header: {}, content: { execution_state: 'idle' } });
    } finally {
      await fx.close();
    }
  }, 60_000);
});

describe('a kernel process a client waits for', () => {
  /**
   * Milliseconds until a kernel_info sent 50 ms after the process took messages is answered. A process that
   * has begun loading answers once the load (seconds of synchronous compiler start-up) is done.
   */
  async function infoLatency(eager: boolean): Promise<number> {
    // A directory no kernel ran a cell in: nothing stored lets the eager process leave its program for later.
    const kernel = new KernelProcess({ cwd: mkdtempSync(path.join(scratch, 'fresh-')), eager });
    try {
      await kernel.accepting;
      await new Promise((r) => setTimeout(r, 50));
      const sentAt = performance.now();
      const answered = new Promise<number>((resolve) => {
        kernel.onMessage = (_route, msg) => {
          if (msg.header.msg_type === 'kernel_info_reply') resolve(performance.now() - sentAt);
        };
      });
      const header = { msg_id: `info-${eager}`, msg_type: 'kernel_info_request', session: 'test', username: 'test', date: new Date().toISOString(), version: '5.3' };
      kernel.send({ kind: 'request', route: 'r', msg: { header, parent_header: {}, metadata: {}, content: {}, channel: 'shell', buffers: [] } as never });
      return await answered;
    } finally {
      kernel.kill();
    }
  }

  test('starts loading as soon as it takes messages, where a spare answers a first kernel_info before it loads', async () => {
    const spare = await infoLatency(false);
    const eager = await infoLatency(true);
    expect(eager).toBeGreaterThan(spare + 150);
  }, 60_000);
});

describe('a pooled kernel', () => {
  test('is warm when handed out: it wrote the compiler code cache after converting a first cell, and runs that cell', async () => {
    // A cache of its own: the cold kernel above may still be writing to the first one.
    const poolCache = path.join(scratch, 'pool-code-cache');
    process.env['NIGHTHAWK_CODE_CACHE_DIR'] = poolCache;
    const fx = await startKernelServer({ spareKernels: 1, kernelCwd: root, hostModule: sessionHost });
    try {
      await fx.server.kernels.waitForSpare();
      // The spare saves its cache right after its warm-up conversion (setImmediate): give it a moment.
      for (let i = 0; i < 50 && !(existsSync(poolCache) && readdirSync(poolCache).some((f) => f.endsWith('.v8'))); i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      // tslab's TypeScript, and the library's own (the warm-up loads the library as a cell's import would).
      expect(readdirSync(poolCache).filter((f) => f.startsWith('typescript-') && f.endsWith('.v8')).length).toBeGreaterThanOrEqual(1);
      const kernel = await fx.kernels.startNew();
      await kernel.info;
      expect(kernel.status).toBe('idle');
      // Let the spare's further warm-up rounds run (it stops them once connected to): they leave no trace.
      await new Promise((r) => setTimeout(r, 1000));
      const run = await runCell(kernel, 'import * as nh from "nighthawk-ts";\ntypeof nh.Session');
      expect(run.reply.status).toBe('ok');
      expect(run.reply.execution_count).toBe(1);
      expect(run.result?.['text/plain']).toBe("'function'");
      // The warm-up cells declared these; converted only, never run, they are not the Session's names.
      const names = await runCell(kernel, '[typeof limit, typeof schema, typeof twice, typeof names].join()');
      expect(names.reply.status).toBe('error');
      expect(names.error?.evalue).toMatch(/Cannot find name 'limit'/);
    } finally {
      await fx.close();
    }
  }, 120_000);
});
