/**
 * A spare kernel process of the kernel pool (`nighthawk-ts kernel pool spare`, forked by the daemon in the
 * cells root it serves). It loads the compiler and the Session host and converts warm-up cells, tells the
 * daemon it is warm, and waits for one launch: the request and the launcher's socket. From then on it is that
 * launch's kernel: it takes the launch's per-launch variables, binds the connection file's ports, answers the
 * launcher with its pid, leaves the daemon, and lives exactly as long as the launcher: its connection, or, for
 * a launcher shell (pool-stand-in.ts), that shell's FIFO, and then also the Jupyter client (JPY_PARENT_PID), which
 * a node launcher watches itself.
 */
import type { Socket } from 'node:net';
import { keepProcessAlive } from './kernel-main.js';
import { PER_LAUNCH, sendLine, type LaunchRequest } from './kernel-pool.js';
import { watchParent } from './parent-poll.js';
import { openStandIn } from './pool-stand-in.js';
import { prepareCells, startZmqKernel, type PreparedCells } from './zmq-kernel.js';
import { codeCacheStale, saveCodeCache } from '../kernel/index.js';

export async function runPoolSpare(): Promise<void> {
  keepProcessAlive();
  const dataDir = process.env['NIGHTHAWK_POOL_SPARE_DATA_DIR'];
  delete process.env['NIGHTHAWK_POOL_SPARE_DATA_DIR'];
  let taken = false;
  // A daemon that died (or stopped) leaves nobody to hand this spare out.
  process.on('disconnect', () => {
    if (!taken) process.exit(0);
  });
  const launched = new Promise<{ request: LaunchRequest; socket: Socket }>((resolve) => {
    process.on('message', (message: unknown, handle: unknown) => {
      const m = message as { kind?: unknown; request?: LaunchRequest } | null;
      if (taken || m?.kind !== 'launch' || !m.request || !handle) return;
      taken = true;
      resolve({ request: m.request, socket: handle as Socket });
    });
  });
  const prepared = await prepareCells(undefined);
  // One warm-up conversion (the library imported, as a first cell usually does), not the further rounds the web
  // notebook's spares convert: those take ~35 ms off the first cell and leave the kernel ~14 MB larger for good.
  prepared.compiler.warmUp();
  // Before 'ready': opened later, they would block the kernel while it is in use.
  prepared.compiler.openWatchers();
  if (codeCacheStale()) saveCodeCache();
  process.send?.({ kind: 'ready' });
  const { request, socket } = await launched;
  await serveLaunch(request, socket, prepared, dataDir);
}

async function serveLaunch(request: LaunchRequest, socket: Socket, prepared: PreparedCells, dataDir: string | undefined): Promise<void> {
  // The variables a client sets per launch are this launch's; everything else already matched (the identity).
  for (const name of Object.keys(process.env)) if (PER_LAUNCH.test(name)) delete process.env[name];
  for (const [name, value] of Object.entries(request.env)) if (PER_LAUNCH.test(name)) process.env[name] = value;
  socket.on('error', () => {});
  let kernel: Awaited<ReturnType<typeof startZmqKernel>>;
  let shell: Socket | undefined;
  try {
    // Opened first: a shell already gone ends this kernel before it binds anything.
    if (request.standIn !== undefined) shell = openStandIn(request.standIn);
    kernel = await startZmqKernel({ connectionFile: request.connectionFile, dataDir, prepared });
  } catch (error) {
    sendLine(socket, { kind: 'error', message: error instanceof Error ? error.message : String(error) });
    socket.end(() => process.exit(1));
    return;
  }
  let ending = false;
  const end = (): void => {
    if (ending) return;
    ending = true;
    void kernel.close().finally(() => process.exit(0));
  };
  sendLine(socket, { kind: 'kernel', pid: process.pid });
  if (shell) {
    // The shell stands in for this process: when it is gone (exited, or was killed), so is this.
    shell.on('close', end);
    shell.on('error', end);
    shell.resume();
    // A node launcher watches the client itself; a shell does not. The client is JPY_PARENT_PID, else the
    // shell's parent (a shell launched by a client it was not told of: an independent launch, another client).
    watchParent(end, { clientOnly: true, clientPid: request.clientPid });
    socket.end();
  } else {
    // A node launcher stands in: when its connection closes (it exited, or was killed), so does this.
    socket.on('close', end);
    socket.resume();
  }
  process.disconnect?.();
  await kernel.ready;
}
