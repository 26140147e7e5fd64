/**
 * The launcher side of the kernel pool (`nighthawk-ts kernel run`, before anything heavy loads). It asks the
 * pool's daemon for a warm kernel process; when one takes the launch, something stands in for it as the
 * process Jupyter started, relaying SIGINT (the kernelspec's interrupt_mode), SIGTERM and SIGHUP, exiting when it
 * exits, and ending it when the stand-in dies (even by SIGKILL, which cannot be relayed). With a kernelspec
 * `kernel install` wrote, that is the shell which ran this process (`--pool-stand-in`, pool-stand-in.ts): this
 * process prints the kernel's pid and exits. Run directly, this process stands in, and the kernel sees its
 * connection close when it dies. Otherwise the kernel starts cold, and a daemon is started for the next launch.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, statSync, truncateSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { cellsRoot, expandHome, reportCellsRoot } from './cells-root.js';
import {
  CLI_PATH,
  ensurePoolDir,
  kernelPoolDir,
  kernelPoolEnabled,
  launchIdentity,
  logPath,
  perLaunchEnv,
  readLine,
  sendLine,
  sharedEnv,
  socketPath,
  type PoolReply,
} from './kernel-pool.js';
import { pidFrom, watchParent } from './parent-poll.js';
import { checkStandInDir, STAND_IN_PARENT_VARIABLE } from './pool-stand-in.js';

/** A daemon answers at once; a socket nobody accepts on within this is treated as no daemon. */
const CONNECT_TIMEOUT_MS = 500;
/** A spare still warming is waited for (it is nearer to ready than a cold start); beyond this, start cold. */
const REPLY_TIMEOUT_MS = 15_000;
/** The pool's log is cut back to nothing when a daemon starts and it has grown past this. */
const LOG_LIMIT_BYTES = 1024 * 1024;

export interface PoolLaunch {
  connectionFile: string;
  dataDir?: string;
  hostModule?: string;
  /** The stand-in shell's FIFO directory: on a hand-out, print the kernel's pid instead of standing in. */
  standIn?: string;
}

function connect(file: string): Promise<net.Socket | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(file);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(undefined);
    }, CONNECT_TIMEOUT_MS);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once('error', () => {
      clearTimeout(timer);
      resolve(undefined);
    });
  });
}

function isReply(value: unknown): value is PoolReply {
  if (typeof value !== 'object' || value === null) return false;
  const reply = value as { kind?: unknown; pid?: unknown; message?: unknown };
  if (reply.kind === 'kernel') return Number.isInteger(reply.pid) && (reply.pid as number) > 1;
  if (reply.kind === 'error') return typeof reply.message === 'string';
  return reply.kind === 'none';
}

/**
 * Starts this launch's daemon (detached: it outlives this kernel), in the kernel's cells root, with this
 * process's flags and its environment minus the per-launch variables: exactly what its spares will be.
 */
function startDaemon(dir: string, identity: string, root: string, dataDir: string | undefined): void {
  const log = logPath(dir, identity);
  try {
    if (statSync(log).size > LOG_LIMIT_BYTES) truncateSync(log, 0);
  } catch {
    // no log yet
  }
  let fd: number | undefined;
  try {
    fd = openSync(log, 'a', 0o600);
    const args = [...process.execArgv, CLI_PATH, 'kernel', 'pool', 'serve', ...(dataDir === undefined ? [] : ['--data-dir', dataDir])];
    const child = spawn(process.execPath, args, { cwd: root, env: sharedEnv(process.env), detached: true, stdio: ['ignore', fd, fd] });
    child.on('error', () => {}); // a kernel that cannot start its pool still starts cold
    child.unref();
  } catch {
    // as above
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Stands in for the pooled kernel `pid` until it exits; the open socket keeps this process alive. */
function standInFor(socket: net.Socket, pid: number): void {
  const relay = (signal: NodeJS.Signals) => () => {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone: the socket's close ends this process
    }
  };
  process.on('SIGINT', relay('SIGINT'));
  process.on('SIGTERM', relay('SIGTERM'));
  process.on('SIGHUP', relay('SIGHUP'));
  socket.on('error', () => {});
  socket.on('close', () => process.exit(0));
  socket.resume();
  // A launcher whose client died ends its kernel, as a cold kernel would end itself (parent-poll.ts).
  watchParent(() => {
    relay('SIGTERM')();
    process.exit(0);
  });
}

/** The client the stand-in shell named (its own parent), when this process asks for one; else undefined. */
function standInParent(options: PoolLaunch): number | undefined {
  const named = pidFrom(process.env[STAND_IN_PARENT_VARIABLE]);
  delete process.env[STAND_IN_PARENT_VARIABLE];
  return options.standIn !== undefined ? named : undefined;
}

/**
 * True when a pooled kernel took the launch (this process now stands in for it); false when the kernel
 * should start cold in this process. Exits with status 1 when the pooled process could not serve the
 * connection file, with the reason on stderr, as a cold start meeting the same failure would.
 */
export async function launchFromPool(options: PoolLaunch): Promise<boolean> {
  // Read and removed first: it is not part of the launch's identity, nor of a daemon this process starts.
  const clientPid = standInParent(options);
  // Another host module is another kernel: the pool's spares load this build's Session host.
  if (options.hostModule !== undefined || !kernelPoolEnabled()) return false;
  const dir = kernelPoolDir();
  try {
    ensurePoolDir(dir);
  } catch (error) {
    process.stderr.write(`kernel pool: ${error instanceof Error ? error.message : String(error)}; starting this kernel cold\n`);
    return false;
  }
  const identity = launchIdentity();
  const root = cellsRoot();
  const dataDir = options.dataDir === undefined ? undefined : path.resolve(expandHome(options.dataDir));
  if (options.standIn !== undefined) {
    try {
      checkStandInDir(options.standIn);
    } catch (error) {
      process.stderr.write(`kernel pool: ${error instanceof Error ? error.message : String(error)}; starting this kernel cold\n`);
      return false;
    }
  }
  const socket = await connect(socketPath(dir, identity));
  if (!socket) {
    startDaemon(dir, identity, root, dataDir);
    return false;
  }
  sendLine(socket, {
    kind: 'launch',
    identity,
    root,
    connectionFile: path.resolve(options.connectionFile),
    ...(dataDir === undefined ? {} : { dataDir }),
    env: perLaunchEnv(process.env),
    // The process Jupyter started: the shell when one stands in.
    launcherPid: options.standIn === undefined ? process.pid : process.ppid,
    ...(options.standIn === undefined ? {} : { standIn: path.resolve(options.standIn) }),
    ...(clientPid === undefined ? {} : { clientPid }),
  });
  const reply = await readLine(socket, REPLY_TIMEOUT_MS);
  if (isReply(reply) && reply.kind === 'kernel') {
    reportCellsRoot(root);
    if (options.standIn === undefined) {
      standInFor(socket, reply.pid);
    } else {
      socket.destroy();
      process.stdout.write(`${reply.pid}\n`);
    }
    return true;
  }
  socket.destroy();
  if (isReply(reply) && reply.kind === 'error') {
    process.stderr.write(`${reply.message}\n`);
    process.exit(1);
  }
  return false;
}
