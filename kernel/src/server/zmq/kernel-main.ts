/**
 * The process side of `nighthawk-ts kernel run`: the working directory cells resolve imports from, process-wide
 * error handlers (an escaped rejection must not end the Session), and the kernel itself.
 */
import { describeEscapedError } from '../kernel/index.js';
import { cellsRoot, expandHome, reportCellsRoot } from './cells-root.js';
import { watchParent } from './parent-poll.js';
import { startZmqKernel, type ZmqKernelOptions } from './zmq-kernel.js';

/** An escaped rejection or exception must not end the Session: it is reported on stderr and the kernel goes on. */
export function keepProcessAlive(): void {
  process.on('unhandledRejection', (reason) => {
    process.stderr.write(`Unhandled rejection: ${describeEscapedError(reason)}\n`);
  });
  process.on('uncaughtException', (error) => {
    process.stderr.write(`Uncaught exception: ${describeEscapedError(error)}\n`);
  });
}

export async function runKernelProcess(options: ZmqKernelOptions): Promise<void> {
  const root = cellsRoot();
  reportCellsRoot(root);
  if (root !== process.cwd()) process.chdir(root);
  keepProcessAlive();
  const kernel = await startZmqKernel({ ...options, dataDir: options.dataDir === undefined ? undefined : expandHome(options.dataDir) });
  // A kernel whose client died (jupyter console killed, a Python client gone) exits too, as ipykernel does.
  watchParent(() => void kernel.close().finally(() => process.exit(0)));
  await kernel.ready;
}
