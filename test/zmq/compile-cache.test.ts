/**
 * Compile once, through the kernel Jupyter starts: the first kernel process writes the V8 code cache of tslab's
 * TypeScript before its first cell's reply (one-cell clients kill the kernel right after it), the next process
 * compiles the compiler from it, and a damaged cache file is ignored (the kernel works and rewrites it). Importing
 * the library loads no second TypeScript compiler (TypeScript 5.9, ~0.5 s and tens of MB per kernel).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { installedKernel, root, runPython, type JupyterEnv } from './zmq-fixture.js';

let jupyter: JupyterEnv;
let cacheDir: string;
const codeCacheModule = path.join(root, 'dist', 'kernel', 'src', 'server', 'kernel', 'code-cache.js');
// Cells without `=>` or `{`: a cell that may define a callable has the Session parse it (with TypeScript 5.9).
// "<filename>,<fromCache>" of each compiler file the kernel compiled through the cache.
const FROM_CACHE = `require(${JSON.stringify(codeCacheModule)}).codeCacheEntries().map(Object.values).join(' ')`;
const SECOND_COMPILER = String.raw`Object.keys(require.cache).filter(RegExp.prototype.test.bind(/[\\/]node_modules[\\/]typescript[\\/]lib[\\/]/)).length`;

interface Cell {
  status: string;
  result: string | null;
  errors: string[][];
}

async function start(cells: string[]): Promise<{ cells: Cell[]; stderr: string }> {
  const r = await runPython('run_cells.py', [jupyter.kernelName, ...cells], jupyter, 240_000);
  expect(r.code, r.stderr).toBe(0);
  return { cells: (JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { cells: Cell[] }).cells, stderr: r.stderr };
}

const cacheFiles = (): string[] => readdirSync(cacheDir).filter((f) => f.endsWith('.v8'));

beforeAll(async () => {
  jupyter = await installedKernel({ name: 'nighthawk-code-cache' });
  cacheDir = path.join(jupyter.dir, 'code-cache');
  // Kernels inherit the driver's environment.
  jupyter.env['NIGHTHAWK_CODE_CACHE_DIR'] = cacheDir;
}, 120_000);

afterAll(() => jupyter?.cleanup());

describe('the V8 code cache across ZeroMQ kernel processes', () => {
  test('written by a one-cell kernel, used by the next one; a damaged cache is ignored and rewritten', async () => {
    const first = await start(['1+1']);
    expect(first.cells).toEqual([{ status: 'ok', result: '2', errors: [] }]);
    expect(cacheFiles()).toHaveLength(1);
    const file = path.join(cacheDir, cacheFiles()[0]!);
    const written = { ino: statSync(file).ino, bytes: readFileSync(file) };

    const second = await start([FROM_CACHE, 'import * as nh from "nighthawk-ts";\ntypeof nh.Session', SECOND_COMPILER]);
    expect(second.cells.map((c) => c.status), JSON.stringify(second.cells)).toEqual(['ok', 'ok', 'ok']);
    // tslab's TypeScript, the one compiler file loaded, compiled from the cache.
    expect(second.cells[0]!.result).toMatch(/^'[^ ]*typescript-for-tslab[\\/]lib[\\/]typescript\.js,true'$/);
    expect(second.cells[1]!.result).toBe("'function'");
    expect(second.cells[2]!.result).toBe('0');
    // Accepted, so not rewritten (a rewrite renames a new file in): only marked used, for pruning.
    expect(statSync(file).ino).toBe(written.ino);
    expect(readFileSync(file).equals(written.bytes)).toBe(true);
    expect(second.stderr).not.toMatch(/unusable V8 code cache/);

    // A flipped byte in V8's data (the header intact) and a file cut short: never handed to V8.
    const good = readFileSync(file);
    for (const damaged of [Buffer.concat([good.subarray(0, good.length - 100), Buffer.from([good[good.length - 100]! ^ 0xff]), good.subarray(good.length - 99)]), good.subarray(0, 1000)]) {
      writeFileSync(file, damaged);
      const third = await start(['1+1', FROM_CACHE]);
      expect(third.cells[0]).toEqual({ status: 'ok', result: '2', errors: [] });
      expect(third.cells[1]!.result).toMatch(/typescript\.js,false'$/);
      expect(third.stderr).toMatch(/ignored an unusable V8 code cache/);
      // Rewritten whole before the first cell's reply.
      expect(readFileSync(file).length).toBeGreaterThan(good.length / 2);
    }
  }, 900_000);
});
