/**
 * Top-level statements a TypeScript user writes in cells that tslab's converter did not handle:
 * - `for await` at the top of a cell (streaming a model's answer) and `await (…)` (`await (await fetch(u)).json()`)
 *   ran in a plain function and failed ("Unexpected reserved word", "await is not defined"): tslab's TypeScript
 *   reports no top-level-await diagnostic for them;
 * - `declare global { … }` failed with "Cannot find name '__global'": the augmentation's internal symbol was
 *   exported as if it were a variable;
 * - `export` on a declaration (code pasted from a module) failed with "Cannot redeclare exported variable", and
 *   `import.meta` at run time with "Cannot use 'import.meta' outside a module".
 */
import { describe, expect, test } from 'vitest';
import { kernelSuite } from '../support/kernel-suite.js';
import { runCell, runCellOk } from '../support/kernel-client.js';

const suite = kernelSuite();

const ok = (code: string) => runCellOk(suite.kernel, code);

describe('top-level for await', () => {
  test('at the top of a cell, in a block, and with a value after it', async () => {
    const gen = 'async function* chunks() { yield "a"; await new Promise((r) => setTimeout(r, 5)); yield "b" }';
    expect((await ok(`${gen}\nfor await (const c of chunks()) console.log(c)`)).stdout).toBe('a\nb\n');
    expect((await ok('if (true) {\n  for await (const c of chunks()) console.log(c.toUpperCase())\n}')).stdout).toBe('A\nB\n');
    expect((await ok('let joined = "";\nfor await (const c of chunks()) joined += c;\njoined')).value).toBe("'ab'");
    // The loop's names reach later cells as any other cell's do.
    expect((await ok('joined.length')).value).toBe('2');
  });

  test('inside a function it is that function\'s, and a sync cell stays sync', async () => {
    expect((await ok('async function collect() { const out: string[] = []; for await (const c of chunks()) out.push(c); return out }\n(await collect()).join("-")')).value).toBe("'a-b'");
    const sync = await runCell(suite.kernel, 'function notAsync() { for await (const c of chunks()) {} }');
    expect(sync.error?.evalue).toMatch(/'for await' loops are only allowed within async functions/);
  });

  test('an error thrown in the loop is the cell\'s error', async () => {
    const run = await runCell(suite.kernel, 'async function* failing() { yield 1; throw new Error("stream broke") }\nfor await (const n of failing()) console.log(n)');
    expect(run.stdout).toBe('1\n');
    expect(run.error?.evalue).toBe('stream broke');
  });
});

describe('top-level await of a parenthesized expression', () => {
  test('await (…) forms run awaited, as await x does', async () => {
    await ok('const response = { json: async () => ({ ok: 1 }) };');
    expect((await ok('const body = await (await Promise.resolve(response)).json();\nbody.ok')).value).toBe('1');
    expect((await ok('await (async () => 3)()')).value).toBe('3');
    expect((await ok('const four = await (Promise.resolve(4));\nfour')).value).toBe('4');
    expect((await ok('const first = await (async () => { for await (const x of [Promise.resolve(5)]) return x })();\nfirst')).value).toBe('5');
  });
});

describe('declare global', () => {
  test('a global declared in one cell is typed in the next', async () => {
    expect((await ok('declare global { var sharedFlag: number }\nglobalThis.sharedFlag = 7;\nsharedFlag')).value).toBe('7');
    expect((await ok('sharedFlag + 1')).value).toBe('8');
    const wrong = await runCell(suite.kernel, 'const s: string = sharedFlag;');
    expect(wrong.error?.evalue).toMatch(/Type 'number' is not assignable to type 'string'/);
  });
});

describe('export in a cell', () => {
  test('export on declarations is accepted: the names are shared with later cells as any cell\'s are', async () => {
    expect((await ok('export const exportedValue = 9;\nexport function exportedFn(n: number) { return n + exportedValue }\nexport class ExportedThing { id = 1 }\nexport interface ExportedShape { r: number }\nexport type ExportedId = string;\nexport enum ExportedKind { A }\nexportedFn(1)')).value).toBe('10');
    expect((await ok('const shape: ExportedShape = { r: exportedValue };\n[shape.r, new ExportedThing().id, ExportedKind.A]')).value).toBe('[ 9, 1, 0 ]');
  });

  test('an export list of names already declared is accepted; a default export, a re-export or import.meta is refused by name', async () => {
    expect((await ok('const listed = 3;\nexport { listed };\nlisted')).value).toBe('3');
    const byDefault = await runCell(suite.kernel, 'export default 42;');
    expect(byDefault.error?.evalue).toMatch(/export default/);
    const reexport = await runCell(suite.kernel, "export * from 'node:path';");
    expect(reexport.error?.evalue).toMatch(/export .* from/);
    const meta = await runCell(suite.kernel, 'const here = 1;\nconsole.log(import.meta.url)');
    expect(meta.error?.ename).toBe('CellSyntaxError');
    expect(meta.error?.evalue).toMatch(/^2:13 - `import\.meta` is not available in a cell .*use `__dirname`/);
  });
});
