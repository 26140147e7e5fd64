/**
 * The kernel pool's daemon (`nighthawk-ts kernel pool serve`, started detached by the first launch that found
 * none). It keeps one spare kernel process warm (compiler program built, host module loaded, the first cell's
 * conversion done) for the directory kernels were last asked for, and hands it the next launch there together
 * with the launcher's socket. Its identity (socket name) is the launch identity it was started with, so every
 * spare it starts is the kernel such a launch would have started cold.
 *
 * One spare, not more: each holds a kernel's memory (~0.2 GB). A launch for another directory starts cold and
 * moves the spare there. The daemon exits after NIGHTHAWK_KERNEL_POOL_IDLE_S (default 600) seconds without a
 * launch, when its socket file is removed, on SIGTERM/SIGINT, or on `kernel pool stop`; its spare goes with it,
 * kernels it handed out do not.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, statSync, unlinkSync } from 'node:fs';
import net from 'node:net';
import { z } from 'zod';
import { CLI_PATH, ensurePoolDir, kernelPoolDir, launchIdentity, readLine, sendLine, socketPath, type LaunchRequest, type PoolReply, type SpareStatus } from './kernel-pool.js';

/** After a launch that found no spare, the cold kernel it starts has the machine first for this long. */
const WARM_DELAY_MS = 2000;
/** After a hand-out, the kernel handed out runs its first cells before the replacement loads (seconds of CPU). */
const REFILL_DELAY_MS = 2000;
const REQUEST_TIMEOUT_MS = 5000;
const CHECK_INTERVAL_MS = 2000;

const LaunchRequestSchema = z.strictObject({
  kind: z.literal('launch'),
  identity: z.string().regex(/^[0-9a-f]{24}$/),
  root: z.string().min(1).max(4096),
  connectionFile: z.string().min(1).max(4096),
  dataDir: z.string().min(1).max(4096).optional(),
  env: z.record(z.string().max(256), z.string().max(4096)),
  launcherPid: z.number().int().positive(),
  standIn: z.string().min(1).max(4096).optional(),
  clientPid: z.number().int().min(2).optional(),
});
const PoolRequestSchema = z.discriminatedUnion('kind', [LaunchRequestSchema, z.strictObject({ kind: z.literal('status') }), z.strictObject({ kind: z.literal('stop') })]);

interface Spare {
  readonly child: ChildProcess;
  readonly root: string;
  readonly dataDir: string | undefined;
  state: 'warming' | 'ready' | 'gone';
  /** True once warm, false if it exited first. */
  readonly ready: Promise<boolean>;
}

export interface PoolDaemonOptions {
  /** The data directory of the launch that started this daemon (its first spare's). */
  dataDir?: string;
}

export async function servePool(options: PoolDaemonOptions = {}): Promise<void> {
  const dir = kernelPoolDir();
  ensurePoolDir(dir);
  const identity = launchIdentity();
  const file = socketPath(dir, identity);
  const idleMs = Math.max(1, Number(process.env['NIGHTHAWK_KERNEL_POOL_IDLE_S'] ?? 600) || 600) * 1000;
  const log = (line: string): void => void process.stderr.write(`${new Date().toISOString()} pool ${process.pid}: ${line}\n`);
  let spare: Spare | undefined;
  let warmTimer: ReturnType<typeof setTimeout> | undefined;
  let lastLaunch = Date.now();
  let handedOut = 0;
  let stopping = false;

  const startSpare = (root: string, dataDir: string | undefined): void => {
    if (stopping) return;
    let settle!: (warm: boolean) => void;
    const ready = new Promise<boolean>((resolve) => (settle = resolve));
    const child = fork(CLI_PATH, ['kernel', 'pool', 'spare'], {
      cwd: root,
      env: { ...process.env, ...(dataDir === undefined ? {} : { NIGHTHAWK_POOL_SPARE_DATA_DIR: dataDir }) },
      execArgv: process.execArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const current: Spare = { child, root, dataDir, state: 'warming', ready };
    spare = current;
    log(`spare ${child.pid} warming in ${root}`);
    child.on('message', (message: unknown) => {
      if ((message as { kind?: unknown } | null)?.kind !== 'ready' || current.state !== 'warming') return;
      current.state = 'ready';
      log(`spare ${child.pid} is warm in ${root}`);
      settle(true);
    });
    child.on('error', (error) => log(`spare could not start: ${error.message}`));
    child.on('exit', (code, signal) => {
      if (current.state !== 'gone') log(`spare ${child.pid} exited (${signal ?? code}) before it was handed out`);
      current.state = 'gone';
      if (spare === current) spare = undefined;
      settle(false);
    });
  };

  /** The spare serves `root` from `delayMs` on (a spare already there for it is kept). */
  const warm = (root: string, dataDir: string | undefined, delayMs: number): void => {
    if (spare && spare.root === root && spare.dataDir === dataDir) return;
    clearTimeout(warmTimer);
    warmTimer = setTimeout(() => {
      warmTimer = undefined;
      if (spare && spare.root === root && spare.dataDir === dataDir) return;
      dropSpare();
      startSpare(root, dataDir);
    }, delayMs);
  };

  const dropSpare = (): void => {
    const current = spare;
    spare = undefined;
    if (!current || current.state === 'gone') return;
    current.state = 'gone';
    current.child.kill('SIGTERM');
  };

  const reply = (socket: net.Socket, message: PoolReply): void => {
    if (socket.destroyed) return;
    sendLine(socket, message);
    socket.end();
  };

  const launch = async (socket: net.Socket, request: LaunchRequest): Promise<void> => {
    lastLaunch = Date.now();
    if (request.identity !== identity) return reply(socket, { kind: 'none', reason: 'this pool serves another build, Node or environment' });
    const candidate = spare;
    if (!candidate || candidate.root !== request.root || candidate.dataDir !== request.dataDir) {
      reply(socket, { kind: 'none', reason: `no spare for ${request.root}` });
      return warm(request.root, request.dataDir, WARM_DELAY_MS);
    }
    // Claimed: a second launch meanwhile starts cold rather than share it.
    spare = undefined;
    const warmNow = await candidate.ready;
    if (!warmNow || candidate.state !== 'ready') {
      reply(socket, { kind: 'none', reason: 'the spare exited while warming' });
      return warm(request.root, request.dataDir, WARM_DELAY_MS);
    }
    if (socket.destroyed || socket.readableEnded) {
      // The launcher gave up waiting and started cold: the spare stays for the next launch.
      spare = candidate;
      return;
    }
    candidate.state = 'gone';
    candidate.child.send({ kind: 'launch', request }, socket, (error) => {
      if (!error) return;
      log(`could not hand the launch to spare ${candidate.child.pid}: ${error.message}`);
      candidate.child.kill('SIGTERM');
      reply(socket, { kind: 'none', reason: 'the spare could not take the launch' });
    });
    // Its IPC channel is the spare's to close; the daemon no longer waits for it.
    candidate.child.unref();
    handedOut++;
    log(`handed spare ${candidate.child.pid} to launcher ${request.launcherPid} (${request.connectionFile})`);
    warm(request.root, request.dataDir, REFILL_DELAY_MS);
  };

  const server = net.createServer((socket) => {
    socket.on('error', () => {});
    void readLine(socket, REQUEST_TIMEOUT_MS).then((value) => {
      const parsed = PoolRequestSchema.safeParse(value);
      if (!parsed.success) return reply(socket, { kind: 'none', reason: 'not a pool request' });
      const request = parsed.data;
      if (request.kind === 'status') {
        const spares: SpareStatus[] = spare && spare.state !== 'gone' ? [{ pid: spare.child.pid ?? 0, root: spare.root, ...(spare.dataDir === undefined ? {} : { dataDir: spare.dataDir }), state: spare.state }] : [];
        return reply(socket, { kind: 'status', pid: process.pid, identity, handedOut, spares });
      }
      if (request.kind === 'stop') {
        reply(socket, { kind: 'stopping' });
        return stop('asked to stop');
      }
      return launch(socket, request);
    });
  });

  const stop = (why: string): void => {
    if (stopping) return;
    stopping = true;
    log(`stopping: ${why}`);
    clearTimeout(warmTimer);
    clearInterval(checks);
    dropSpare();
    // The socket file goes first, so a launch from now on finds no daemon and starts one of its own.
    server.close();
    setTimeout(() => process.exit(0), 100).unref();
  };

  await listen(server, file);
  const inode = statSync(file).ino;
  log(`serving ${file} (idle exit after ${idleMs / 1000} s)`);
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGHUP', () => {});
  const checks = setInterval(() => {
    if (Date.now() - lastLaunch > idleMs) return stop('idle');
    let current: number | undefined;
    try {
      current = statSync(file).ino;
    } catch {
      // removed
    }
    if (current !== inode) stop('its socket file was removed or replaced');
  }, CHECK_INTERVAL_MS);
  warm(process.cwd(), options.dataDir, WARM_DELAY_MS);
}

/** Listens on `file`; a stale socket (nobody accepting) is replaced, a live daemon there ends this one. */
async function listen(server: net.Server, file: string): Promise<void> {
  const attempt = (): Promise<NodeJS.ErrnoException | undefined> =>
    new Promise((resolve) => {
      const onError = (error: NodeJS.ErrnoException): void => resolve(error);
      server.once('error', onError);
      // Created by this user only: the directory is already private, this covers the socket itself.
      const mask = process.umask(0o077);
      server.listen(file, () => {
        server.off('error', onError);
        resolve(undefined);
      });
      process.umask(mask);
    });
  const first = await attempt();
  if (!first) return;
  if (first.code !== 'EADDRINUSE') throw first;
  const live = await new Promise<boolean>((resolve) => {
    const probe = net.connect(file);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
  if (live) {
    process.stderr.write(`${new Date().toISOString()} pool ${process.pid}: another daemon serves ${file}; exiting\n`);
    process.exit(0);
  }
  if (existsSync(file)) unlinkSync(file);
  const second = await attempt();
  if (second) throw second;
}
