/**
 * A converted cell finds its `exports` and `require` on a global slot only between being handed to V8 and its
 * first statement: code running meanwhile (a model expression inside a cell, or a callback it left) finds no
 * global through which to reach the operator's `require` (the library, `node:fs`, tslab's display hooks) or the
 * cell scope. The red-team attack this stops: `Reflect.get(globalThis, Symbol.for('nighthawk.kernel.cell'))
 * .require.call(null, 'nighthawk-ts').activeSession()` from a model expression.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { createTslabCompiler } from '../../kernel/src/server/kernel/tslab-compiler.js';

const compiler = createTslabCompiler();
let count = 0;
const run = (source: string) => compiler.execute(source, { executionCount: ++count });
const plain = (outcome: Awaited<ReturnType<typeof run>>): unknown => (outcome.kind === 'ok' ? outcome.value?.['text/plain'] : outcome);

afterAll(() => compiler.close());

describe('the cell slot', () => {
  test('is gone while a cell runs, and after it, under the old name or any other', async () => {
    const probe = `[Reflect.get(globalThis, Symbol.for('nighthawk.kernel.cell')) === undefined, Object.getOwnPropertySymbols(globalThis).filter((s) => String(s.description).startsWith('nighthawk.kernel.cell')).length]`;
    expect(plain(await run(probe))).toBe('[ true, 0 ]');
    expect(plain(await run(`await new Promise((r) => setTimeout(r, 5));\n${probe}`))).toBe('[ true, 0 ]');
    expect(Object.getOwnPropertySymbols(globalThis).filter((s) => String(s.description).startsWith('nighthawk.kernel.cell'))).toEqual([]);
  });

  test('still gives cells their require and a shared scope, and a cell that fails to compile leaves nothing behind', async () => {
    expect(plain(await run('import path from "node:path";\nconst joined = path.join("a", "b");\njoined'))).toBe("'a/b'");
    expect(plain(await run('joined.length'))).toBe('3');
    const broken = await run('const = ;');
    expect(broken.kind).toBe('error');
    expect(Object.getOwnPropertySymbols(globalThis).filter((s) => String(s.description).startsWith('nighthawk.kernel.cell'))).toEqual([]);
  });
});
