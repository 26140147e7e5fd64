/**
 * Installs and removes the Jupyter kernelspec: `kernel.json` (argv running this build's CLI with
 * `kernel run --connection-file {connection_file}`) and logos, in the directories jupyter_core searches.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { logoPng } from './logo-png.js';

export const DEFAULT_KERNEL_NAME = 'nighthawk';
export const DISPLAY_NAME = 'Nighthawk TS';

/** Where a kernelspec goes: the user's Jupyter data dir, `<prefix>/share/jupyter`, or the system dir. */
export type SpecLocation = { kind: 'user' } | { kind: 'prefix'; prefix: string } | { kind: 'system' };

export interface InstallOptions {
  location: SpecLocation;
  name?: string;
  displayName?: string;
  /** Directory the Session's ledger persists in; passed to `kernel run --data-dir` (`~/…` expands per user). */
  dataDir?: string;
  /** The CLI the kernel runs; defaults to the built `cli.js` of this package. */
  cliPath?: string;
}

export interface KernelJson {
  argv: string[];
  display_name: string;
  language: 'typescript';
  interrupt_mode: 'signal';
  metadata: { nighthawk: { cli: string } };
}

/** jupyter_core's `jupyter_data_dir()`: JUPYTER_DATA_DIR, else the platform's per-user directory. */
export function userDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env['JUPYTER_DATA_DIR']) return env['JUPYTER_DATA_DIR'];
  const home = os.homedir();
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Jupyter');
  if (process.platform === 'win32') return path.join(env['APPDATA'] ?? path.join(home, 'AppData', 'Roaming'), 'jupyter');
  return path.join(env['XDG_DATA_HOME'] ?? path.join(home, '.local', 'share'), 'jupyter');
}

export function kernelsDir(location: SpecLocation): string {
  switch (location.kind) {
    case 'user':
      return path.join(userDataDir(), 'kernels');
    case 'prefix':
      return path.join(path.resolve(location.prefix), 'share', 'jupyter', 'kernels');
    case 'system':
      return process.platform === 'win32'
        ? path.join(process.env['PROGRAMDATA'] ?? 'C:\\ProgramData', 'jupyter', 'kernels')
        : '/usr/local/share/jupyter/kernels';
  }
}

/** `dist/kernel/src/cli.js` of this build (this file is `dist/kernel/src/server/zmq/kernelspec.js`). */
export function builtCliPath(): string {
  return fileURLToPath(new URL('../../cli.js', import.meta.url));
}

export function kernelJson(options: Omit<InstallOptions, 'location'>): KernelJson {
  const cli = options.cliPath ?? builtCliPath();
  // Without forced async-hook checks, a loop in a timer callback stopped by the interrupt watchdog
  // (kernel/interrupt-watchdog.ts) leaves the kernel running instead of aborting it. A 2 MB young generation
  // (Node's default grows it to 16 MB), as for the web notebook's kernels, keeps the process ~20 MB smaller:
  // no larger than tslab's kernel after its first cell (bench/zmq-kernel.bench.ts prints both).
  const argv = [process.execPath, '--no-force-async-hooks-checks', '--max-semi-space-size=2', cli, 'kernel', 'run', '--connection-file', '{connection_file}'];
  // `~/…` stays literal and is expanded by each kernel under its own user's home (shared JupyterHub images).
  if (options.dataDir) argv.push('--data-dir', options.dataDir.startsWith('~') ? options.dataDir : path.resolve(options.dataDir));
  return {
    argv,
    display_name: options.displayName ?? DISPLAY_NAME,
    language: 'typescript',
    // Synchronous cell code can only be stopped by a signal (the event loop that would read an
    // interrupt_request is the one the cell occupies); interrupt_request is answered too.
    interrupt_mode: 'signal',
    metadata: { nighthawk: { cli } },
  };
}

/** `~` and `~/…` under the running user's home directory; other paths unchanged. */
export function expandHome(dir: string): string {
  return dir === '~' ? os.homedir() : dir.startsWith('~/') ? path.join(os.homedir(), dir.slice(2)) : dir;
}

/** Writes the kernelspec directory and returns its path. */
export function installKernelspec(options: InstallOptions): string {
  const dir = path.join(kernelsDir(options.location), options.name ?? DEFAULT_KERNEL_NAME);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'kernel.json'), JSON.stringify(kernelJson(options), null, 2) + '\n');
  writeFileSync(path.join(dir, 'logo-64x64.png'), logoPng(64));
  writeFileSync(path.join(dir, 'logo-32x32.png'), logoPng(32));
  return dir;
}

/** Removes the kernelspec; returns its path, or undefined when it was not installed there. */
export function uninstallKernelspec(location: SpecLocation, name = DEFAULT_KERNEL_NAME): string | undefined {
  const dir = path.join(kernelsDir(location), name);
  if (!existsSync(path.join(dir, 'kernel.json'))) return undefined;
  rmSync(dir, { recursive: true, force: true });
  return dir;
}
