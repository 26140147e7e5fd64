import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

// Kernels started by tests store cell conversions for this run only: a run never depends on what an earlier
// one (or the developer's own notebooks) left in the user's cache.
process.env['NIGHTHAWK_CONVERSION_CACHE_DIR'] ??= path.join(tmpdir(), `nighthawk-test-conversions-${process.pid}`);
// Compiler snapshots (a ~60 MB blob per directory, built in the background by a kernel start that missed one) are
// off for the suite; test/server/compiler-snapshot.test.ts builds its own and starts kernels from them.
process.env['NIGHTHAWK_COMPILER_SNAPSHOT_DIR'] ??= 'off';
// The ZeroMQ kernel pool (a detached daemon keeping a warm kernel per user) is off too: every kernel a test starts
// starts cold unless the test turns the pool on (test/zmq/kernel-pool.test.ts, with a pool directory of its own).
process.env['NIGHTHAWK_KERNEL_POOL'] ??= 'off';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
