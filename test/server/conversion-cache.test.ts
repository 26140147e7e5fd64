/**
 * The kernel compiler's conversion cache: an unchanged cell against unchanged declarations is not converted
 * again, cells that import included (a cell the server prepared ahead runs without converting), and an entry
 * stands only while none of the TypeScript program's watchers fired: a cell importing a file that changed on
 * disk is checked against the new file, as a fresh conversion would be.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const built = path.join(root, 'dist', 'kernel', 'src', 'server', 'kernel');
const dir = mkdtempSync(path.join(tmpdir(), 'nighthawk-conversion-cache-'));

// In a process of its own, with the notebook directory as its working directory (tslab's compiler uses cwd).
// tslab's converter is wrapped to count the conversions that really happen.
const script = `
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
const load = createRequire(${JSON.stringify(path.join(root, 'package.json'))});
const { createTslabCompiler, preloadTslab } = await import(${JSON.stringify(path.join(built, 'tslab-compiler.js'))});
// The kernel's converter (loaded mended, as the module of its path) is the one wrapped.
preloadTslab();
const tslab = load(load.resolve('tslab/dist/converter'));
let conversions = 0;
const create = tslab.createConverter;
tslab.createConverter = (options) => {
  const converter = create(options);
  const convert = converter.convert;
  converter.convert = (...args) => (conversions++, convert(...args));
  return converter;
};
const compiler = createTslabCompiler();
const importing = 'import { x } from "./mod";\\nconst s: string = x;';
const codes = () => compiler.diagnose(importing).map((d) => d.code);
const counted = (fn) => { const before = conversions; const value = fn(); return { value, converted: conversions - before }; };
const first = counted(codes);
const again = counted(codes);
writeFileSync('mod.ts', 'export const x: string = "now a string";\\n');
let changed = counted(codes);
for (const t0 = Date.now(); changed.value.length > 0 && Date.now() - t0 < 20000; ) {
  await new Promise((r) => setTimeout(r, 50));
  changed = counted(codes);
}
// A cell without the import: mod.ts leaves the program and is no longer watched.
const other = counted(() => compiler.diagnose('const n: number = 1;').length);
writeFileSync('mod.ts', 'export const x: number = 2;\\n');
const unwatched = counted(codes);
console.log(JSON.stringify({ first, again, changed, other, unwatched }));
process.exit(0);`;

beforeAll(() => {
  if (!existsSync(path.join(built, 'tslab-compiler.js'))) execFileSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'ignore' });
  writeFileSync(path.join(dir, 'mod.ts'), 'export const x: number = 1;\n');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the conversion cache', () => {
  test('an importing cell is converted once while nothing it read changed, and again once its import changed on disk', () => {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
    const r = JSON.parse(out.trim().split('\n').at(-1)!) as Record<string, { value: unknown; converted: number }>;
    // number is not assignable to string
    expect(r['first']).toEqual({ value: [2322], converted: 1 });
    // The same text against the same (empty) declarations: taken from the cache.
    expect(r['again']).toEqual({ value: [2322], converted: 0 });
    // The file changed: its watcher fired and the cell was converted again, against the new declaration.
    expect(r['changed']!.value).toEqual([]);
    expect(r['changed']!.converted).toBeGreaterThan(0);
    expect(r['other']!.converted).toBe(1);
    // The file changed while no watcher looked at it: the cached entry is not taken.
    expect(r['unwatched']).toEqual({ value: [2322], converted: 1 });
  }, 120_000);
});
