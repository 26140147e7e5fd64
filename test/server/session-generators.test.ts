/**
 * Generator functions a cell defines keep their generator semantics in a kernel hosting a Session. They were
 * made SessionFunctions like any declared function, and a SessionFunction call from a cell starts a run and
 * answers with a promise: `[...gen()]` failed with "gen is not a function or its return value is not
 * iterable", and `for await (const x of stream())` with "not async iterable". A run cannot span the caller's
 * iteration (the body runs at each `next()`, after the call returned), so they are left as the cell wrote them.
 */
import { describe, expect, test } from 'vitest';
import { startSessionKernelServer } from '../support/kernel-server.js';
import { kernelSuite } from '../support/kernel-suite.js';
import { runCell } from '../support/kernel-client.js';

const suite = kernelSuite(startSessionKernelServer);

async function ok(code: string): Promise<{ value: unknown; stdout: string }> {
  const run = await runCell(suite.kernel, code);
  expect(run.error?.evalue, `cell ${JSON.stringify(code)}`).toBeUndefined();
  return { value: run.result?.['text/plain'], stdout: run.stdout };
}

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
});
