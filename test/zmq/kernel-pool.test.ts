// Issue 17 (warm before asked, ZeroMQ): a kernel Jupyter starts is handed a warm process from the user's
// kernel pool when one is there for that launch, and behaves exactly as a cold kernel would, started by the
// real jupyter_client: interrupts, shutdown, a killed launcher, restart, another directory. The pool itself
// answers only its user, serves only launches identical to what its spares are, and goes away when idle.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePoolDir, kernelJson, KernelPoolUnavailable, launchIdentity } from '../../kernel/src/server/zmq/index.js';
import { freePort } from '../support/free-port.js';
import { builtCli, installedKernel, root, run, runPythonReport, type JupyterEnv } from './zmq-fixture.js';

let jupyter: JupyterEnv;
let poolDir: string;

beforeAll(async () => {
  jupyter = await installedKernel({ name: 'nighthawk-pool' });
  poolDir = path.join(jupyter.dir, 'pool');
  jupyter.env = { ...jupyter.env, NIGHTHAWK_KERNEL_POOL: 'on', NIGHTHAWK_KERNEL_POOL_DIR: poolDir };
}, 120_000);

afterAll(async () => {
  if (jupyter) {
    await run(process.execPath, [builtCli, 'kernel', 'pool', 'stop'], { env: jupyter.env });
    jupyter.cleanup();
  }
});

const checks = <T>(scenario: string, ...args: string[]): Promise<T> => runPythonReport<T>('pool_checks.py', [jupyter.kernelName, builtCli, scenario, ...args], jupyter, 240_000);

function ask(file: string, line: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(file);
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString()));
    socket.on('close', () => resolve(data));
    socket.on('error', () => resolve(data));
    socket.on('connect', () => socket.write(line));
  });
}

async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

describe('the ZeroMQ kernel pool, through jupyter_client', () => {
  it('a first kernel starts cold and leaves a daemon with a warm spare; the next launch is handed that spare and behaves as a kernel', { timeout: 240_000 }, async () => {
    const r = await checks<Record<string, unknown>>('handoff');
    expect(r['cold']).toBe('2');
    expect(r['cold_pid_is_launcher']).toBe(true);
    expect(r['spare']).toBe(true);
    // Sent the moment the channels were up: nothing published before the client's subscription was lost.
    expect(r['first']).toEqual(['ok', '2', expect.arrayContaining(['status', 'execute_input', 'execute_result'])]);
    expect(r['pooled_pid_differs']).toBe(true);
    expect(r['jpy_parent_pid']).toBe(true);
    expect(r['cwd']).toBe(root);
    expect(r['interrupted']).toBeTruthy();
    expect(r['after_interrupt']).toBe('42');
    expect(r['kernel_gone_after_shutdown']).toBe(true);
  });

  it('a launcher killed outright (SIGKILL to its process group) takes its pooled kernel with it', { timeout: 240_000 }, async () => {
    const r = await checks<Record<string, unknown>>('killed');
    expect(r).toEqual({ spare: true, pooled: true, kernel_gone: true });
  });

  it('stands in for a pooled kernel with a shell of under 2 MB, which relays SIGTERM and lives exactly as long as the kernel', { timeout: 240_000 }, async () => {
    const r = await checks<Record<string, unknown>>('stand_in');
    expect(r).toEqual({
      spare: true,
      pooled: true,
      launcher: 'sh',
      launcher_small: true,
      launcher_follows_kernel: true,
      spare_again: true,
      term_relayed: true,
      spare_third: true,
      kernel_gone_after_shell_killed: true,
    });
  });

  it('a pooled kernel behind the shell exits when its client (JPY_PARENT_PID) dies, and the shell with it', { timeout: 240_000 }, async () => {
    const r = await checks<Record<string, unknown>>('client_gone');
    expect(r).toEqual({ spare: true, pooled: true, kernel_gone: true, launcher_gone: true });
  });

  it('the same when the client sets no JPY_PARENT_PID (jupyter_client\'s independent launch): the shell\'s parent, as a cold kernel ends with the parent it started under', { timeout: 240_000 }, async () => {
    const r = await checks<Record<string, unknown>>('client_gone_unnamed');
    expect(r).toEqual({ spare: true, pooled: true, kernel_gone: true, launcher_gone: true });
  });

  it('a restarted kernel keeps nothing of the one before', { timeout: 240_000 }, async () => {
    const r = await checks<Record<string, unknown>>('restart');
    // `kept` is not declared in the new kernel: a type error, as in any fresh kernel.
    expect(r).toEqual({ spare: true, defined: '42', spare_again: true, after_restart: ['error', true], restart_pooled: true });
  });

  it('a launch in another project starts cold there, and the spare moves to that project', { timeout: 240_000 }, async () => {
    const project = path.join(jupyter.dir, 'project');
    mkdirSync(path.join(project, 'node_modules'), { recursive: true });
    symlinkSync(root, path.join(project, 'node_modules', 'nighthawk-ts'));
    const r = await checks<Record<string, unknown>>('other_root', project);
    expect(r).toEqual({ spare_here: true, first_cwd: project, first_pooled: false, spare_there: true, second_cwd: project, second_pooled: true });
  });

  it('answers a request that is not one, or comes from another build or environment, with nothing and goes on serving', { timeout: 60_000 }, async () => {
    const socket = readdirSync(poolDir).find((name) => name.endsWith('.sock'));
    expect(socket).toBeDefined();
    const file = path.join(poolDir, socket!);
    const none = (reply: string) => JSON.parse(reply.trim()) as { kind: string };
    expect(none(await ask(file, 'not json\n')).kind).toBe('none');
    expect(none(await ask(file, JSON.stringify({ kind: 'launch', identity: '0'.repeat(24), root, connectionFile: '/nope.json', env: {}, launcherPid: 2 }) + '\n'))).toEqual({ kind: 'none', reason: 'this pool serves another build, Node or environment' });
    // Unknown fields are refused, not ignored: a request cannot smuggle settings in.
    expect(none(await ask(file, JSON.stringify({ kind: 'status', execArgv: ['--require', '/tmp/x.js'] }) + '\n')).kind).toBe('none');
    expect(none(await ask(file, 'x'.repeat(70_000))).kind).toBe('none');
    const status = await run(process.execPath, [builtCli, 'kernel', 'pool', 'status'], { env: jupyter.env });
    expect(status.stdout).toMatch(/daemon \d+ .*: \d+ kernel\(s\) handed out/);
  });
});

describe('the kernel pool daemon and its directory', () => {
  it('a launch identity changes with the environment, flags and build, but not with what a client sets per launch', () => {
    const env = { PATH: '/usr/bin', HOME: '/home/a' };
    const base = launchIdentity(env, ['--max-semi-space-size=2']);
    expect(launchIdentity({ ...env, JPY_PARENT_PID: '123', JPY_SESSION_NAME: '/x.ipynb', KERNEL_ID: 'k' }, ['--max-semi-space-size=2'])).toBe(base);
    expect(launchIdentity({ ...env, NODE_OPTIONS: '--require /tmp/evil.js' }, ['--max-semi-space-size=2'])).not.toBe(base);
    expect(launchIdentity({ ...env, NIGHTHAWK_CONVERSION_CACHE_DIR: '/tmp/c' }, ['--max-semi-space-size=2'])).not.toBe(base);
    expect(launchIdentity(env, [])).not.toBe(base);
  });

  it('refuses a pool directory other users can write to, and the kernel then starts cold without one', { timeout: 60_000 }, async () => {
    const open = path.join(jupyter.dir, 'open-pool');
    mkdirSync(open, { mode: 0o755 });
    chmodSync(open, 0o777);
    expect(() => ensurePoolDir(open)).toThrow(KernelPoolUnavailable);
    expect(() => ensurePoolDir(open)).toThrow(/open to other users \(mode 777\)/);
    const ports = await Promise.all([0, 1, 2, 3, 4].map(() => freePort()));
    const file = path.join(jupyter.dir, 'open-pool-kernel.json');
    writeFileSync(file, JSON.stringify({ transport: 'tcp', ip: '127.0.0.1', shell_port: ports[0], iopub_port: ports[1], stdin_port: ports[2], control_port: ports[3], hb_port: ports[4], key: 'k', signature_scheme: 'hmac-sha256' }));
    const kernel: ChildProcess = spawn(process.execPath, [builtCli, 'kernel', 'run', '--connection-file', file], { env: { ...jupyter.env, NIGHTHAWK_KERNEL_POOL_DIR: open }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    kernel.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      expect(await waitFor(() => /starting this kernel cold/.test(stderr), 20_000)).toBe(true);
      expect(stderr).toMatch(/kernel pool: .*open-pool is open to other users/);
      // Cold, and serving: its shell port takes connections.
      expect(await waitFor(() => kernel.exitCode === null, 1000)).toBe(true);
      expect(readdirSync(open)).toEqual([]);
    } finally {
      kernel.kill('SIGKILL');
    }
  });

  it('a daemon with nothing to do exits after its idle time, taking its spare and socket with it', { timeout: 60_000 }, async () => {
    const dir = path.join(jupyter.dir, 'idle-pool');
    const daemon = spawn(process.execPath, [builtCli, 'kernel', 'pool', 'serve'], { cwd: root, env: { ...jupyter.env, NIGHTHAWK_KERNEL_POOL_DIR: dir, NIGHTHAWK_KERNEL_POOL_IDLE_S: '3' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    daemon.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    try {
      expect(await waitFor(() => /serving /.test(log), 20_000)).toBe(true);
      expect(readdirSync(dir).some((name) => name.endsWith('.sock'))).toBe(true);
      expect(await waitFor(() => daemon.exitCode !== null, 30_000)).toBe(true);
      expect(log).toMatch(/stopping: idle/);
      expect(readdirSync(dir).some((name) => name.endsWith('.sock'))).toBe(false);
      const spare = /spare (\d+)/.exec(log)?.[1];
      expect(spare).toBeDefined();
      expect(await waitFor(() => !existsSync(`/proc/${spare}`), 10_000)).toBe(true);
    } finally {
      daemon.kill('SIGKILL');
    }
  });

  it('kernel install --no-pool writes a kernelspec whose kernels always start cold', () => {
    expect(kernelJson({ pool: false }).env['NIGHTHAWK_KERNEL_POOL']).toBe('off');
    expect(kernelJson({}).env['NIGHTHAWK_KERNEL_POOL']).toBeUndefined();
  });
});
