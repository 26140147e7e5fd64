/**
 * Conversions stored across kernel processes: a kernel converts a cell converted by an earlier kernel (same
 * texts, same directory) without building the compiler's program, and only while everything the compiler
 * observed then still holds: a declaration file edited, a package appearing where resolution looked, a
 * different earlier cell each convert afresh. Each conversion below runs in its own Node process (the store's
 * point is to outlive one), on the built compiler.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ConversionStore } from '../../kernel/src/server/kernel/conversion-store.js';
import { FileSystemObservations, type ObservedSystem } from '../../kernel/src/server/kernel/fs-observations.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const compilerModule = path.join(root, 'dist', 'kernel', 'src', 'server', 'kernel', 'tslab-compiler.js');
const scratch = mkdtempSync(path.join(tmpdir(), 'nighthawk-conversions-'));

beforeAll(() => {
  execFileSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'ignore' });
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

interface Converted {
  outcome: { kind: string; value?: Record<string, unknown>; evalue?: string; traceback?: string[] };
  built: boolean;
  holdsFirstCells: boolean;
}

/** Runs `cells` in order in a fresh process whose working directory is `dir`; what the last one gave. */
function convertInFreshProcess(dir: string, cacheDir: string, cells: string[]): Converted {
  const script = `
    const { createTslabCompiler } = await import(${JSON.stringify(compilerModule)});
    const compiler = createTslabCompiler();
    const holdsFirstCells = compiler.holdsFirstCells;
    let outcome;
    let count = 0;
    for (const cell of ${JSON.stringify(cells)}) outcome = await compiler.execute(cell, { executionCount: ++count });
    const built = compiler.built;
    setTimeout(() => { process.stdout.write(JSON.stringify({ outcome, built, holdsFirstCells })); process.exit(0); }, 100);
  `;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: dir,
    env: { ...process.env, NIGHTHAWK_CONVERSION_CACHE_DIR: cacheDir, NIGHTHAWK_CODE_CACHE_DIR: 'off' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return JSON.parse(out) as Converted;
}

/** A directory with a package `pkg` whose declarations say `x` is `type`. */
function project(name: string, type: string): string {
  const dir = path.join(scratch, name);
  mkdirSync(path.join(dir, 'node_modules', 'pkg'), { recursive: true });
  writeFileSync(path.join(dir, 'node_modules', 'pkg', 'package.json'), JSON.stringify({ name: 'pkg', version: '1.0.0', main: 'index.js', types: 'index.d.ts' }));
  writeFileSync(path.join(dir, 'node_modules', 'pkg', 'index.js'), 'exports.x = 41;\n');
  writeFileSync(path.join(dir, 'node_modules', 'pkg', 'index.d.ts'), `export declare const x: ${type};\n`);
  return dir;
}

describe('a conversion an earlier kernel stored', () => {
  test('is used without building the program, in the same directory and environment only', () => {
    const dir = project('reuse', 'number');
    const cache = path.join(scratch, 'cache-reuse');
    const first = convertInFreshProcess(dir, cache, ['import { x } from "pkg";\nx + 1']);
    expect(first.outcome.value?.['text/plain']).toBe('42');
    expect(first.built).toBe(true);
    expect(first.holdsFirstCells).toBe(false);
    expect(readdirSync(cache).filter((n) => n.startsWith('c-'))).toHaveLength(1);

    const again = convertInFreshProcess(dir, cache, ['import { x } from "pkg";\nx + 1']);
    expect(again.outcome.value?.['text/plain']).toBe('42');
    expect(again.built).toBe(false);
    expect(again.holdsFirstCells).toBe(true);

    // Another directory with identical files is another environment: converted afresh there.
    const elsewhere = convertInFreshProcess(project('reuse-elsewhere', 'number'), cache, ['import { x } from "pkg";\nx + 1']);
    expect(elsewhere.built).toBe(true);
    expect(elsewhere.holdsFirstCells).toBe(false);
  });

  test('is not used once a declaration file it read changed: the type error shows', () => {
    const dir = project('edited', 'number');
    const cache = path.join(scratch, 'cache-edited');
    const cell = 'import { x } from "pkg";\nx.toFixed(1)';
    expect(convertInFreshProcess(dir, cache, [cell]).outcome.value?.['text/plain']).toBe("'41.0'");
    const declarations = path.join(dir, 'node_modules', 'pkg', 'index.d.ts');
    writeFileSync(declarations, 'export declare const x: string;\n');
    // Same size is not enough to pass: the modification time differs too.
    const later = new Date(statSync(declarations).mtimeMs + 5000);
    utimesSync(declarations, later, later);
    const after = convertInFreshProcess(dir, cache, [cell]);
    expect(after.built).toBe(true);
    expect(after.outcome.kind).toBe('error');
    expect(after.outcome.traceback?.join('\n')).toMatch(/toFixed/);
  });

  test('is not used once a module resolves elsewhere (a package appears where resolution looked first)', () => {
    const dir = project('shadowed', 'number');
    // A package without declarations of its own: its import is untyped until @types/pkg appears.
    rmSync(path.join(dir, 'node_modules', 'pkg', 'index.d.ts'));
    const cache = path.join(scratch, 'cache-shadowed');
    const cell = 'import { x } from "pkg";\nconst n: number = x;\nn';
    const before = convertInFreshProcess(dir, cache, [cell]);
    expect(before.outcome.value?.['text/plain']).toBe('41');
    expect(convertInFreshProcess(dir, cache, [cell]).built).toBe(false);
    // Resolution probed for @types/pkg and found nothing: its appearance changes that observation, and the
    // types it brings make the cell wrong.
    mkdirSync(path.join(dir, 'node_modules', '@types', 'pkg'), { recursive: true });
    writeFileSync(path.join(dir, 'node_modules', '@types', 'pkg', 'index.d.ts'), 'export declare const x: string;\n');
    const after = convertInFreshProcess(dir, cache, [cell]);
    expect(after.built).toBe(true);
    expect(after.outcome.kind).toBe('error');
  });

  test('is keyed by the earlier cells too: the same text after different declarations converts afresh', () => {
    const dir = project('decls', 'number');
    const cache = path.join(scratch, 'cache-decls');
    expect(convertInFreshProcess(dir, cache, ['const y = 1;', 'y + 1']).outcome.value?.['text/plain']).toBe('2');
    const other = convertInFreshProcess(dir, cache, ['const y = "a";', 'y + 1']);
    expect(other.outcome.value?.['text/plain']).toBe("'a1'");
    expect(other.built).toBe(true);
    const same = convertInFreshProcess(dir, cache, ['const y = 1;', 'y + 1']);
    expect(same.outcome.value?.['text/plain']).toBe('2');
    expect(same.built).toBe(false);
  });
});

describe('the store', () => {
  /** A file system over real files that the observations wrap, as they wrap TypeScript's `sys`. */
  function fileSystem(): ObservedSystem {
    return {
      readFile: (p) => (fs.existsSync(p) ? fs.readFileSync(p, 'utf8') : undefined),
      fileExists: (p) => fs.existsSync(p) && fs.statSync(p).isFile(),
      directoryExists: (p) => fs.existsSync(p) && fs.statSync(p).isDirectory(),
      getDirectories: (p) => fs.readdirSync(p, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name),
      readDirectory: (p) => fs.readdirSync(p),
      realpath: (p) => fs.realpathSync(p),
    };
  }

  test('is off with NIGHTHAWK_CONVERSION_CACHE_DIR=off, and refuses a directory others can write to', () => {
    const observations = new FileSystemObservations(fileSystem());
    expect(ConversionStore.open('ns', observations, { NIGHTHAWK_CONVERSION_CACHE_DIR: 'off' })).toBeUndefined();
    const shared = path.join(scratch, 'shared-cache');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    expect(ConversionStore.open('ns', observations, { NIGHTHAWK_CONVERSION_CACHE_DIR: shared })).toBeUndefined();
    const own = path.join(scratch, 'own-cache');
    expect(ConversionStore.open('ns', observations, { NIGHTHAWK_CONVERSION_CACHE_DIR: own })).toBeDefined();
  });

  test('finds an entry only for the exact texts, while every observation holds; damaged files are misses', () => {
    const sys = fileSystem();
    const observations = new FileSystemObservations(sys);
    const dir = path.join(scratch, 'unit');
    mkdirSync(dir);
    const file = path.join(dir, 'a.d.ts');
    writeFileSync(file, 'declare const a: 1;');
    sys.readFile(file);
    sys.fileExists(path.join(dir, 'missing.d.ts'));
    const cacheDir = path.join(scratch, 'unit-cache');
    const store = ConversionStore.open<{ output: string }>('ns', observations, { NIGHTHAWK_CONVERSION_CACHE_DIR: cacheDir })!;
    store.save('', 'a', { output: 'A' }, observations.manifest());
    expect(store.find('', 'a')).toEqual({ result: { output: 'A' } });
    expect(store.find('', 'b')).toBeUndefined();
    expect(store.find('x', 'a')).toBeUndefined();
    // Another namespace (environment) does not see it.
    expect(ConversionStore.open('other', observations, { NIGHTHAWK_CONVERSION_CACHE_DIR: cacheDir })!.find('', 'a')).toBeUndefined();

    writeFileSync(path.join(dir, 'missing.d.ts'), '');
    expect(store.find('', 'a')).toBeUndefined();
    rmSync(path.join(dir, 'missing.d.ts'));
    expect(store.find('', 'a')).toEqual({ result: { output: 'A' } });
    writeFileSync(file, 'declare const a: 22;');
    expect(store.find('', 'a')).toBeUndefined();

    // A truncated entry is a miss, not an error.
    store.save('', 'c', { output: 'C' }, observations.manifest());
    const entry = readdirSync(cacheDir).filter((n) => n.startsWith('c-')).map((n) => path.join(cacheDir, n)).find((p) => readFileSync(p, 'utf8').includes('"C"'))!;
    writeFileSync(entry, '{"schema":');
    expect(store.find('', 'c')).toBeUndefined();
    expect(existsSync(entry)).toBe(true);
  });
});
