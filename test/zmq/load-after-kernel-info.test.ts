/**
 * Warm before asked, where no terminal client can be hurt by it: a kernel a Jupyter server starts for a session
 * (JPY_SESSION_NAME in its environment) loads its compiler and Session host right after its first kernel_info
 * reply; a kernel started otherwise (jupyter console, nbclient) waits for the first request that needs them, so a
 * console's first is_complete is answered at once (test/zmq/console-flow.test.ts).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { builtCli, installedKernel, runPython, type JupyterEnv } from './zmq-fixture.js';

let jupyter: JupyterEnv;
let marker: string;
let kernelName: string;

beforeAll(async () => {
  jupyter = await installedKernel({ name: 'nighthawk-preload-fixture' });
  marker = path.join(jupyter.dir, 'host-loaded');
  // A host module that leaves a file behind when the kernel loads it (the kernel loads it with its compiler).
  const host = path.join(jupyter.dir, 'marker-host.mjs');
  writeFileSync(host, `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'loaded');\nexport function createKernelHost() { return { submitCell() {}, afterCell() {} }; }\n`);
  kernelName = 'nighthawk-preload';
  const spec = path.join(jupyter.prefix, 'share', 'jupyter', 'kernels', kernelName);
  mkdirSync(spec, { recursive: true });
  writeFileSync(path.join(spec, 'kernel.json'), JSON.stringify({ argv: [process.execPath, builtCli, 'kernel', 'run', '--connection-file', '{connection_file}', '--host-module', host], display_name: 'preload', language: 'typescript', interrupt_mode: 'signal' }));
}, 120_000);

afterAll(() => jupyter?.cleanup());

async function infoThenWait(env: NodeJS.ProcessEnv, waitSeconds: number): Promise<{ loaded_before_execute: boolean; status: string; result: string | null }> {
  rmSync(marker, { force: true });
  const r = await runPython('info_then_wait.py', [kernelName, marker, String(waitSeconds)], { ...jupyter, env }, 240_000);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!);
}

describe('loading after the first kernel_info reply', () => {
  test('under a Jupyter server session the kernel loads before any cell is sent', async () => {
    const outcome = await infoThenWait({ ...jupyter.env, JPY_SESSION_NAME: path.join(jupyter.dir, 'Untitled.ipynb') }, 90);
    expect(outcome).toEqual({ loaded_before_execute: true, status: 'ok', result: '2' });
  }, 300_000);

  test('started without one (a terminal console, nbclient) it loads on the first cell', async () => {
    const env = { ...jupyter.env };
    delete env['JPY_SESSION_NAME'];
    const outcome = await infoThenWait(env, 4);
    expect(outcome).toEqual({ loaded_before_execute: false, status: 'ok', result: '2' });
  }, 300_000);
});
