/**
 * A kernel process starts with two malloc arenas (kernel-env.ts: less resident memory per kernel), unless the
 * user set MALLOC_ARENA_MAX themselves.
 */
import { describe, expect, test } from 'vitest';
import { withKernelEnv } from '../../kernel/src/server/kernel/kernel-env.js';
import { startKernelServer } from '../support/kernel-server.js';
import { runCell } from '../support/kernel-client.js';

describe('the environment of kernel processes', () => {
  test('MALLOC_ARENA_MAX=2 is added; a value the user set is kept; nothing else changes', () => {
    expect(withKernelEnv({ PATH: '/bin' })).toEqual({ PATH: '/bin', MALLOC_ARENA_MAX: '2' });
    expect(withKernelEnv({ PATH: '/bin', MALLOC_ARENA_MAX: '8' })).toEqual({ PATH: '/bin', MALLOC_ARENA_MAX: '8' });
  });

  test('a forked kernel runs with it', async () => {
    const saved = process.env['MALLOC_ARENA_MAX'];
    delete process.env['MALLOC_ARENA_MAX'];
    const fx = await startKernelServer({ spareKernels: 0 });
    try {
      const kernel = await fx.kernels.startNew();
      const run = await runCell(kernel, 'process.env.MALLOC_ARENA_MAX === "2"');
      expect(run.result?.['text/plain']).toBe('true');
    } finally {
      await fx.close();
      if (saved !== undefined) process.env['MALLOC_ARENA_MAX'] = saved;
    }
  }, 60_000);
});
