/**
 * Installs and removes the Jupyter kernelspec: `kernel.json` (argv running this build's CLI with
 * `kernel run --connection-file {connection_file}`) and logos, in the directories jupyter_core searches;
 * and, on request, the prebuilt JupyterLab renderer extension (labextension/prebuilt) beside it.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NighthawkError } from '../../core/index.js';
import { logoPng } from './logo-png.js';
import { STAND_IN_SCRIPT, STAND_IN_SCRIPT_NAME } from './pool-stand-in.js';
import { KERNEL_ENV } from '../kernel/index.js';

export { expandHome } from './cells-root.js';

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
  /** false: kernels always start cold, never from the kernel pool (`NIGHTHAWK_KERNEL_POOL=off` in the spec's env). */
  pool?: boolean;
}

export interface KernelJsonOptions extends Omit<InstallOptions, 'location'> {
  /** The stand-in shell script (pool-stand-in.ts) argv runs the kernel's command line through. */
  launcherScript?: string;
}

export interface KernelJson {
  argv: string[];
  display_name: string;
  language: 'typescript';
  interrupt_mode: 'signal';
  /** Added to the kernel's environment by Jupyter (see kernel-env.ts). */
  env: Record<string, string>;
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

/** The Jupyter data directory of a location (holds `kernels/` and `labextensions/`). */
export function jupyterDataDir(location: SpecLocation): string {
  switch (location.kind) {
    case 'user':
      return userDataDir();
    case 'prefix':
      return path.join(path.resolve(location.prefix), 'share', 'jupyter');
    case 'system':
      return process.platform === 'win32' ? path.join(process.env['PROGRAMDATA'] ?? 'C:\\ProgramData', 'jupyter') : '/usr/local/share/jupyter';
  }
}

export function kernelsDir(location: SpecLocation): string {
  return path.join(jupyterDataDir(location), 'kernels');
}

/** `--sys-prefix`: `sys.prefix` of the Python on PATH (the environment Jupyter runs from, e.g. an active venv). */
export function sysPrefix(env: NodeJS.ProcessEnv = process.env): string {
  const python = process.platform === 'win32' ? 'python' : 'python3';
  const probe = spawnSync(python, ['-c', 'import sys; print(sys.prefix)'], { env, encoding: 'utf8' });
  const prefix = probe.status === 0 ? probe.stdout.trim() : '';
  if (!prefix) {
    const why = probe.error ? probe.error.message : `exit ${probe.status}: ${probe.stderr.trim()}`;
    throw new NighthawkError('usage', `--sys-prefix asks ${python} for sys.prefix, and that failed (${why}); activate the Python environment Jupyter runs in, or pass --prefix <dir>`);
  }
  return prefix;
}

/** `dist/kernel/src/cli.js` of this build (this file is `dist/kernel/src/server/zmq/kernelspec.js`). */
export function builtCliPath(): string {
  return fileURLToPath(new URL('../../cli.js', import.meta.url));
}

export function kernelJson(options: KernelJsonOptions): KernelJson {
  const cli = options.cliPath ?? builtCliPath();
  // Without forced async-hook checks, a loop in a timer callback stopped by the interrupt watchdog
  // (kernel/interrupt-watchdog.ts) leaves the kernel running instead of aborting it. A 2 MB young generation
  // (Node's default grows it to 16 MB), as for the web notebook's kernels, keeps the process ~20 MB smaller:
  // no larger than tslab's kernel after its first cell (bench/zmq-kernel.bench.ts prints both).
  const argv = [process.execPath, '--no-force-async-hooks-checks', '--max-semi-space-size=2', cli, 'kernel', 'run', '--connection-file', '{connection_file}'];
  // `~/…` stays literal and is expanded by each kernel under its own user's home (shared JupyterHub images).
  if (options.dataDir) argv.push('--data-dir', options.dataDir.startsWith('~') ? options.dataDir : path.resolve(options.dataDir));
  return {
    argv: options.launcherScript === undefined ? argv : ['/bin/sh', options.launcherScript, ...argv],
    display_name: options.displayName ?? DISPLAY_NAME,
    language: 'typescript',
    // Synchronous cell code can only be stopped by a signal (the event loop that would read an
    // interrupt_request is the one the cell occupies); interrupt_request is answered too.
    interrupt_mode: 'signal',
    env: { ...KERNEL_ENV, ...(options.pool === false ? { NIGHTHAWK_KERNEL_POOL: 'off' } : {}) },
    metadata: { nighthawk: { cli } },
  };
}


/** Writes the kernelspec directory and returns its path. */
export function installKernelspec(options: InstallOptions): string {
  const dir = path.join(kernelsDir(options.location), options.name ?? DEFAULT_KERNEL_NAME);
  mkdirSync(dir, { recursive: true });
  // A pooled kernel's launcher is a shell, not a second Node process (pool-stand-in.ts); the pool is POSIX only.
  const script = path.join(dir, STAND_IN_SCRIPT_NAME);
  const shell = options.pool !== false && process.platform !== 'win32';
  if (shell) writeFileSync(script, STAND_IN_SCRIPT, { mode: 0o755 });
  else rmSync(script, { force: true });
  writeFileSync(path.join(dir, 'kernel.json'), JSON.stringify(kernelJson({ ...options, ...(shell ? { launcherScript: script } : {}) }), null, 2) + '\n');
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

/** The directory name JupyterLab finds the extension under (`share/jupyter/labextensions/<name>/`). */
export const LAB_EXTENSION_NAME = 'nighthawk-ts-renderer';

/** The prebuilt lab extension is missing or incomplete, so nothing was installed. */
export class LabExtensionError extends NighthawkError {
  readonly source: string;
  constructor(source: string, problem: string) {
    super('lab-extension', `${problem} (in ${source}); build it with \`npm run build:labextension\` in the nighthawk-ts checkout, or pass --lab-extension-dir <dir> naming a built one`);
    this.source = source;
  }
}

export function labExtensionsDir(location: SpecLocation): string {
  return path.join(jupyterDataDir(location), 'labextensions');
}

/** `labextension/prebuilt` of this package (found upward from this module, in source and in dist). */
export function prebuiltLabExtension(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'nighthawk-ts') return path.join(dir, 'labextension', 'prebuilt');
    const up = path.dirname(dir);
    if (up === dir) return path.join(path.dirname(fileURLToPath(import.meta.url)), 'labextension', 'prebuilt');
    dir = up;
  }
}

/** Fails closed unless `source` is a federated build JupyterLab can load: its package.json names the remoteEntry that exists. */
export function checkLabExtensionBuild(source: string): { load: string } {
  const manifest = path.join(source, 'package.json');
  if (!existsSync(manifest)) throw new LabExtensionError(source, 'the prebuilt JupyterLab extension is missing: no package.json');
  let meta: { name?: unknown; jupyterlab?: { _build?: { load?: unknown; mimeExtension?: unknown } } };
  try {
    meta = JSON.parse(readFileSync(manifest, 'utf8')) as typeof meta;
  } catch (error) {
    throw new LabExtensionError(source, `package.json is not JSON (${(error as Error).message})`);
  }
  if (meta.name !== LAB_EXTENSION_NAME) throw new LabExtensionError(source, `package.json names ${JSON.stringify(meta.name)}, not ${LAB_EXTENSION_NAME}`);
  const load = meta.jupyterlab?._build?.load;
  if (typeof load !== 'string' || typeof meta.jupyterlab?._build?.mimeExtension !== 'string') {
    throw new LabExtensionError(source, 'package.json has no jupyterlab._build (load, mimeExtension): this is the unbuilt source package, not the output of build-labextension');
  }
  if (!existsSync(path.join(source, load))) throw new LabExtensionError(source, `the remoteEntry ${load} named by package.json is missing`);
  return { load };
}

/** Copies the prebuilt extension to `<data dir>/labextensions/nighthawk-ts-renderer/` (replacing an older copy); returns that path. */
export function installLabExtension(location: SpecLocation, source = prebuiltLabExtension()): string {
  checkLabExtensionBuild(source);
  const dest = path.join(labExtensionsDir(location), LAB_EXTENSION_NAME);
  // A stale copy would keep its old remoteEntry.<hash>.js beside the new one.
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(path.dirname(dest), { recursive: true });
  cpSync(source, dest, { recursive: true });
  // jupyterlab_server shows this in the extension manager (how it was installed, how to remove it).
  writeFileSync(
    path.join(dest, 'install.json'),
    JSON.stringify({ packageManager: 'npm', packageName: 'nighthawk-ts', uninstallInstructions: 'nighthawk-ts kernel uninstall (same --user/--prefix/--sys-prefix/--system as the install)' }, null, 2) + '\n',
  );
  return dest;
}

/** Nighthawk kernelspecs (kernel.json with metadata.nighthawk) left in a location. */
export function nighthawkKernelspecs(location: SpecLocation): string[] {
  const dir = kernelsDir(location);
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((name) => {
    try {
      const spec = JSON.parse(readFileSync(path.join(dir, name, 'kernel.json'), 'utf8')) as { metadata?: { nighthawk?: unknown } };
      return spec.metadata?.nighthawk !== undefined;
    } catch {
      return false;
    }
  });
}

export type LabExtensionRemoval = { removed: string } | { kept: string; usedBy: string[] } | { absent: string };

/** Removes the installed extension, unless another Nighthawk kernelspec in the same location still renders with it. */
export function uninstallLabExtension(location: SpecLocation): LabExtensionRemoval {
  const dest = path.join(labExtensionsDir(location), LAB_EXTENSION_NAME);
  if (!existsSync(dest)) return { absent: dest };
  const usedBy = nighthawkKernelspecs(location);
  if (usedBy.length > 0) return { kept: dest, usedBy };
  rmSync(dest, { recursive: true, force: true });
  return { removed: dest };
}
