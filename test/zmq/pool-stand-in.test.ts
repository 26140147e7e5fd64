// Issue 17 (kernel memory beside tslab's): the shell a kernelspec runs first, on its own. It starts the kernel in
// its own place (exec, the same pid) unless a pool socket is there; asks through the kernel's command line with
// `--pool-stand-in DIR` (a private directory holding the two FIFOs) only then; and, when nothing is handed out,
// starts the kernel cold with `--no-pool`, leaving nothing behind. The hand-out itself runs through the real pool
// in kernel-pool.test.ts; here the kernel's command line is a shell that reports how it was called.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkStandInDir, STAND_IN_SCRIPT, StandInRefused } from '../../kernel/src/server/zmq/pool-stand-in.js';

const dir = mkdtempSync(path.join(tmpdir(), 'nh-stand-in-'));
const script = path.join(dir, 'pool-launch.sh');
writeFileSync(script, STAND_IN_SCRIPT);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Stands in for `node … kernel run …`: asked with --pool-stand-in, it checks what it was given and answers nothing
// (no spare); otherwise it is "the kernel" and prints its pid and arguments.
const FAKE_KERNEL = `prev= d=
for a in "$@"; do [ "$prev" = --pool-stand-in ] && d=$a; prev=$a; done
if [ -n "$d" ]; then
  [ -p "$d/launcher" ] && [ -p "$d/kernel" ] && [ "$(stat -c %a "$d")" = 700 ] && echo "asked with fifos" >&2
  exit 0
fi
echo "kernel $$ $*"`;

function launch(env: NodeJS.ProcessEnv): Promise<{ pid: number; stdout: string; stderr: string; code: number | null }> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', [script, '/bin/sh', '-c', FAKE_KERNEL, 'fake-kernel', '--connection-file', 'c.json'], { env: { PATH: process.env['PATH'], ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ pid: child.pid!, stdout: stdout.trim(), stderr: stderr.trim(), code }));
  });
}

async function listening(file: string): Promise<net.Server> {
  const server = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(file, resolve));
  return server;
}

describe('the kernelspec\'s stand-in shell (pool-launch.sh)', () => {
  it('with the pool off, or no pool socket, execs the kernel in its own place, asking nobody', async () => {
    const pool = mkdtempSync(path.join(dir, 'pool-'));
    for (const env of [{ NIGHTHAWK_KERNEL_POOL: 'OFF', NIGHTHAWK_KERNEL_POOL_DIR: pool }, { NIGHTHAWK_KERNEL_POOL_DIR: pool }]) {
      const r = await launch(env);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`kernel ${r.pid} --connection-file c.json`);
      expect(r.stderr).toBe('');
    }
  });

  it('with a pool socket, asks with a private directory of two FIFOs; given no pid, starts the kernel cold with --no-pool and leaves nothing behind', async () => {
    const pool = mkdtempSync(path.join(dir, 'pool-'));
    const temp = mkdtempSync(path.join(dir, 'tmp-'));
    const server = await listening(path.join(pool, 'abc.sock'));
    try {
      const r = await launch({ NIGHTHAWK_KERNEL_POOL_DIR: pool, TMPDIR: temp });
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('asked with fifos');
      expect(r.stdout).toBe(`kernel ${r.pid} --connection-file c.json --no-pool`);
      expect(readdirSync(temp)).toEqual([]);
    } finally {
      server.close();
    }
  });

  it('the kernel side refuses a directory that is not a private one of FIFOs of this user', () => {
    const loose = mkdtempSync(path.join(dir, 'loose-'));
    expect(() => checkStandInDir('relative/dir')).toThrow(StandInRefused);
    chmodSync(loose, 0o755);
    expect(() => checkStandInDir(loose)).toThrow(/not a private directory/);
    chmodSync(loose, 0o700);
    writeFileSync(path.join(loose, 'launcher'), '');
    mkdirSync(path.join(loose, 'kernel'));
    expect(() => checkStandInDir(loose)).toThrow(/is not a FIFO of this user/);
  });
});
