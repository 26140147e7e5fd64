/**
 * Local TypeScript modules a cell imports (`import { tool } from './tools'`): the cell's program type-checked them,
 * but at run time Node's require could not load a .ts file and the cell failed with "Cannot find module
 * './tools'" (tslab's own executor loads them; the kernel's did not). The cell's require now loads them,
 * transpiled, with their own local imports; a module whose file changed is loaded again by the next cell that
 * imports it, and an unchanged one keeps its instance.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { startKernelServer } from '../support/kernel-server.js';
import { kernelSuite } from '../support/kernel-suite.js';
import { runCell, runCellOk } from '../support/kernel-client.js';

const project = mkdtempSync(path.join(tmpdir(), 'nighthawk-local-modules-'));
mkdirSync(path.join(project, 'lib'));
writeFileSync(path.join(project, 'tools.ts'), [
  "import { double } from './lib/math';",
  'export let calls = 0;',
  'export function tool(n: number): number { calls++; return double(n) + 1; }',
  'export default class Greeter { constructor(readonly name: string) {} greet(): string { return `hi ${this.name}`; } }',
  '',
].join('\n'));
writeFileSync(path.join(project, 'lib', 'math.ts'), 'export const double = (n: number): number => n * 2;\n');
writeFileSync(path.join(project, 'lib', 'index.ts'), "export { double } from './math';\nexport const VERSION: string = '1';\n");
writeFileSync(path.join(project, 'esm-style.ts'), "import { double } from './lib/math.js';\nexport const quadruple = (n: number) => double(double(n));\n");

const suite = kernelSuite(() => startKernelServer({ kernelCwd: project, spareKernels: 0 }));
afterAll(() => rmSync(project, { recursive: true, force: true }));
const ok = (code: string) => runCellOk(suite.kernel, code);

describe('local TypeScript modules imported by cells', () => {
  test('named and default imports, a module importing another, a folder index and a .js specifier', async () => {
    expect((await ok("import { tool } from './tools';\ntool(4)")).value).toBe('9');
    expect((await ok("import Greeter from './tools';\nnew Greeter('ada').greet()")).value).toBe("'hi ada'");
    expect((await ok("import { VERSION } from './lib';\nVERSION")).value).toBe("'1'");
    expect((await ok("import { quadruple } from './esm-style';\nquadruple(3)")).value).toBe('12');
  });

  test('an unchanged module keeps its instance; a changed one is loaded again by the next cell that imports it', async () => {
    expect((await ok("import * as t1 from './tools';\nt1.tool(1); t1.calls")).value).toBe('2');
    expect((await ok("import * as t2 from './tools';\nt2.calls")).value).toBe('2');
    writeFileSync(path.join(project, 'lib', 'math.ts'), 'export const double = (n: number): number => n * 20;\n');
    expect((await ok("import { double } from './lib/math';\ndouble(2)")).value).toBe('40');
  });

  test('a type error in the imported module is the cell\'s error, before anything runs', async () => {
    writeFileSync(path.join(project, 'broken.ts'), 'export const n: number = "not a number";\n');
    const run = await runCell(suite.kernel, "import { n } from './broken';\nn");
    expect(run.error?.ename).toBe('TypeScriptError');
    expect(run.error?.evalue).toMatch(/broken\.ts .*Type 'string' is not assignable to type 'number'/);
  });

  test('a JavaScript file and a JSON file still load as Node loads them', async () => {
    writeFileSync(path.join(project, 'plain.js'), 'exports.answer = 42;\n');
    writeFileSync(path.join(project, 'data.json'), '{ "k": 5 }\n');
    expect((await ok("const plain = require('./plain') as { answer: number };\nplain.answer")).value).toBe('42');
    expect((await ok("import data from './data.json';\ndata.k")).value).toBe('5');
  });
});

// `__dirname` is declared by @types/node, so a cell using it passed the type check and then failed with
// "ReferenceError: __dirname is not defined". A cell now sees the directory its relative imports resolve from.
describe('__dirname and __filename in cells', () => {
  test('__dirname is the directory relative imports and reads resolve from; __filename a name in it', async () => {
    writeFileSync(path.join(project, 'notes.txt'), 'beside the notebook\n');
    expect((await ok("import { readFileSync } from 'node:fs';\nimport { join } from 'node:path';\nreadFileSync(join(__dirname, 'notes.txt'), 'utf8').trim()")).value).toBe("'beside the notebook'");
    expect((await ok('__dirname === process.cwd()')).value).toBe('true');
    expect((await ok("import { dirname } from 'node:path';\ndirname(__filename) === __dirname && __filename !== __dirname")).value).toBe('true');
  });

  test('a cell may still declare its own __dirname, and an async cell sees it too', async () => {
    expect((await ok("const __dirname = 'mine';\n__dirname")).value).toBe("'mine'");
    expect((await ok('__dirname')).value).toBe("'mine'");
    expect((await ok("await Promise.resolve();\ntypeof __filename")).value).toBe("'string'");
  });
});
