/**
 * Names that start with two underscores (`__x`, `__v8`, `__Row`) in cells. TypeScript keeps such names escaped
 * inside (`___x`); tslab 1.0.22's converter wrote the escaped form into the code it checks (`export { ___x }`),
 * so a cell declaring and using `__x` failed with "Cannot find name '___x'", and completion of `__` matched
 * nothing. The kernel loads the converter with those places mended (tslab-converter-fixes.ts).
 */
import { describe, expect, test } from 'vitest';
import { kernelSuite } from '../support/kernel-suite.js';
import { runCell, runCellOk } from '../support/kernel-client.js';

const suite = kernelSuite();

const value = async (code: string): Promise<unknown> => (await runCellOk(suite.kernel, code)).value;

describe('names with two leading underscores', () => {
  test('declared and used in one cell, then in the next', async () => {
    expect(await value('const __x = 20;\n__x + 1')).toBe('21');
    expect(await value('__x * 2')).toBe('40');
    expect(await value('let ___y = 3;\n___y + __x')).toBe('23');
  });

  test('a namespace import, a function and a class', async () => {
    expect(await value('import * as __os from "node:os";\ntypeof __os.platform()')).toBe("'string'");
    expect(await value('function __twice(n: number) { return 2 * n }\n__twice(4)')).toBe('8');
    expect(await value('class __Row { constructor(readonly id: number) {} }\nnew __Row(7).id')).toBe('7');
    expect(await value('__twice(new __Row(5).id)')).toBe('10');
  });

  test('a class whose name a later cell gives to an interface keeps its value', async () => {
    await value('class __Shape { kind = "circle" }');
    await value('interface __Shape { radius: number }');
    expect(await value('typeof __Shape')).toBe("'function'");
  });

  test('type errors still name the variable as written', async () => {
    const run = await runCell(suite.kernel, 'const __n: number = "text";');
    expect(run.error?.evalue).toMatch(/Type 'string' is not assignable to type 'number'/);
    const missing = await runCell(suite.kernel, '__notDeclared + 1');
    expect(missing.error?.evalue).toMatch(/Cannot find name '__notDeclared'/);
  });

  test('completion of a two-underscore prefix offers the names', async () => {
    await value('const __alpha = 1;\nconst __alpine = 2;');
    const reply = await suite.kernel.requestComplete({ code: '__alp', cursor_pos: 5 });
    const matches = (reply.content as { matches: string[] }).matches;
    expect(matches).toEqual(expect.arrayContaining(['__alpha', '__alpine']));
    expect(matches.indexOf('__alpha')).toBeLessThan(2);
  });
});
