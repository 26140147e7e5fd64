// Issue 15.10: kernels nobody used for the configured time are shut down; busy ones are not.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cullIdleKernels } from '../../kernel/src/server/kernel/index.js';
import { startKernelServer, type KernelServerFixture } from '../support/kernel-server.js';

const fixtureDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'support', 'kernel-fixture-package');
let fx: KernelServerFixture;

beforeAll(async () => {
  fx = await startKernelServer({ spareKernels: 0, kernelCwd: fixtureDir, hostModule: path.join(fixtureDir, 'host.js') });
}, 60_000);

afterAll(async () => {
  await fx?.close();
});

describe('idle kernel culling', () => {
  it('shuts down a kernel idle past the limit and keeps a busy one', { timeout: 60_000 }, async () => {
    const idle = await fx.kernels.startNew();
    const busy = await fx.kernels.startNew();
    await Promise.all([idle.info, busy.info]);
    const sleeping = busy.requestExecute({ code: 'await new Promise((r) => setTimeout(r, 8000)); "woke"' });
    await new Promise((r) => setTimeout(r, 1000));
    const lines: string[] = [];
    const stop = cullIdleKernels(fx.server.kernels, { idleMs: 1500, intervalMs: 200, cullConnected: true, log: (l) => lines.push(l) });
    try {
      const deadline = Date.now() + 10_000;
      while (fx.server.kernels.get(idle.id) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(fx.server.kernels.get(idle.id)).toBeUndefined();
      expect(lines.some((l) => l.includes(`culled kernel ${idle.id}`))).toBe(true);
      expect(fx.server.kernels.get(busy.id)).toBeDefined();
      const reply = await sleeping.done;
      expect(reply.content.status).toBe('ok');
    } finally {
      stop();
    }
  });

  it('a limit of 0 disables culling', async () => {
    const kernel = await fx.kernels.startNew();
    const stop = cullIdleKernels(fx.server.kernels, { idleMs: 0, intervalMs: 50 });
    await new Promise((r) => setTimeout(r, 500));
    expect(fx.server.kernels.get(kernel.id)).toBeDefined();
    stop();
  });
});
