import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { builtCli, ensureKernelBuilt, PYTHON, root, run } from './zmq-fixture.js';

let dir: string;

beforeAll(() => {
  ensureKernelBuilt();
  dir = mkdtempSync(path.join(tmpdir(), 'nh-spec-'));
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (args: string[], env: NodeJS.ProcessEnv = process.env) => run(process.execPath, [builtCli, ...args], { env, cwd: root });

function pngSize(file: string): [number, number] {
  const png = readFileSync(file);
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
  return [png.readUInt32BE(16), png.readUInt32BE(20)];
}

describe('nighthawk-ts kernel install / uninstall', () => {
  test('the built CLI starts with a node shebang (the package bin)', () => {
    expect(readFileSync(builtCli, 'utf8').split('\n', 1)[0]).toBe('#!/usr/bin/env node');
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(pkg.bin['nighthawk-ts']).toBe('dist/kernel/src/cli.js');
  });

  test('--prefix writes kernel.json running this build with `kernel run --connection-file {connection_file}`, signal interrupts, and 32/64 px logos', async () => {
    const prefix = path.join(dir, 'p1');
    const result = await cli(['kernel', 'install', '--prefix', prefix, '--data-dir', '~/.nighthawk/ledger']);
    expect(result.code).toBe(0);
    const spec = path.join(prefix, 'share', 'jupyter', 'kernels', 'nighthawk');
    const json = JSON.parse(readFileSync(path.join(spec, 'kernel.json'), 'utf8')) as Record<string, unknown>;
    expect(json).toMatchObject({ display_name: 'Nighthawk TS', language: 'typescript', interrupt_mode: 'signal', env: { MALLOC_ARENA_MAX: '2' } });
    // A shell launches the kernel: standing in for a pooled one, it holds ~0.3 MB where Node holds 9 (pool-stand-in.ts).
    const script = path.join(spec, 'pool-launch.sh');
    expect(json['argv']).toEqual(['/bin/sh', script, process.execPath, '--no-force-async-hooks-checks', '--max-semi-space-size=2', builtCli, 'kernel', 'run', '--connection-file', '{connection_file}', '--data-dir', '~/.nighthawk/ledger']);
    expect(readFileSync(script, 'utf8')).toMatch(/^#!\/bin\/sh\n/);
    // Without the pool there is nothing to stand in for: Jupyter starts the kernel itself, and no script is left.
    expect((await cli(['kernel', 'install', '--prefix', prefix, '--no-pool'])).code).toBe(0);
    const cold = JSON.parse(readFileSync(path.join(spec, 'kernel.json'), 'utf8')) as { argv: string[] };
    expect(cold.argv.slice(0, 2)).toEqual([process.execPath, '--no-force-async-hooks-checks']);
    expect(existsSync(script)).toBe(false);
    expect(pngSize(path.join(spec, 'logo-64x64.png'))).toEqual([64, 64]);
    expect(pngSize(path.join(spec, 'logo-32x32.png'))).toEqual([32, 32]);
  });

  test('jupyter kernelspec list (Debian jupyter_client) finds the installed spec by name', async () => {
    const prefix = path.join(dir, 'p2');
    await cli(['kernel', 'install', '--prefix', prefix, '--name', 'nh-listed', '--display-name', 'Listed']);
    const env = { ...process.env, JUPYTER_PATH: path.join(prefix, 'share', 'jupyter'), PYDEVD_DISABLE_FILE_VALIDATION: '1' };
    const listed = await run(PYTHON, ['-m', 'jupyter_client.kernelspecapp', 'list', '--json'], { env });
    const specs = (JSON.parse(listed.stdout) as { kernelspecs: Record<string, { spec: { display_name: string } }> }).kernelspecs;
    expect(specs['nh-listed']?.spec.display_name).toBe('Listed');
  });

  test('--user installs under JUPYTER_DATA_DIR; uninstall removes it and says so when nothing is installed', async () => {
    const env = { ...process.env, JUPYTER_DATA_DIR: path.join(dir, 'user-data') };
    expect((await cli(['kernel', 'install', '--user'], env)).code).toBe(0);
    const spec = path.join(dir, 'user-data', 'kernels', 'nighthawk', 'kernel.json');
    expect(existsSync(spec)).toBe(true);
    const removed = await cli(['kernel', 'uninstall', '--user'], env);
    expect(removed.stdout).toContain('Removed kernelspec');
    expect(existsSync(spec)).toBe(false);
    expect((await cli(['kernel', 'uninstall', '--user'], env)).stdout).toContain('No kernelspec nighthawk');
  });

  test('conflicting locations and unknown actions exit with status 2 and usage', async () => {
    const both = await cli(['kernel', 'install', '--user', '--prefix', dir]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('choose one of --user, --prefix, --sys-prefix and --system');
    const unknown = await cli(['kernel', 'explode']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('usage:');
  });

  test('--help, -h and help print the usage on stdout and exit 0; --version prints the package version', async () => {
    for (const args of [['--help'], ['-h'], ['help'], ['kernel', '--help'], ['kernel', 'install', '--help']]) {
      const help = await cli(args);
      expect({ args, code: help.code, stderr: help.stderr }).toEqual({ args, code: 0, stderr: '' });
      expect(help.stdout).toContain('nighthawk-ts kernel install');
    }
    const version = await cli(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout).toBe(`${(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version}\n`);
  });

  test('a misspelt option, a missing value or no command exits with status 2, names what was wrong and shows the usage, without a stack', async () => {
    const cases: Array<[string[], string]> = [
      [['kernel', 'install', '--prefx', dir], "unknown option '--prefx'"],
      [['kernel', 'install', '--prefix'], "option '--prefix' needs a value"],
      [['kernel', 'install', 'extra'], "unexpected argument 'extra'"],
      [[], 'missing command'],
      [['colonel', 'install'], "unknown command 'colonel'"],
      [['kernel', 'pool', 'status', '--all'], "unexpected argument '--all'"],
    ];
    for (const [args, message] of cases) {
      const result = await cli(args);
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.stderr).toContain(message);
      expect(result.stderr).toContain('usage:');
      expect(result.stderr).not.toMatch(/^\s+at /m);
    }
  });
});

const prebuilt = path.join(root, 'labextension', 'prebuilt');
const labDir = (prefix: string) => path.join(prefix, 'share', 'jupyter', 'labextensions', 'nighthawk-ts-renderer');
const specDir = (prefix: string, name = 'nighthawk') => path.join(prefix, 'share', 'jupyter', 'kernels', name);
const remoteEntry = (dir: string) => (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { jupyterlab: { _build: { load: string } } }).jupyterlab._build.load;

describe('nighthawk-ts kernel install --with-lab-extension (issue 19.8)', () => {
  test('copies the prebuilt federated extension to <prefix>/share/jupyter/labextensions/nighthawk-ts-renderer beside the kernelspec', async () => {
    const prefix = path.join(dir, 'lab1');
    const result = await cli(['kernel', 'install', '--prefix', prefix, '--with-lab-extension']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`Installed JupyterLab extension nighthawk-ts-renderer in ${labDir(prefix)}`);
    expect(existsSync(path.join(specDir(prefix), 'kernel.json'))).toBe(true);
    const load = remoteEntry(labDir(prefix));
    expect(load).toMatch(/^static\/remoteEntry\.[0-9a-f]+\.js$/);
    for (const file of readdirSync(path.join(prebuilt, 'static'))) {
      expect(readFileSync(path.join(labDir(prefix), 'static', file)).equals(readFileSync(path.join(prebuilt, 'static', file))), file).toBe(true);
    }
    expect(JSON.parse(readFileSync(path.join(labDir(prefix), 'install.json'), 'utf8'))).toMatchObject({ packageName: 'nighthawk-ts' });
  });

  test('a reinstall replaces an older copy (no stale remoteEntry left beside the new one)', async () => {
    const prefix = path.join(dir, 'lab2');
    mkdirSync(path.join(labDir(prefix), 'static'), { recursive: true });
    writeFileSync(path.join(labDir(prefix), 'static', 'remoteEntry.0000.js'), 'old');
    expect((await cli(['kernel', 'install', '--prefix', prefix, '--with-lab-extension'])).code).toBe(0);
    expect(readdirSync(path.join(labDir(prefix), 'static')).filter((f) => f.startsWith('remoteEntry.'))).toEqual([path.basename(remoteEntry(prebuilt))]);
  });

  test('a missing or unbuilt extension is a LabExtensionError naming the fix, and nothing is installed', async () => {
    const empty = mkdtempSync(path.join(dir, 'no-build-'));
    const broken = path.join(dir, 'broken-build');
    cpSync(prebuilt, broken, { recursive: true });
    rmSync(path.join(broken, remoteEntry(prebuilt)));
    const cases: Array<[string, string]> = [
      [empty, 'the prebuilt JupyterLab extension is missing'],
      // The source package (labextension/package.json) is not a build: it has no jupyterlab._build.
      [path.join(root, 'labextension'), 'no jupyterlab._build'],
      [broken, `the remoteEntry ${remoteEntry(prebuilt)} named by package.json is missing`],
    ];
    for (const [source, problem] of cases) {
      const prefix = mkdtempSync(path.join(dir, 'lab-missing-'));
      const result = await cli(['kernel', 'install', '--prefix', prefix, '--with-lab-extension', '--lab-extension-dir', source]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('LabExtensionError: ');
      expect(result.stderr).toContain(problem);
      expect(result.stderr).toContain('npm run build:labextension');
      expect(result.stderr).not.toContain('    at ');
      expect(existsSync(specDir(prefix)), 'no kernelspec without its extension').toBe(false);
      expect(existsSync(labDir(prefix))).toBe(false);
    }
  });

  test('uninstall removes the extension once no Nighthawk kernelspec in that location uses it', async () => {
    const prefix = path.join(dir, 'lab3');
    expect((await cli(['kernel', 'install', '--prefix', prefix, '--with-lab-extension'])).code).toBe(0);
    expect((await cli(['kernel', 'install', '--prefix', prefix, '--name', 'nh-second'])).code).toBe(0);
    const first = await cli(['kernel', 'uninstall', '--prefix', prefix]);
    expect(first.stdout).toContain(`Kept JupyterLab extension ${labDir(prefix)}: still used by kernelspec nh-second`);
    expect(existsSync(labDir(prefix))).toBe(true);
    const second = await cli(['kernel', 'uninstall', '--prefix', prefix, '--name', 'nh-second']);
    expect(second.stdout).toContain(`Removed JupyterLab extension ${labDir(prefix)}`);
    expect(existsSync(labDir(prefix))).toBe(false);
    expect(existsSync(specDir(prefix, 'nh-second'))).toBe(false);
  });

  test('--sys-prefix installs into the active Python environment, where jupyter_core looks', async () => {
    const venv = path.join(dir, 'venv');
    expect((await run(PYTHON, ['-m', 'venv', '--without-pip', '--system-site-packages', venv])).code).toBe(0);
    const env = { ...process.env, PATH: `${path.join(venv, 'bin')}${path.delimiter}${process.env['PATH'] ?? ''}`, VIRTUAL_ENV: venv };
    const result = await cli(['kernel', 'install', '--sys-prefix', '--with-lab-extension'], env);
    expect(result.code, result.stderr).toBe(0);
    const paths = await run(path.join(venv, 'bin', 'python3'), ['-c', 'import json, jupyter_core.paths as p; print(json.dumps(p.jupyter_path()))'], { env });
    expect(JSON.parse(paths.stdout) as string[]).toContain(path.join(venv, 'share', 'jupyter'));
    expect(existsSync(path.join(specDir(venv), 'kernel.json'))).toBe(true);
    expect(existsSync(path.join(labDir(venv), remoteEntry(prebuilt)))).toBe(true);
    expect((await cli(['kernel', 'uninstall', '--sys-prefix'], env)).stdout).toContain('Removed JupyterLab extension');
    expect(existsSync(labDir(venv))).toBe(false);
  });

  test('--sys-prefix without a Python on PATH, and extension options on uninstall, are refused', async () => {
    const noPython = await cli(['kernel', 'install', '--sys-prefix'], { ...process.env, PATH: path.join(dir, 'empty-path') });
    expect(noPython.code).toBe(1);
    expect(noPython.stderr).toContain('--sys-prefix asks python3 for sys.prefix');
    const misuse = await cli(['kernel', 'uninstall', '--user', '--with-lab-extension']);
    expect(misuse.code).toBe(2);
    expect(misuse.stderr).toContain('--with-lab-extension is an install option');
  });
});
