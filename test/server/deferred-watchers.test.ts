/**
 * A program the kernel's compiler builds while a cell waits opens its watchers after that cell, not before its
 * conversion returns (node_modules is watched recursively: one watch per directory on Linux). A file the
 * program read that changes before they open is still seen; a spare opens them before it is handed out.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const built = path.join(root, 'dist', 'kernel', 'src', 'server', 'kernel');
const scratch = mkdtempSync(path.join(tmpdir(), 'nighthawk-deferred-watchers-'));

/** A project whose program reads a global declaration from node_modules/@types, with a few more directories there. */
function project(): { dir: string; declarations: string } {
  const dir = mkdtempSync(path.join(scratch, 'project-'));
  const types = path.join(dir, 'node_modules', '@types', 'probe-global');
  mkdirSync(types, { recursive: true });
  for (let i = 0; i < 20; i++) mkdirSync(path.join(dir, 'node_modules', `pkg-${i}`, 'lib'), { recursive: true });
  writeFileSync(path.join(types, 'package.json'), JSON.stringify({ name: '@types/probe-global', types: 'index.d.ts' }));
  const declarations = path.join(types, 'index.d.ts');
  writeFileSync(declarations, 'declare const probeGlobal: number;\n');
  return { dir, declarations };
}

// In a process of its own (tslab's compiler uses cwd), counting the file-system watches TypeScript opens.
const script = (declarations: string, openAtOnce: boolean): string => `
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
const fs = createRequire(import.meta.url)('node:fs');
let watches = 0;
const watch = fs.watch;
fs.watch = (...args) => (watches++, watch.apply(fs, args));
const watchFile = fs.watchFile;
fs.watchFile = (...args) => (watches++, watchFile.apply(fs, args));
const { createTslabCompiler } = await import(${JSON.stringify(path.join(built, 'tslab-compiler.js'))});
const compiler = createTslabCompiler();
const codes = (source) => compiler.diagnose(source).map((d) => d.code);
const cell = 'const a: number = 1 as unknown as typeof probeGlobal;';
compiler.buildProgram();
const first = codes(cell);
const watchesAfterFirstCell = watches;
if (${openAtOnce}) compiler.openWatchers();
const watchesAfterOpen = watches;
// Changed while no watcher looks (unless they were opened above).
writeFileSync(${JSON.stringify(declarations)}, 'declare const probeGlobal: { changed: true };\\n');
let after = codes(cell);
for (const t0 = Date.now(); after.length === 0 && Date.now() - t0 < 20000; ) {
  await new Promise((r) => setTimeout(r, 50));
  after = codes(cell);
}
console.log(JSON.stringify({ first, after, watchesAfterFirstCell, watchesAfterOpen, watches }));
process.exit(0);`;

function run(openAtOnce: boolean): { first: number[]; after: number[]; watchesAfterFirstCell: number; watchesAfterOpen: number; watches: number } {
  const { dir, declarations } = project();
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script(declarations, openAtOnce)], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, NIGHTHAWK_CONVERSION_CACHE_DIR: 'off', NIGHTHAWK_COMPILER_SNAPSHOT_DIR: 'off' },
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as ReturnType<typeof run>;
}

beforeAll(() => {
  if (!existsSync(path.join(built, 'tslab-compiler.js'))) execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'ignore' });
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the compiler's watchers", () => {
  test('open after the first cell, and a declaration changed before they open is still seen', () => {
    const r = run(false);
    expect(r.first).toEqual([]);
    // Nothing watched while the first cell converted: the program's watches all waited.
    expect(r.watchesAfterFirstCell).toBe(0);
    expect(r.watchesAfterOpen).toBe(0);
    // They opened later (node_modules and its directories among them) ...
    expect(r.watches).toBeGreaterThan(20);
    // ... and the change made before that was seen: the program was built again against the new file.
    expect(r.after).toEqual([2322]);
  }, 120_000);

  test('open at once when asked (a spare, before it is handed out), and then see a change as it happens', () => {
    const r = run(true);
    expect(r.first).toEqual([]);
    expect(r.watchesAfterFirstCell).toBe(0);
    expect(r.watchesAfterOpen).toBeGreaterThan(20);
    expect(r.after).toEqual([2322]);
  }, 120_000);
});
