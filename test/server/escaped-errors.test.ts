/**
 * Errors that escape a cell (a throw in a timer, a rejection nobody awaited) are reported on the cell's stderr and
 * the kernel goes on. The report names cell frames as a cell's own error does (`Cell [N], line L`), without the
 * kernel's own frames: it printed the raw stack, with compiled line numbers and the kernel bundle's paths. So did
 * an error shown as a cell's value (`new Error("x")` as the last expression).
 */
import { describe, expect, test } from 'vitest';
import { kernelSuite } from '../support/kernel-suite.js';
import { runCell, runCellOk } from '../support/kernel-client.js';

const suite = kernelSuite();

const internals = /node_modules|kernel-process|node:internal|node:vm|compiled line/;

describe('errors that escape a cell', () => {
  test('a throw in a timer: reported where the cell wrote it, and the kernel goes on', async () => {
    const run = await runCell(suite.kernel, 'function explode() {\n  throw new RangeError("late throw");\n}\nsetTimeout(() => explode(), 10);\nawait new Promise((r) => setTimeout(r, 200));\n"waited"');
    expect(run.result?.['text/plain']).toBe("'waited'");
    const count = run.reply.status === 'ok' ? run.reply.execution_count : -1;
    expect(run.stderr).toContain('Uncaught exception: RangeError: late throw');
    expect(run.stderr).toContain(`at explode (Cell [${count}], line 2)`);
    expect(run.stderr).not.toMatch(internals);
    expect((await runCellOk(suite.kernel, '1 + 1')).value).toBe('2');
  });

  test('a rejection nobody awaited: reported with its cell frames', async () => {
    const run = await runCell(suite.kernel, 'async function failsLater() {\n  await new Promise((r) => setTimeout(r, 10));\n  throw new Error("async fail");\n}\nfailsLater();\nawait new Promise((r) => setTimeout(r, 200));');
    const count = run.reply.status === 'ok' ? run.reply.execution_count : -1;
    expect(run.stderr).toContain('Unhandled rejection: Error: async fail');
    expect(run.stderr).toContain(`at failsLater (Cell [${count}], line 3)`);
    expect(run.stderr).not.toMatch(internals);
  });

  test('a rejection with a value that is not an error is reported as that value', async () => {
    const run = await runCell(suite.kernel, 'void Promise.reject({ code: 7 });\nawait new Promise((r) => setTimeout(r, 100));');
    expect(run.stderr).toContain('Unhandled rejection: { code: 7 }');
  });

  test('a rejection made as the cell ends is reported in that cell, before its idle', async () => {
    // Node reports an unawaited rejection only after the turn that made it: the kernel waits that turn out before
    // the reply and idle, so a client that stops listening at idle (nbconvert, papermill, a test) still sees it.
    for (const code of ['void Promise.reject(new Error("at the end"));', 'Promise.reject(new Error("at the end")); 1']) {
      const run = await runCell(suite.kernel, code);
      expect(run.stderr).toContain('Unhandled rejection: Error: at the end');
    }
    const sync = await runCell(suite.kernel, 'queueMicrotask(() => { throw new TypeError("in a microtask"); });');
    expect(sync.stderr).toContain('Uncaught exception: TypeError: in a microtask');
  });

  test('an error shown as a cell\'s value reads as a cell\'s own error, with its own properties', async () => {
    const run = await runCell(suite.kernel, 'function make() {\n  return Object.assign(new RangeError("as value"), { code: 7 });\n}\nmake()');
    const count = run.reply.status === 'ok' ? run.reply.execution_count : -1;
    const text = String(run.result?.['text/plain']);
    expect(text.startsWith('RangeError: as value\n')).toBe(true);
    expect(text).toContain(`at make (Cell [${count}], line 2)`);
    expect(text).toContain('code: 7');
    expect(text).not.toMatch(internals);
  });
});
