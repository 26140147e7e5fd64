// Issue 15.10: a kernel started by a Jupyter client exits when that client dies (Jupyter's parent-poll
// convention), whether the client named itself in JPY_PARENT_PID or the kernel is merely re-parented.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.js';
import { builtCli, ensureKernelBuilt } from './zmq-fixture.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'nh-parent-poll-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntil(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

/** A stand-in Jupyter client: a process that starts the kernel and reports its pid. */
async function clientWithKernel(nameParent: boolean): Promise<{ client: number; kernel: number; kill(): void }> {
  ensureKernelBuilt();
  const ports = await Promise.all([0, 1, 2, 3, 4].map(() => freePort()));
  const file = path.join(dir, `kernel-${ports[0]}.json`);
  writeFileSync(file, JSON.stringify({ transport: 'tcp', ip: '127.0.0.1', shell_port: ports[0], iopub_port: ports[1], stdin_port: ports[2], control_port: ports[3], hb_port: ports[4], key: 'k', signature_scheme: 'hmac-sha256' }));
  const script = `const { spawn } = require('node:child_process');
const env = { ...process.env };
${nameParent ? 'env.JPY_PARENT_PID = String(process.pid);' : 'delete env.JPY_PARENT_PID;'}
const k = spawn(process.execPath, [${JSON.stringify(builtCli)}, 'kernel', 'run', '--connection-file', ${JSON.stringify(file)}], { stdio: 'ignore', env, detached: true });
console.log(k.pid);
setInterval(() => {}, 1000);`;
  const client = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const kernel = await new Promise<number>((resolve) => client.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
  return { client: client.pid!, kernel, kill: () => client.kill('SIGKILL') };
}

describe('the ZeroMQ kernel and its parent', () => {
  it('lives while its client lives and exits within seconds after the client (JPY_PARENT_PID) is killed', { timeout: 60_000 }, async () => {
    const { kernel, kill } = await clientWithKernel(true);
    try {
      await new Promise((r) => setTimeout(r, 3000));
      expect(alive(kernel)).toBe(true);
      kill();
      expect(await waitUntil(() => !alive(kernel), 15_000)).toBe(true);
    } finally {
      if (alive(kernel)) process.kill(kernel, 'SIGKILL');
    }
  });

  it('exits when re-parented after its parent dies, without JPY_PARENT_PID', { timeout: 60_000 }, async () => {
    const { kernel, kill } = await clientWithKernel(false);
    try {
      await new Promise((r) => setTimeout(r, 2000));
      expect(alive(kernel)).toBe(true);
      kill();
      expect(await waitUntil(() => !alive(kernel), 15_000)).toBe(true);
    } finally {
      if (alive(kernel)) process.kill(kernel, 'SIGKILL');
    }
  });
});
