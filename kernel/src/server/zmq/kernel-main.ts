/**
 * The process side of `nighthawk-ts kernel run`: the working directory cells resolve imports from, process-wide
 * error handlers (an escaped rejection must not end the Session), and the kernel itself.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expandHome } from './kernelspec.js';
import { watchParent } from './parent-poll.js';
import { startZmqKernel, type ZmqKernelOptions } from './zmq-kernel.js';

/** The package root of this build (this file is `<root>/dist/kernel/src/server/zmq/kernel-main.js`). */
export function packageRootOfBuild(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', '..');
}

/** True when code in `dir` can import `nighthawk-ts` (inside the package itself, or a project that installed it). */
export function canImportLibrary(dir: string): boolean {
  try {
    createRequire(path.join(dir, '__cell__.js')).resolve('nighthawk-ts');
    return true;
  } catch {
    return false;
  }
}

export async function runKernelProcess(options: ZmqKernelOptions): Promise<void> {
  // Jupyter starts kernels in the notebook's directory. Cells resolve imports (and tslab type-checks them)
  // from the working directory, so a notebook outside any project that has this library runs from its root.
  if (!canImportLibrary(process.cwd())) {
    const root = packageRootOfBuild();
    process.stderr.write(`kernel: ${process.cwd()} cannot import nighthawk-ts; running cells from ${root}\n`);
    process.chdir(root);
  }
  process.on('unhandledRejection', (reason) => {
    process.stderr.write(`Unhandled rejection: ${reason instanceof Error ? reason.stack ?? reason.message : String(reason)}\n`);
  });
  process.on('uncaughtException', (error) => {
    process.stderr.write(`Uncaught exception: ${error.stack ?? error.message}\n`);
  });
  const kernel = await startZmqKernel({ ...options, dataDir: options.dataDir === undefined ? undefined : expandHome(options.dataDir) });
  // A kernel whose client died (jupyter console killed, a Python client gone) exits too, as ipykernel does.
  watchParent((parentPid) => {
    process.stderr.write(`kernel: parent process ${parentPid} is gone; shutting down\n`);
    void kernel.close().finally(() => process.exit(0));
  });
  await kernel.ready;
}
