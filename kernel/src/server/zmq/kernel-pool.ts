/**
 * What the kernel pool's launcher, daemon and spares share: where the pool lives, which launches a pool may
 * serve, and the one-line JSON messages on its Unix socket. Node built-ins only: the launcher loads this
 * before it knows whether it will load the kernel at all.
 *
 * A pool serves launches that would start exactly the kernel its spares are: the same Node binary, flags,
 * build and environment (all but the variables a client sets per launch, PER_LAUNCH). That identity is the
 * socket's name, so a launch from another environment meets another daemon (or none) and never a spare
 * started with something it did not ask for. The directory is the user's alone (0700, checked): the socket
 * starts kernels as that user.
 */
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, statSync } from 'node:fs';
import type { Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Variables a Jupyter client sets for each kernel it starts; a spare takes them from the launch it serves. */
export const PER_LAUNCH = /^(?:JPY_[A-Z0-9_]*|KERNEL_ID|KERNEL_USERNAME|KERNEL_LAUNCH_TIMEOUT)$/;

/** Longest message line accepted on the socket (a launch carries a path or two and a few variables). */
export const MAX_LINE_BYTES = 64 * 1024;

/** `NIGHTHAWK_KERNEL_POOL=off` (or `0`, `false`, `no`) starts every kernel cold; POSIX only. */
export function kernelPoolEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const setting = (env['NIGHTHAWK_KERNEL_POOL'] ?? '').trim().toLowerCase();
  if (['0', 'off', 'false', 'no'].includes(setting)) return false;
  return process.platform !== 'win32' && typeof process.getuid === 'function';
}

/** `NIGHTHAWK_KERNEL_POOL_DIR`, else `$XDG_RUNTIME_DIR/nighthawk-kernels`, else `<tmp>/nighthawk-kernels-<uid>`. */
export function kernelPoolDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env['NIGHTHAWK_KERNEL_POOL_DIR']) return path.resolve(env['NIGHTHAWK_KERNEL_POOL_DIR']);
  if (env['XDG_RUNTIME_DIR']) return path.join(env['XDG_RUNTIME_DIR'], 'nighthawk-kernels');
  return path.join(os.tmpdir(), `nighthawk-kernels-${process.getuid?.() ?? 'user'}`);
}

export class KernelPoolUnavailable extends Error {
  override readonly name = 'KernelPoolUnavailable';
}

/**
 * Creates the pool directory if needed and checks it is this user's alone: a directory others can write to
 * (or a link planted there) could hand this user's launches to someone else's process.
 */
export function ensurePoolDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(dir);
  if (!stat.isDirectory()) throw new KernelPoolUnavailable(`${dir} is not a directory; remove it or set NIGHTHAWK_KERNEL_POOL_DIR`);
  if (stat.uid !== process.getuid?.()) throw new KernelPoolUnavailable(`${dir} belongs to uid ${stat.uid}, not this user; set NIGHTHAWK_KERNEL_POOL_DIR to a directory of your own`);
  if ((stat.mode & 0o077) !== 0) throw new KernelPoolUnavailable(`${dir} is open to other users (mode ${(stat.mode & 0o777).toString(8)}); chmod 700 it or set NIGHTHAWK_KERNEL_POOL_DIR`);
}

/** The environment without the per-launch variables: what a spare is started with and matched on. */
export function sharedEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && !PER_LAUNCH.test(name)) out[name] = value;
  return out;
}

export function perLaunchEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && PER_LAUNCH.test(name)) out[name] = value;
  return out;
}

/** This build's CLI (`<root>/dist/kernel/src/cli.js`), which launchers, daemons and spares all run. */
export const CLI_PATH = fileURLToPath(new URL('../../cli.js', import.meta.url));

/**
 * The identity of a kernel this process would start: Node binary and version, flags, the build (its CLI and
 * kernel modules, by modification time: a rebuild retires the daemons of the old one) and the shared environment.
 */
export function launchIdentity(env: NodeJS.ProcessEnv = process.env, execArgv: readonly string[] = process.execArgv): string {
  const built = [CLI_PATH, fileURLToPath(new URL('./zmq-kernel.js', import.meta.url))].map((file) => {
    try {
      return statSync(file).mtimeMs;
    } catch {
      return 0;
    }
  });
  const shared = Object.entries(sharedEnv(env)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const text = JSON.stringify([process.getuid?.(), process.execPath, process.version, execArgv, built, shared]);
  return createHash('sha256').update(text).digest('hex').slice(0, 24);
}

export const socketPath = (dir: string, identity: string): string => path.join(dir, `${identity}.sock`);
export const logPath = (dir: string, identity: string): string => path.join(dir, `${identity}.log`);

/** A launcher asks for a kernel; the daemon answers with one of PoolReply. */
export interface LaunchRequest {
  kind: 'launch';
  identity: string;
  /** Where the kernel's cells resolve imports from (the launcher's working directory or the package root). */
  root: string;
  connectionFile: string;
  dataDir?: string;
  /** The per-launch variables (JPY_PARENT_PID, JPY_SESSION_NAME, ...). */
  env: Record<string, string>;
  launcherPid: number;
  /**
   * The private directory of a shell launcher's FIFOs (pool-stand-in.ts): the kernel lives as long as that
   * shell instead of this request's connection, which ends once the reply is read.
   */
  standIn?: string;
  /**
   * The stand-in shell's parent: the client, watched by the kernel when JPY_PARENT_PID names none (a launch
   * jupyter_client does not own, another client), as a cold kernel watches the parent it started under.
   */
  clientPid?: number;
}

export type PoolRequest = LaunchRequest | { kind: 'status' } | { kind: 'stop' };

export interface SpareStatus {
  pid: number;
  root: string;
  dataDir?: string;
  state: 'warming' | 'ready';
}

export type PoolReply =
  /** A pooled process took the launch and serves the connection file; the socket now belongs to it. */
  | { kind: 'kernel'; pid: number }
  /** Nothing to hand out: start cold. */
  | { kind: 'none'; reason: string }
  /** The pooled process could not start the kernel (the same failure a cold start would meet). */
  | { kind: 'error'; message: string }
  | { kind: 'status'; pid: number; identity: string; handedOut: number; spares: SpareStatus[] }
  | { kind: 'stopping' };

export function sendLine(socket: Socket, message: PoolRequest | PoolReply): void {
  socket.write(JSON.stringify(message) + '\n');
}

/**
 * The first line the peer sends, parsed as JSON; undefined when the socket closes, errs or stays silent for
 * `timeoutMs` first, or the line is longer than MAX_LINE_BYTES or not JSON. Nothing after the line is read.
 */
export function readLine(socket: Socket, timeoutMs: number): Promise<unknown> {
  return new Promise((resolve) => {
    let buffered = '';
    const finish = (value: unknown): void => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onEnd);
      socket.off('error', onEnd);
      socket.pause();
      resolve(value);
    };
    const onEnd = (): void => finish(undefined);
    const onData = (chunk: Buffer): void => {
      buffered += chunk.toString('utf8');
      const end = buffered.indexOf('\n');
      if (end < 0) {
        if (buffered.length > MAX_LINE_BYTES) finish(undefined);
        return;
      }
      try {
        finish(JSON.parse(buffered.slice(0, end)));
      } catch {
        finish(undefined);
      }
    };
    const timer = setTimeout(onEnd, timeoutMs);
    socket.on('data', onData);
    socket.once('close', onEnd);
    socket.once('error', onEnd);
    socket.resume();
  });
}
