import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
    expect(json).toMatchObject({ display_name: 'Nighthawk TS', language: 'typescript', interrupt_mode: 'signal' });
    expect(json['argv']).toEqual([process.execPath, '--no-force-async-hooks-checks', '--max-semi-space-size=2', builtCli, 'kernel', 'run', '--connection-file', '{connection_file}', '--data-dir', '~/.nighthawk/ledger']);
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
    expect(both.stderr).toContain('choose one of --user, --prefix and --system');
    const unknown = await cli(['kernel', 'explode']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('usage:');
  });
});
