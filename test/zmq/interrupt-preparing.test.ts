/**
 * The ZeroMQ kernel interrupted by jupyter_client's SIGINT while it still prepares a cell for longer than its
 * watchdog waits before stopping a main thread that stands still (STALL_MS): the preparation (a host transform
 * here, a first conversion building the compiler's program on a loaded machine) is the kernel's own work and is
 * never stopped mid-way, which would leave the cell's promise unsettled and the kernel busy for good. The cell
 * then starts, meets the interrupt and ends as KeyboardInterrupt; the kernel goes on with its state.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { STALL_MS } from '../../kernel/src/server/kernel/interrupt-watchdog.js';
import { installedKernel, runPythonReport, type JupyterEnv } from './zmq-fixture.js';

const PREPARE_MS = STALL_MS + 1_500;

interface PreparingReport {
  announced: boolean;
  reply: { status: string; ename: string | null } | null;
  seconds: number;
  alive: boolean;
  kept: string | null;
}

let jupyter: JupyterEnv;
let report: PreparingReport;

beforeAll(async () => {
  jupyter = await installedKernel();
  // The installed kernelspec, run with a host module whose cell transform holds the thread on /*slow*/ cells.
  const kernels = path.join(jupyter.prefix, 'share', 'jupyter', 'kernels');
  const spec = JSON.parse(readFileSync(path.join(kernels, jupyter.kernelName, 'kernel.json'), 'utf8')) as { argv: string[] };
  const host = path.join(jupyter.dir, 'slow-transform-host.mjs');
  writeFileSync(host, `export function transformCell(source) { if (source.includes('/*slow*/')) { const end = Date.now() + ${PREPARE_MS}; while (Date.now() < end) {} } return { code: source }; }\n`);
  const name = `${jupyter.kernelName}-slow`;
  mkdirSync(path.join(kernels, name));
  writeFileSync(path.join(kernels, name, 'kernel.json'), JSON.stringify({ ...spec, argv: [...spec.argv, '--host-module', host] }));
  report = await runPythonReport<PreparingReport>('interrupt_preparing.py', [name], jupyter, 120_000);
}, 180_000);

afterAll(() => jupyter?.cleanup());

test('SIGINT while the kernel prepares a cell longer than the watchdog waits: the cell ends as KeyboardInterrupt, the kernel goes on', () => {
  expect(report.announced).toBe(true);
  expect(report.reply).toEqual({ status: 'error', ename: 'KeyboardInterrupt' });
  // Not the cell's 30 s wait: the interrupt ended it once its preparation was done.
  expect(report.seconds).toBeLessThan(20);
  expect(report.alive).toBe(true);
  expect(report.kept).toBe('3');
});
