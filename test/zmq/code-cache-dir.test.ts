/**
 * Where kernels keep the V8 code cache: the user's cache directory by default, and never a directory another
 * user could have written to (cached code runs as the kernel's own code).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { codeCacheDir } from '../../kernel/src/server/kernel/code-cache.js';
import { ensureKernelBuilt, root } from './zmq-fixture.js';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'nh-code-cache-dir-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// A kernel process's start reduced to the cache: install it, load tslab's TypeScript, save.
const script = `
const { installCodeCache, saveCodeCache, codeCacheEntries } = await import(${JSON.stringify(path.join(root, 'dist', 'kernel', 'src', 'server', 'kernel', 'code-cache.js'))});
installCodeCache(process.env.CACHE_DIR);
const { createRequire } = await import('node:module');
createRequire(${JSON.stringify(path.join(root, 'package.json'))})('@tslab/typescript-for-tslab');
console.log(JSON.stringify({ entries: codeCacheEntries().length, written: saveCodeCache() }));`;

describe('the code cache directory', () => {
  test("defaults to the user's cache dir; NIGHTHAWK_CODE_CACHE_DIR moves it and `off` disables it", () => {
    expect(codeCacheDir({ XDG_CACHE_HOME: '/x/cache' })).toBe(process.platform === 'linux' ? '/x/cache/nighthawk-ts/v8-code-cache' : codeCacheDir({}));
    expect(codeCacheDir({})).toContain(path.join('nighthawk-ts', 'v8-code-cache'));
    expect(codeCacheDir({ NIGHTHAWK_CODE_CACHE_DIR: '/somewhere' })).toBe('/somewhere');
    expect(codeCacheDir({ NIGHTHAWK_CODE_CACHE_DIR: 'off' })).toBeUndefined();
  });

  test.skipIf(process.platform === 'win32')('a directory others can write to is not used (nothing read or written there), with a warning', () => {
    ensureKernelBuilt();
    const own = path.join(scratch, 'own');
    const shared = path.join(scratch, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    const run = (dir: string) => spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, env: { ...process.env, CACHE_DIR: dir }, encoding: 'utf8', timeout: 120_000 });
    const refused = run(shared);
    expect(JSON.parse(refused.stdout.trim())).toEqual({ entries: 0, written: 0 });
    expect(refused.stderr).toMatch(/not using the V8 code cache in .*shared: another user owns it or can write to it/);
    expect(readdirSync(shared)).toEqual([]);
    const used = run(own);
    expect(JSON.parse(used.stdout.trim())).toEqual({ entries: 1, written: 1 });
    expect(used.stderr).toBe('');
    expect(readdirSync(own).filter((f) => f.endsWith('.v8'))).toHaveLength(1);
  }, 180_000);
});
