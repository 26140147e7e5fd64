#!/usr/bin/env node
/**
 * The `nighthawk-ts` command.
 *   nighthawk-ts kernel install [--user | --prefix P | --system] [--name N] [--display-name D] [--data-dir D]
 *   nighthawk-ts kernel uninstall [--user | --prefix P | --system] [--name N]
 *   nighthawk-ts kernel run --connection-file F [--data-dir D] [--host-module M]
 * Imports are dynamic so `kernel run` loads only what the kernel needs before it binds its sockets.
 */
import { parseArgs } from 'node:util';

const USAGE = `usage:
  nighthawk-ts kernel install [--user | --prefix P | --system] [--name N] [--display-name D] [--data-dir D]
  nighthawk-ts kernel uninstall [--user | --prefix P | --system] [--name N]
  nighthawk-ts kernel run --connection-file F [--data-dir D] [--host-module M]`;

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

async function main(argv: string[]): Promise<void> {
  const [group, action, ...rest] = argv;
  if (group !== 'kernel' || !action) fail('unknown command');
  const { values } = parseArgs({
    args: rest,
    options: {
      user: { type: 'boolean' },
      system: { type: 'boolean' },
      prefix: { type: 'string' },
      name: { type: 'string' },
      'display-name': { type: 'string' },
      'data-dir': { type: 'string' },
      'connection-file': { type: 'string' },
      'host-module': { type: 'string' },
    },
    strict: true,
  });
  if (action === 'run') {
    const file = values['connection-file'];
    if (!file) fail('kernel run needs --connection-file');
    const { runKernelProcess } = await import('./server/zmq/index.js');
    await runKernelProcess({ connectionFile: file, dataDir: values['data-dir'], hostModule: values['host-module'] });
    return;
  }
  const spec = await import('./server/zmq/index.js');
  const chosen = [values.user, values.system, values.prefix !== undefined].filter(Boolean).length;
  if (chosen > 1) fail('choose one of --user, --prefix and --system');
  const location: import('./server/zmq/index.js').SpecLocation =
    values.prefix !== undefined ? { kind: 'prefix', prefix: values.prefix } : values.system ? { kind: 'system' } : { kind: 'user' };
  if (action === 'install') {
    const dir = spec.installKernelspec({ location, name: values.name, displayName: values['display-name'], dataDir: values['data-dir'] });
    process.stdout.write(`Installed kernelspec ${values.name ?? spec.DEFAULT_KERNEL_NAME} in ${dir}\n`);
  } else if (action === 'uninstall') {
    const dir = spec.uninstallKernelspec(location, values.name);
    process.stdout.write(dir ? `Removed kernelspec ${dir}\n` : `No kernelspec ${values.name ?? spec.DEFAULT_KERNEL_NAME} in ${spec.kernelsDir(location)}\n`);
  } else {
    fail(`unknown kernel action '${action}'`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
