import { describe, expect, test } from 'vitest';
import { startSessionKernelServer } from '../support/kernel-server.js';
import { kernelSuite } from '../support/kernel-suite.js';
import { runCell, type CellRun } from '../support/kernel-client.js';

// Issue 15.8: one error per failure, user frames only (library frames kept apart for a "show internals"
// toggle), and one naming scheme for cell frames: `Cell [N], line L`.
const suite = kernelSuite(startSessionKernelServer);

const count = (run: CellRun): number => run.reply.execution_count as number;
const traceback = (run: CellRun): string => run.error!.traceback.join('\n');
const internals = (run: CellRun): string[] => {
  const msg = run.iopub.find((m) => m.header.msg_type === 'error');
  return ((msg?.metadata as Record<string, unknown> | undefined)?.['nighthawk/internals'] as string[] | undefined) ?? [];
};
/** Everything a text-only frontend prints for the cell. */
const plainText = (run: CellRun): string =>
  [
    ...run.iopub
      .filter((m) => m.header.msg_type === 'display_data' || m.header.msg_type === 'update_display_data')
      .slice(-1)
      .map((m) => String((m.content as { data: Record<string, unknown> }).data['text/plain'] ?? '')),
    traceback(run),
  ].join('\n');

function expectOnlyUserFrames(text: string): void {
  expect(text).not.toMatch(/file:\/\/|node:internal|\/dist\/|\.js:\d+/);
  expect(text).not.toMatch(/cell-\d+:\d+/);
  expect(text).not.toContain('Proxy.');
}

describe('cell errors', () => {
  test('a function from an earlier cell throws: every frame is named Cell [N], line L, library frames are kept apart', async () => {
    const defined = await runCell(suite.kernel, 'function inner() {\n  throw new Error("boom inside");\n}\nfunction outer() { return inner(); }');
    const calling = await runCell(suite.kernel, '// calls outer\nasync function callsOuter() { return outer(); }\nawait callsOuter()');
    expect(calling.error).toMatchObject({ ename: 'Error', evalue: 'boom inside' });
    const text = traceback(calling);
    expect(text.split('\n')[0]).toBe('Error: boom inside');
    expect(text).toContain(`at inner (Cell [${count(defined)}], line 2)`);
    expect(text).toContain(`at outer (Cell [${count(defined)}], line 4)`);
    expect(text).toContain(`at callsOuter (Cell [${count(calling)}], line 2)`);
    expect(text.match(/at inner /g)).toHaveLength(1);
    expectOnlyUserFrames(text);
    expect(internals(calling).join('\n')).toMatch(/session\.js|runner\.js/);
  });

  test('a SessionFunction call as the last expression is awaited: its failure is the cell error, its run view ends failed', async () => {
    await runCell(suite.kernel, 'function fails() {\n  throw new TypeError("bad input");\n}');
    const run = await runCell(suite.kernel, 'fails()');
    expect(run.reply.status).toBe('error');
    expect(run.error).toMatchObject({ ename: 'TypeError', evalue: 'bad input' });
    expect(plainText(run)).toMatch(/run fails \(run_[^)]+\): failed/);
    const ok = await runCell(suite.kernel, 'function fine() { return 21 * 2; }');
    expect(ok.reply.status).toBe('ok');
    expect((await runCell(suite.kernel, 'fine()')).result?.['text/plain']).toBe('42');
  });

  test('a failed Natural execution is told once: in the run view, the cell error points at it', async () => {
    await runCell(suite.kernel, 'import * as nh from "nighthawk-ts"');
    const defined = await runCell(suite.kernel, 'async function askModel() {\n  const r = await nh.step({ program: "execute\\nSay hi." });\n  return r.kind;\n}');
    const run = await runCell(suite.kernel, 'await askModel()');
    expect(run.reply.status).toBe('error');
    const all = plainText(run);
    // The cause's message appears exactly once across the run view and the error.
    expect(all.match(/No model is configured/g)).toHaveLength(1);
    expect(all).toMatch(/execution .*: failed — UsageError: No model is configured/);
    expect(run.error!.ename).toBe('NaturalExecutionError');
    expect(run.error!.evalue).toMatch(/failed in run askModel \(UsageError, shown in the run view above\)/);
    const text = traceback(run);
    expect(text).toContain(`at async askModel (Cell [${count(defined)}], line 2)`);
    expectOnlyUserFrames(text);
    expect(internals(run).join('\n')).toMatch(/run-host\.js/);
  });

  test('a Natural block in a cell is a step named after the cell and its line', async () => {
    await runCell(suite.kernel, 'import * as nh from "nighthawk-ts"');
    const defined = await runCell(suite.kernel, 'const block = nh.function(async function block() {\n  let note = "";\n  "execute\\nWrite <:note>.";\n  return note;\n});');
    expect(defined.reply.status).toBe('ok');
    const run = await runCell(suite.kernel, 'await block()');
    expect(plainText(run)).toContain(`execution Cell [${count(defined)}], line 3: failed`);
    expect(plainText(run)).not.toContain('cell.ts');
  });
});
