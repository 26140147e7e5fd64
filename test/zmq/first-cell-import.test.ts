/**
 * A cold kernel's first cell imports the library the moment the first kernel_info reply arrives (a client that does
 * not wait for iopub to settle). After that reply the kernel preloads the library's module graph with `import()`; a
 * cell's `import` is a `require`, and Node refuses to require an ES module an `import()` is still loading ("Cannot
 * require() ES Module … because it is not yet fully loaded"): the first cell failed now and then, more often when
 * its conversion was stored and the kernel had no program to build in between. Every cold start here runs it.
 */
import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { installedKernel, runPythonReport, type JupyterEnv } from './zmq-fixture.js';

let jupyter: JupyterEnv;
beforeAll(async () => {
  jupyter = await installedKernel({ name: 'nighthawk-first-import' });
}, 120_000);
afterAll(() => jupyter?.cleanup());

const IMPORT_CELL = 'import * as nh from "nighthawk-ts";\ntypeof nh.Session';

describe("a cold kernel's first cell importing the library", () => {
  test('runs on every cold start, its conversion fresh or stored', async () => {
    const conversions = mkdtempSync(path.join(jupyter.dir, 'conversions-'));
    const env = { ...jupyter.env, NIGHTHAWK_KERNEL_POOL: 'off', NIGHTHAWK_CONVERSION_CACHE_DIR: conversions };
    const outcomes: unknown[] = [];
    for (let start = 0; start < 6; start++) {
      outcomes.push(await runPythonReport('info_then_cell.py', [jupyter.kernelName, IMPORT_CELL], { ...jupyter, env }, 120_000));
    }
    expect(outcomes).toEqual(Array.from({ length: 6 }, () => ({ status: 'ok', result: "'function'", errors: [] })));
  }, 600_000);
});
