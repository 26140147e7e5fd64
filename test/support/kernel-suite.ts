/** Suite-level set-up for tests that talk to one kernel (kept apart: benches import kernel-server.ts too). */
import type { Kernel } from '@jupyterlab/services';
import { afterAll, beforeAll } from 'vitest';
import { startKernelServer, type KernelServerFixture } from './kernel-server.js';

/**
 * One server and one started kernel for a whole suite (registers beforeAll/afterAll); read them through the
 * getters inside tests.
 */
export function kernelSuite(start: () => Promise<KernelServerFixture> = () => startKernelServer()): { readonly fx: KernelServerFixture; readonly kernel: Kernel.IKernelConnection } {
  let fx: KernelServerFixture | undefined;
  let kernel: Kernel.IKernelConnection | undefined;
  beforeAll(async () => {
    fx = await start();
    kernel = await fx.kernels.startNew();
    await kernel.info;
  }, 120_000);
  afterAll(async () => {
    await fx?.close();
  });
  return {
    get fx() {
      return fx!;
    },
    get kernel() {
      return kernel!;
    },
  };
}
