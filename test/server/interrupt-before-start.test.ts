/**
 * An interrupt that arrives after a cell was announced (execute_input) but before the cell's own code started:
 * - while the kernel host still admits the cell (submitCell: the Session approving it, which can take a moment),
 *   it stops that cell: the cell never runs, and it ends as interrupted instead of running to completion;
 * - while the kernel still prepares the cell for longer than the server waits before it has the watchdog stop
 *   the running JavaScript (a first conversion building the compiler's program on a loaded machine), that
 *   preparation is not cut short: the cell then starts, meets the interrupt and ends, and the kernel goes on;
 * - what runs once the preparation is over is not the kernel's own work, even before the cell's reply: a loop
 *   queued behind it is stopped by the watchdog, and the kernel keeps its state (it is not restarted);
 * - a loop the cell itself queued is stopped too, though stopping it drops the cell's own continuation: the cell
 *   ends as interrupted and the names it reached before the loop stay declared for later cells.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Kernel } from '@jupyterlab/services';
import { startKernelServer, type KernelServerFixture } from '../support/kernel-server.js';
import { runCell } from '../support/kernel-client.js';
import { RESTART_AFTER_MS, TERMINATE_AFTER_MS } from '../../kernel/src/server/kernel/interrupt-escalation.js';

const SUBMIT_MS = 800;
/** Longer than the server waits (TERMINATE_AFTER_MS) before it has the watchdog stop running JavaScript. */
const PREPARE_MS = TERMINATE_AFTER_MS + 1_500;
let fx: KernelServerFixture;
let kernel: Kernel.IKernelConnection;

beforeAll(async () => {
  const host = path.join(mkdtempSync(path.join(tmpdir(), 'nighthawk-slow-submit-')), 'slow-submit-host.mjs');
  // A host that takes SUBMIT_MS to admit a cell marked /*admit-slow*/, as a Session approving a cell may, and whose cell transform
  // holds the thread for PREPARE_MS on a cell marked /*slow*/, as a first conversion on a loaded machine does.
  writeFileSync(
    host,
    `export function createKernelHost() { return { async submitCell(source) { if (source.includes('/*admit-slow*/')) await new Promise((r) => setTimeout(r, ${SUBMIT_MS})); }, afterCell() {} }; }\n` +
      `export function transformCell(source) { if (source.includes('/*slow*/')) { const end = Date.now() + ${PREPARE_MS}; while (Date.now() < end) {} } ` +
      `if (source.includes('/*spin-after*/')) queueMicrotask(() => { for (;;) {} }); return { code: source }; }\n`,
  );
  fx = await startKernelServer({ spareKernels: 0, hostModule: host });
  kernel = await fx.kernels.startNew();
  await runCell(kernel, 'let before = 1');
}, 60_000);

afterAll(async () => {
  await fx?.close();
});

test('an interrupt while the host admits the cell stops it before it runs', async () => {
  const started = performance.now();
  const run = await runCell(kernel, '/*admit-slow*/ console.log("ran"); await new Promise((resolve) => setTimeout(resolve, 30_000)); "finished"', {
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
  await runCell(kernel, '/*admit-slow*/ "first"', { onIOPub: (msg) => void (msg.header.msg_type === 'execute_input' && kernel.interrupt()) });
  const next = await runCell(kernel, 'await new Promise((resolve) => setTimeout(resolve, 50)); "second"');
  expect(next.error).toBeUndefined();
  expect(next.result?.['text/plain']).toBe("'second'");
}, 60_000);

test('an interrupt while the kernel prepares the cell longer than the watchdog waits does not cut that preparation short', async () => {
  const started = performance.now();
  const run = await runCell(kernel, '/*slow*/ await new Promise((resolve) => setTimeout(resolve, 30_000)); "finished"', {
    onIOPub: (msg) => void (msg.header.msg_type === 'execute_input' && kernel.interrupt()),
  });
  expect(run.error?.ename).toBe('KeyboardInterrupt');
  expect(performance.now() - started).toBeLessThan(15_000);
  // Not hung, not restarted: the next cell runs, with what earlier cells declared.
  expect((await runCell(kernel, 'before + 2')).result?.['text/plain']).toBe('3');
}, 60_000);

test('a loop queued behind the preparation is stopped by the watchdog, not left to the restart', async () => {
  const started = performance.now();
  await runCell(kernel, '/*spin-after*/ "queued a loop"', {
    onIOPub: (msg) => void (msg.header.msg_type === 'execute_input' && kernel.interrupt()),
  });
  // Stopped after TERMINATE_AFTER_MS, not killed after RESTART_AFTER_MS: the kernel still has what earlier cells declared.
  expect(performance.now() - started).toBeLessThan(RESTART_AFTER_MS);
  expect((await runCell(kernel, 'before + 3')).result?.['text/plain']).toBe('4');
}, 60_000);

test('a loop the cell queued as a microtask is stopped, and the cell ends as interrupted though its continuation was dropped', async () => {
  // Stopping the loop drops every microtask queued behind it, the compiler's continuation of this cell among them.
  const started = performance.now();
  const run = await runCell(kernel, 'const reached = 7; queueMicrotask(() => { for (;;) {} }); "queued"', {
    onIOPub: (msg) => void (msg.header.msg_type === 'execute_input' && setTimeout(() => kernel.interrupt(), 200)),
  });
  expect(run.error?.ename).toBe('KeyboardInterrupt');
  expect(performance.now() - started).toBeLessThan(RESTART_AFTER_MS);
  // What earlier cells declared, and what this one reached before its loop, are still there (and typed).
  expect((await runCell(kernel, 'before + reached')).result?.['text/plain']).toBe('8');
}, 60_000);

test('the same for a cell with top-level await: the names it reached before the loop stay declared', async () => {
  const run = await runCell(kernel, 'const awaited = await Promise.resolve(9); queueMicrotask(() => { for (;;) {} });', {
    onIOPub: (msg) => void (msg.header.msg_type === 'execute_input' && setTimeout(() => kernel.interrupt(), 200)),
  });
  expect(run.error?.ename).toBe('KeyboardInterrupt');
  expect((await runCell(kernel, 'awaited + before')).result?.['text/plain']).toBe('10');
}, 60_000);
