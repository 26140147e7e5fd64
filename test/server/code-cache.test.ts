/**
 * Compile once: the first kernel process writes a V8 code cache for the TypeScript compiler after its warm-up
 * conversion; the next process compiles the compiler from that cache (V8 accepts it) and converts the same.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import vm from 'node:vm';
import { asciiWrappedSource, pruneCodeCache } from '../../kernel/src/server/kernel/code-cache.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const built = path.join(root, 'dist', 'kernel', 'src', 'server', 'kernel');
const dir = mkdtempSync(path.join(tmpdir(), 'nighthawk-code-cache-test-'));

// One kernel process's start, reduced to the compiler: install the cache, convert a first cell, run one.
const script = `
import { installCodeCache, saveCodeCache, codeCacheEntries } from ${JSON.stringify(path.join(built, 'code-cache.js'))};
installCodeCache(process.env.CACHE_DIR);
const { createTslabCompiler } = await import(${JSON.stringify(path.join(built, 'tslab-compiler.js'))});
const compiler = createTslabCompiler();
compiler.warmUp();
const outcome = await compiler.execute('const n: number = 20; n + 22', { executionCount: 1 });
const written = saveCodeCache();
// The compiler's 8 MB source is an external one-byte string: not in the V8 heap's large-object space.
const largeObjectsMb = (await import('node:v8')).getHeapSpaceStatistics().find((s) => s.space_name === 'large_object_space').space_used_size / 1048576;
console.log(JSON.stringify({ largeObjectsMb, entries: codeCacheEntries().map((e) => ({ file: e.filename.split('node_modules/').pop(), fromCache: e.fromCache })), written, value: outcome.value }));
process.exit(0);`;

function kernelStart(): { largeObjectsMb: number; entries: Array<{ file: string; fromCache: boolean }>; written: number; value: Record<string, unknown> } {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, env: { ...process.env, CACHE_DIR: dir }, encoding: 'utf8', timeout: 120_000 });
  return JSON.parse(out.trim().split('\n').at(-1)!);
}

beforeAll(() => {
  if (!existsSync(path.join(built, 'code-cache.js'))) execFileSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'ignore' });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the V8 code cache across kernel processes', () => {
  test("the first process writes it, the second compiles tslab's TypeScript from it and writes nothing", () => {
    const first = kernelStart();
    expect(first.entries).toEqual([{ file: '@tslab/typescript-for-tslab/lib/typescript.js', fromCache: false }]);
    expect(first.written).toBe(1);
    expect(first.value['text/plain']).toBe('42');
    // Its source decoded by Node was a 16 MB two-byte string (tslab's typescript.js has non-ASCII characters).
    expect(first.largeObjectsMb).toBeLessThan(8);
    expect(readdirSync(dir).filter((f) => f.endsWith('.v8'))).toHaveLength(1);

    // A file read from the cache is marked used (its modification time), which pruning goes by.
    const [file] = readdirSync(dir).filter((f) => f.endsWith('.v8'));
    const longAgo = new Date(Date.now() - 30 * 86_400_000);
    utimesSync(path.join(dir, file!), longAgo, longAgo);
    const second = kernelStart();
    expect(statSync(path.join(dir, file!)).mtimeMs).toBeGreaterThan(longAgo.getTime() + 86_400_000);
    expect(second.entries).toEqual([{ file: '@tslab/typescript-for-tslab/lib/typescript.js', fromCache: true }]);
    expect(second.written).toBe(0);
    expect(second.value['text/plain']).toBe('42');
  }, 240_000);

  test('pruning keeps the most recently used cache files and leaves names it did not write alone', () => {
    const box = mkdtempSync(path.join(tmpdir(), 'nighthawk-code-cache-prune-'));
    try {
      const now = Date.now();
      const put = (name: string, ageMs: number): void => {
        writeFileSync(path.join(box, name), 'x');
        const at = new Date(now - ageMs);
        utimesSync(path.join(box, name), at, at);
      };
      const key = (i: number): string => i.toString(16).padStart(24, '0');
      for (let i = 0; i < 11; i++) put(`typescript-${key(i)}.v8`, i * 60_000);
      put('notes.txt', 365 * 86_400_000);
      put(`typescript-${key(99)}.v8.4242.tmp`, 3_600_000);
      put(`typescript-${key(98)}.v8.4243.tmp`, 1_000);
      const removed = pruneCodeCache(box, 8, now);
      expect(removed.sort()).toEqual([`typescript-${key(10)}.v8`, `typescript-${key(8)}.v8`, `typescript-${key(99)}.v8.4242.tmp`, `typescript-${key(9)}.v8`].sort());
      const left = readdirSync(box).sort();
      expect(left).toContain('notes.txt');
      expect(left).toContain(`typescript-${key(98)}.v8.4243.tmp`);
      expect(left.filter((n) => n.endsWith('.v8'))).toEqual(Array.from({ length: 8 }, (_, i) => `typescript-${key(i)}.v8`));
    } finally {
      rmSync(box, { recursive: true, force: true });
    }
  });

  test('the compiler is compiled from an ASCII source that means the same (non-ASCII characters escaped)', () => {
    const text = "// don’t\nmodule.exports = { s: 'é – 😀', r: /[α-ω]+/.test('λ'), café: 1, t: `ü${'ß'}` };\n";
    const source = asciiWrappedSource(Buffer.from(text, 'utf8'))!;
    expect(/^[\x00-\x7f]*$/.test(source)).toBe(true);
    const mod = { exports: {} as Record<string, unknown> };
    (vm.runInThisContext(source) as (e: unknown, r: unknown, m: unknown) => void)(mod.exports, undefined, mod);
    expect(mod.exports).toEqual({ s: 'é – 😀', r: true, café: 1, t: 'üß' });
    // Bytes that are not UTF-8 are left to Node's own loading.
    expect(asciiWrappedSource(Buffer.from([0x61, 0xff, 0x62]))).toBeUndefined();
  });

  test('characters across the 64 KB chunks the scan clears at once are escaped, and broken ones refuse the file', () => {
    // 'é' (2 bytes) starts on the last byte of the first chunk, '😀' (4 bytes) three bytes before the second ends.
    const prefix = "module.exports = ['";
    const first = ' '.repeat(65_535 - prefix.length);
    const second = ' '.repeat(131_069 - (65_535 + 2 + "', '".length));
    const bytes = Buffer.from(`${prefix}${first}é', '${second}😀', 'ß'];\n`, 'utf8');
    expect([bytes.indexOf(Buffer.from('é')), bytes.indexOf(Buffer.from('😀'))]).toEqual([65_535, 131_069]);
    const source = asciiWrappedSource(bytes)!;
    expect(/^[\x00-\x7f]*$/.test(source)).toBe(true);
    const mod = { exports: [] as unknown };
    (vm.runInThisContext(source) as (e: unknown, r: unknown, m: unknown) => void)(mod.exports, undefined, mod);
    expect(mod.exports).toEqual([`${first}é`, `${second}😀`, 'ß']);
    // Not UTF-8: a sequence cut by the end of the file, one broken across a boundary, a stray continuation byte.
    expect(asciiWrappedSource(bytes.subarray(0, 65_536))).toBeUndefined();
    const broken = Buffer.from(bytes);
    broken[65_536] = 0x41;
    expect(asciiWrappedSource(broken)).toBeUndefined();
    const stray = Buffer.from(bytes);
    stray[100_000] = 0x80;
    expect(asciiWrappedSource(stray)).toBeUndefined();
  });
});
