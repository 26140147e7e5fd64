/**
 * An interrupt that arrives after a cell was announced (execute_input) but before it started running, while the
 * kernel host still checks the cell (submitCell: the Session approving it, which can take a moment), stops that
 * cell: it never runs, and it ends as interrupted instead of running to completion.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Kernel } from '@jupyterlab/services';
import { startKernelServer, type KernelServerFixture } from '../support/kernel-server.js';
import { runCell } from '../support/kernel-client.js';

const SUBMIT_MS = 800;
let fx: KernelServerFixture;
let kernel: Kernel.IKernelConnection;

beforeAll(async () => {
  const host = path.join(mkdtempSync(path.join(tmpdir(), 'nighthawk-slow-submit-')), 'slow-submit-host.mjs');
  // A host that takes SUBMIT_MS to admit each cell, as a Session approving a cell may.
  writeFileSync(host, `export function createKernelHost() { return { async submitCell() { await new Promise((r) => setTimeout(r, ${SUBMIT_MS})); }, afterCell() {} }; }\n`);
  fx = await startKernelServer({ spareKernels: 0, hostModule: host });
  kernel = await fx.kernels.startNew();
  await runCell(kernel, 'let before = 1');
}, 60_000);

afterAll(async () => {
  await fx?.close();
});

test('an interrupt while the host admits the cell stops it before it runs', async () => {
  const started = performance.now();
  const run = await runCell(kernel, 'console.log("ran"); await new Promise((resolve) => setTimeout(resolve, 30_000)); "finished"', {
    onIOPub: (msg) => void (msg.header.msg_type === 'execute_input' && kernel.interrupt()),
  });
  expect(run.error?.ename).toBe('KeyboardInterrupt');
  expect(run.stdout).toBe('');
  expect(performance.now() - started).toBeLessThan(10_000);
  // The kernel goes on, with what earlier cells declared.
  expect((await runCell(kernel, 'before + 1')).result?.['text/plain']).toBe('2');
}, 60_000);

test('an interrupt for the cell before does not stop the next one', async () => {
  // Interrupted while admitted, then a fresh cell: it runs normally (nothing sticky is left behind).
  await runCell(kernel, '"first"', { onIOPub: (msg) => void (msg.header.msg_type === 'execute_input' && kernel.interrupt()) });
  const next = await runCell(kernel, 'await new Promise((resolve) => setTimeout(resolve, 50)); "second"');
  expect(next.error).toBeUndefined();
  expect(next.result?.['text/plain']).toBe("'second'");
}, 60_000);
