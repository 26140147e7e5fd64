import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Kernel } from '@jupyterlab/services';
import { startKernelServer, type KernelServerFixture } from '../support/kernel-server.js';
import { runCell } from '../support/kernel-client.js';

let fx: KernelServerFixture;
let kernel: Kernel.IKernelConnection;

beforeAll(async () => {
  fx = await startKernelServer({ spareKernels: 0, hostModule: '/nonexistent/nighthawk-host.js', log: () => {} });
  kernel = await fx.kernels.startNew();
}, 60_000);

afterAll(async () => {
  await fx?.close();
});

describe('a kernel whose host module cannot load', () => {
  test('answers kernel_info, then every cell with a KernelStartError naming the cause, and keeps running', async () => {
    const info = await kernel.info;
    expect(info.implementation).toBeTruthy();
    for (const code of ['1+1', 'const x = 2']) {
      const run = await runCell(kernel, code);
      expect(run.reply.status).toBe('error');
      expect(run.error?.ename).toBe('KernelStartError');
      expect(run.error?.evalue).toContain('nighthawk-host.js');
    }
  });
});
