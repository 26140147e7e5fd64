import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

// Kernels started by tests store cell conversions for this run only: a run never depends on what an earlier
// one (or the developer's own notebooks) left in the user's cache.
process.env['NIGHTHAWK_CONVERSION_CACHE_DIR'] ??= path.join(tmpdir(), `nighthawk-test-conversions-${process.pid}`);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
