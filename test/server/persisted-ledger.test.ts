import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Kernel } from '@jupyterlab/services';
import { NighthawkMime } from '../../shared/mime.js';
import { startKernelServer, type KernelServerFixture } from '../support/kernel-server.js';
import { runCell } from '../support/kernel-client.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const hostModule = path.join(root, 'dist', 'kernel', 'src', 'server', 'display', 'session-host.js');
const dataDir = mkdtempSync(path.join(tmpdir(), 'nighthawk-data-'));

let fx: KernelServerFixture;
let kernel: Kernel.IKernelConnection;

beforeAll(async () => {
  if (!existsSync(hostModule)) execFileSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'ignore' });
  fx = await startKernelServer({ spareKernels: 0, kernelCwd: root, hostModule, dataDir });
  kernel = await fx.kernels.startNew();
  await kernel.info;
}, 120_000);

afterAll(async () => {
  await fx?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('ledger persistence under the data directory', () => {
  test('runs recorded before a kernel restart are still shown from the persisted ledger', async () => {
    const first = await runCell(kernel, 'import * as nh from "nighthawk-ts";\nasync function marker() { return "recorded"; }');
    expect(first.error).toBeUndefined();
    const call = await runCell(kernel, 'await marker()');
    expect(call.error).toBeUndefined();
    expect(call.result?.['text/plain']).toBe("'recorded'");
    await kernel.restart();
    const after = await runCell(kernel, 'import * as nh from "nighthawk-ts";\nnh.displayLedger({ kind: "run.entry" }, { persisted: true })');
    expect(after.error).toBeUndefined();
    const ledger = after.displays.map((m) => (m.content as { data: Record<string, unknown> }).data[NighthawkMime.ledger]).find(Boolean) as { entries: { kind: string; summary: string }[] };
    expect(ledger.entries.some((e) => e.kind === 'run.entry' && e.summary.includes('marker'))).toBe(true);
    const live = await runCell(kernel, 'nh.displayLedger({ kind: "run.entry" })');
    expect(live.result?.['text/plain']).toBe('0');
  });

  test('a cell that closes the Session ends cleanly, and the next cell is refused with the reason', async () => {
    const closing = await runCell(kernel, 'import * as nh from "nighthawk-ts";\nasync function afterwards() { return 1; }\nawait nh.activeSession()!.close();\n"closed"');
    expect(closing.error).toBeUndefined();
    expect(closing.result?.['text/plain']).toBe("'closed'");
    const next = await runCell(kernel, '1 + 1');
    expect(next.error?.evalue).toMatch(/Session is closed/);
    // A restart is a new Session.
    await kernel.restart();
    expect((await runCell(kernel, '1 + 1')).result?.['text/plain']).toBe('2');
  });
});
