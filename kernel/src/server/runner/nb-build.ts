/**
 * Makes sure the built library (what notebook cells import as `nighthawk-ts`, and the Session host) is
 * present and not older than its sources, building it with `tsc -p tsconfig.build.json` otherwise.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { KernelProcessError } from '../kernel/index.js';

/** The repository root (the package whose `exports` cells import). */
export function packageRoot(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
}

/** The Session host module inside the built library. */
export function builtHostModule(root = packageRoot()): string {
  return path.join(root, 'dist', 'kernel', 'src', 'server', 'display', 'session-host.js');
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(abs));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(abs).mtimeMs);
  }
  return newest;
}

/** True when dist is missing or any library source is newer than the built host module. */
export function buildIsStale(root = packageRoot()): boolean {
  const host = builtHostModule(root);
  if (!existsSync(host)) return true;
  const built = statSync(host).mtimeMs;
  return [path.join(root, 'kernel', 'src'), path.join(root, 'shared')].some((dir) => existsSync(dir) && newestMtime(dir) > built);
}

/**
 * Builds when stale. tsc still emits JavaScript when it reports type errors (another change may be in
 * progress); that counts as built if the host module exists afterwards, with a warning.
 */
export function ensureBuilt(log: (line: string) => void, root = packageRoot()): void {
  if (!buildIsStale(root)) return;
  log('building the library (dist/ is missing or older than the sources)…');
  try {
    execFileSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'pipe' });
  } catch (error) {
    if (!existsSync(builtHostModule(root))) {
      const output = String((error as { stdout?: Buffer }).stdout ?? '').split('\n').slice(0, 10).join('\n');
      throw new KernelProcessError({ message: `The library build failed and ${builtHostModule(root)} is missing:\n${output}` });
    }
    log('warning: the build reported type errors; using the emitted JavaScript');
  }
}
