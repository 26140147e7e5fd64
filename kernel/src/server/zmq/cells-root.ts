/**
 * Where a kernel's cells resolve imports from. Light on purpose (node built-ins only): the kernel pool's
 * launcher needs it before it decides whether to load the kernel at all.
 */
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root of this build (this file is `<root>/dist/kernel/src/server/zmq/cells-root.js`). */
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

/**
 * Jupyter starts kernels in the notebook's directory. Cells resolve imports (and tslab type-checks them) from
 * the working directory, so a notebook outside any project that has this library runs from the package root.
 */
export function cellsRoot(cwd: string = process.cwd()): string {
  return canImportLibrary(cwd) ? cwd : packageRootOfBuild();
}

/** Said on stderr when the notebook's directory cannot import the library and cells run from the package root. */
export function reportCellsRoot(root: string, cwd: string = process.cwd()): void {
  if (root !== cwd) process.stderr.write(`kernel: ${cwd} cannot import nighthawk-ts; running cells from ${root}\n`);
}

/** `~` and `~/…` (a kernelspec's `--data-dir`, written for every user) in this user's home. */
export function expandHome(dir: string): string {
  return dir === '~' ? os.homedir() : dir.startsWith('~/') ? path.join(os.homedir(), dir.slice(2)) : dir;
}
