#!/usr/bin/env node
/**
 * The `nighthawk-ts` command.
 *   nighthawk-ts kernel install [--user | --prefix P | --sys-prefix | --system] [--name N] [--display-name D] [--data-dir D]
 *                               [--with-lab-extension [--lab-extension-dir D]]
 *   nighthawk-ts kernel uninstall [--user | --prefix P | --sys-prefix | --system] [--name N]
 *   nighthawk-ts kernel run --connection-file F [--data-dir D] [--host-module M] [--no-pool]
 *   nighthawk-ts kernel pool status | stop
 *   nighthawk-ts --help | --version
 * A bad command line exits with status 2 and one line naming what was wrong, then the usage.
 * Imports are dynamic so `kernel run` loads only what the kernel needs before it binds its sockets.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ParseArgsConfig } from 'node:util';
// A deep import (not the folder's index), so `kernel run` loads nothing else before it binds its sockets.
import { parseCommandLine } from './server/kernel/command-line.js';

const USAGE = `usage:
  nighthawk-ts kernel install [--user | --prefix P | --sys-prefix | --system] [--name N] [--display-name D] [--data-dir D]
                              [--with-lab-extension [--lab-extension-dir D]]
  nighthawk-ts kernel uninstall [--user | --prefix P | --sys-prefix | --system] [--name N]
  nighthawk-ts kernel run --connection-file F [--data-dir D] [--host-module M] [--no-pool]
  nighthawk-ts kernel pool status | stop
  nighthawk-ts --help | --version
install --no-pool writes a kernelspec whose kernels always start cold (NIGHTHAWK_KERNEL_POOL=off);
run --no-pool starts this kernel cold without asking the kernel pool;
--with-lab-extension also copies the prebuilt JupyterLab renderer to <data dir>/labextensions/nighthawk-ts-renderer;
uninstall removes it once no Nighthawk kernelspec is left in that location.`;

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

/** parseCommandLine, failing with status 2 on a refusal. */
function parseOptions<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T) {
  try {
    return parseCommandLine(args, options);
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
}

/** The version in this package's manifest, found upward from this file (built or run from source). */
function packageVersion(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (manifest.name === 'nighthawk-ts' && typeof manifest.version === 'string') return manifest.version;
    } catch {
      // no manifest here: look further up
    }
    if (path.dirname(dir) === dir) return 'unknown';
  }
}

async function main(argv: string[]): Promise<void> {
  if (argv[0] === 'help' || argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (argv[0] === '--version' || argv[0] === '-v') {
    process.stdout.write(`${packageVersion()}\n`);
    return;
  }
  const [group, action, ...rest] = argv;
  if (group === undefined) fail('missing command');
  if (group !== 'kernel') fail(`unknown command '${group}'`);
  if (!action) fail('missing kernel action (install, uninstall, run or pool)');
  if (action === 'pool') return pool(rest);
  const { values } = parseOptions(rest, {
    user: { type: 'boolean' },
    system: { type: 'boolean' },
    prefix: { type: 'string' },
    'sys-prefix': { type: 'boolean' },
    'with-lab-extension': { type: 'boolean' },
    'lab-extension-dir': { type: 'string' },
    name: { type: 'string' },
    'display-name': { type: 'string' },
    'data-dir': { type: 'string' },
    'connection-file': { type: 'string' },
    'host-module': { type: 'string' },
    'no-pool': { type: 'boolean' },
    // Set by the kernelspec's launcher shell only (pool-stand-in.ts): ask the pool, print the pid it handed out.
    'pool-stand-in': { type: 'string' },
  });
  if (action === 'run') {
    const file = values['connection-file'];
    if (!file) fail('kernel run needs --connection-file');
    // A warm process from the pool, when one is there for this launch, is handed the connection file; the
    // launcher loads only node built-ins to find out (./server/zmq/pool-launch.js is light on purpose).
    const standIn = values['pool-stand-in'];
    if (!values['no-pool']) {
      const { launchFromPool } = await import('./server/zmq/pool-launch.js');
      const options = { connectionFile: file, dataDir: values['data-dir'], hostModule: values['host-module'] };
      // The shell starts the kernel cold itself (exec) when nothing was printed.
      if (standIn !== undefined) return void (await launchFromPool({ ...options, standIn }));
      if (await launchFromPool(options)) return;
    } else if (standIn !== undefined) fail('--pool-stand-in and --no-pool exclude each other');
    const { runKernelProcess } = await import('./server/zmq/index.js');
    await runKernelProcess({ connectionFile: file, dataDir: values['data-dir'], hostModule: values['host-module'] });
    return;
  }
  const spec = await import('./server/zmq/index.js');
  const chosen = [values.user, values.system, values.prefix !== undefined, values['sys-prefix']].filter(Boolean).length;
  if (chosen > 1) fail('choose one of --user, --prefix, --sys-prefix and --system');
  if (action !== 'install' && values['no-pool']) fail('--no-pool is an install or run option');
  if (values['pool-stand-in'] !== undefined) fail('--pool-stand-in is a run option');
  if (action !== 'install' && (values['with-lab-extension'] || values['lab-extension-dir'] !== undefined)) fail(`--with-lab-extension is an install option (uninstall removes the extension by itself)`);
  if (values['lab-extension-dir'] !== undefined && !values['with-lab-extension']) fail('--lab-extension-dir needs --with-lab-extension');
  const location: import('./server/zmq/index.js').SpecLocation =
    values.prefix !== undefined
      ? { kind: 'prefix', prefix: values.prefix }
      : values['sys-prefix']
        ? { kind: 'prefix', prefix: spec.sysPrefix() }
        : values.system
          ? { kind: 'system' }
          : { kind: 'user' };
  if (action === 'install') {
    // Checked before anything is written: a missing build leaves no half-installed kernel.
    const labSource = values['with-lab-extension'] ? path.resolve(values['lab-extension-dir'] ?? spec.prebuiltLabExtension()) : undefined;
    if (labSource) spec.checkLabExtensionBuild(labSource);
    const dir = spec.installKernelspec({ location, name: values.name, displayName: values['display-name'], dataDir: values['data-dir'], pool: !values['no-pool'] });
    process.stdout.write(`Installed kernelspec ${values.name ?? spec.DEFAULT_KERNEL_NAME} in ${dir}\n`);
    if (labSource) process.stdout.write(`Installed JupyterLab extension ${spec.LAB_EXTENSION_NAME} in ${spec.installLabExtension(location, labSource)}\n`);
  } else if (action === 'uninstall') {
    const dir = spec.uninstallKernelspec(location, values.name);
    process.stdout.write(dir ? `Removed kernelspec ${dir}\n` : `No kernelspec ${values.name ?? spec.DEFAULT_KERNEL_NAME} in ${spec.kernelsDir(location)}\n`);
    const lab = spec.uninstallLabExtension(location);
    if ('removed' in lab) process.stdout.write(`Removed JupyterLab extension ${lab.removed}\n`);
    else if ('kept' in lab) process.stdout.write(`Kept JupyterLab extension ${lab.kept}: still used by kernelspec ${lab.usedBy.join(', ')}\n`);
  } else {
    fail(`unknown kernel action '${action}'`);
  }
}

/** `kernel pool status|stop` for people; `serve` and `spare` are what launchers and daemons start. */
async function pool(args: string[]): Promise<void> {
  const [what, ...rest] = args;
  if (what === 'serve') {
    const { values } = parseOptions(rest, { 'data-dir': { type: 'string' } });
    const { servePool } = await import('./server/zmq/pool-daemon.js');
    return servePool({ dataDir: values['data-dir'] });
  }
  if (what === 'spare') {
    const { runPoolSpare } = await import('./server/zmq/pool-spare.js');
    return runPoolSpare();
  }
  if ((what === 'status' || what === 'stop') && rest.length > 0) fail(`unexpected argument '${rest[0]}'`);
  if (what === 'status' || what === 'stop') {
    const { askPools, describePools } = await import('./server/zmq/pool-control.js');
    const answers = await askPools({ kind: what });
    if (what === 'status') process.stdout.write(describePools(answers));
    else process.stdout.write(answers.length === 0 ? 'no kernel pool daemon to stop\n' : answers.map((a) => `${a.socket}: ${a.reply?.kind === 'stopping' ? 'stopping' : 'no answer'}\n`).join(''));
    return;
  }
  fail(`unknown kernel pool action '${what ?? ''}'`);
}

main(process.argv.slice(2)).catch(async (error: unknown) => {
  // A typed error already says what was wrong and how to fix it; a stack would bury that.
  const { isNighthawkError } = await import('./core/index.js');
  process.stderr.write(`${isNighthawkError(error) ? `${error.name}: ${error.message}` : error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
