/**
 * Functions of every kind a cell defines keep the semantics they were written with in a kernel hosting a Session:
 * - Generator functions were made SessionFunctions like any declared function, and a SessionFunction call from a
 *   cell starts a run and answers with a promise: `[...gen()]` failed ("not iterable"), and so did `for await`
 *   over an async generator. A run cannot span the caller's iteration (the body runs at each `next()`, after the
 *   call returned), so they are left as the cell wrote them.
 * - A synchronous function called from another inside a run answered with a promise: `add(x, x) * 2` was NaN,
 *   and a throw became a rejection nobody saw (the run "completed", the cell said nothing). Inside a run it now
 *   answers as written; a call from a cell still starts a run, and the kernel awaits its result.
 * - A Natural function in a local helper module a cell imports is compiled by the host's transform, as a cell's
 *   is (it was refused as "not compiled by the Nighthawk transform").
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { startSessionKernelServer } from '../support/kernel-server.js';
import { kernelSuite } from '../support/kernel-suite.js';
import { runCell, runCellOk } from '../support/kernel-client.js';

const suite = kernelSuite(startSessionKernelServer);
// A helper module in the kernel's working directory (the repository), imported by a cell as `./<dir>/agent`.
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const helperDir = mkdtempSync(path.join(repoRoot, '.nh-test-local-module-'));
afterAll(() => rmSync(helperDir, { recursive: true, force: true }));

const ok = (code: string) => runCellOk(suite.kernel, code);

describe('generator functions in a Session kernel', () => {
  test('a generator function iterates in its own cell and in later ones', async () => {
    await ok('import * as nh from "nighthawk-ts";');
    expect((await ok('function* numbers() { yield 1; yield 2 }\n[...numbers()]')).value).toBe('[ 1, 2 ]');
    expect((await ok('Array.from(numbers(), (n) => n * 10)')).value).toBe('[ 10, 20 ]');
  });

  test('an async generator streams with for await', async () => {
    expect((await ok('async function* words() { yield "a"; yield "b" }\nfor await (const w of words()) console.log(w)')).stdout).toBe('a\nb\n');
    expect((await ok('const got: string[] = [];\nfor await (const w of words()) got.push(w);\ngot.join("")')).value).toBe("'ab'");
  });

  test('ordinary functions of the same cell still become SessionFunctions; the generators stay unapproved', async () => {
    await ok('function plain() { return 1 }\nasync function* counted() { yield await plain() }');
    expect((await ok('[nh.activeSession()!.isApproved(plain), nh.activeSession()!.isApproved(counted)]')).value).toBe('[ true, false ]');
    // Called from the generator's body (operator code), the SessionFunction starts its run as from a cell.
    expect((await ok('const counts: number[] = [];\nfor await (const n of counted()) counts.push(n);\ncounts')).value).toBe('[ 1 ]');
  });

  test('synchronous functions compose inside a run, and a throw inside one fails the run and the cell', async () => {
    expect((await ok('function add(a: number, b: number) { return a + b }\nfunction twice(x: number) { return add(x, x) * 2 }\ntwice(3)')).value).toBe('12');
    expect((await ok('[nh.activeSession()!.isApproved(add), nh.activeSession()!.isApproved(twice)]')).value).toBe('[ true, true ]');
    const failing = await runCell(suite.kernel, 'function thrower(): number { throw new TypeError("bad input") }\nfunction caller() { return thrower() + 1 }\ncaller()');
    expect(failing.error?.ename).toBe('TypeError');
    expect(failing.error?.evalue).toBe('bad input');
    const runViews = failing.iopub.filter((m) => m.header.msg_type === 'update_display_data').map((m) => (m.content as { data: Record<string, { status?: string }> }).data['application/vnd.nighthawk.run+json']?.status);
    expect(runViews.at(-1)).toBe('failed');
  });

  test('an async function called inside a run still answers with its promise', async () => {
    expect((await ok('async function later(n: number) { return n + 1 }\nasync function chain() { const p = later(1); return [p instanceof Promise, await p] }\nawait chain()')).value).toBe('[ true, 2 ]');
  });

  test('a Natural function in a local helper module is compiled as a cell\'s is, and runs in the calling function\'s run', async () => {
    writeFileSync(path.join(helperDir, 'agent.ts'), [
      "import * as nh from 'nighthawk-ts';",
      'export const shorten = nh.function(async function shorten(text: string): Promise<string> {',
      "  let summary: string = '';",
      '  `execute',
      '  Summarize <text> into <:summary>.`;',
      '  return summary;',
      '});',
      '',
    ].join('\n'));
    await ok([
      "import * as nh from 'nighthawk-ts';",
      "import { ScriptedModel, toolCall } from 'nighthawk-ts/testing';",
      "nh.activeSession()!.configure({ executor: new nh.AgentExecutor({ model: new ScriptedModel(() => ({ toolCalls: [toolCall('nh_assign', { target_path: 'summary', expression: '\"short\"' }), toolCall('nh_output', { result: { kind: 'pass' } })] })) }) });",
    ].join('\n'));
    expect((await ok(`import { shorten } from './${path.basename(helperDir)}/agent';\nasync function useIt() { return shorten('a long text') }\nawait useIt()`)).value).toBe("'short'");
    // A block the transform refuses fails the importing cell, naming the helper's file.
    writeFileSync(path.join(helperDir, 'broken.ts'), "import * as nh from 'nighthawk-ts';\nexport const bad = nh.function(async function bad(): Promise<string> {\n  `execute\n  Put it into <:nowhere>.`;\n  return '';\n});\n");
    const refused = await runCell(suite.kernel, `import { bad } from './${path.basename(helperDir)}/broken';\ntypeof bad`);
    expect(refused.error?.ename).toBe('LocalModuleError');
    expect(refused.error?.evalue).toContain(`${path.basename(helperDir)}/broken.ts: `);
  });
});
