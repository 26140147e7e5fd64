/**
 * The cell slot (see cell-slot.test.ts) through the path the red team used: a model expression inside a
 * SessionFunction that a cell of a real kernel process called. The expression looks for the operator's
 * `require` on the global slot, under the old name and under any name starting like it, while the cell that
 * called it runs (in its first call and in a later cell's): it finds nothing.
 */
import { describe, expect, test } from 'vitest';
import { startSessionKernelServer } from '../support/kernel-server.js';
import { kernelSuite } from '../support/kernel-suite.js';
import { runCell } from '../support/kernel-client.js';

const suite = kernelSuite(startSessionKernelServer);

/** What the expression can see of the slot: [nothing under the old name, no symbol named like it, no require reached]. */
const PROBE = `(() => {
  const named = Object.getOwnPropertySymbols(globalThis).filter((s) => String(s.description).startsWith("nighthawk.kernel.cell"));
  const slot = Reflect.get(globalThis, Symbol.for("nighthawk.kernel.cell"));
  const reached = [slot, ...named.map((s) => Reflect.get(globalThis, s))].some((v) => v && typeof v.require === "function");
  return [slot === undefined, named.length, reached];
})()`;

describe('the cell slot, probed by a model expression in a kernel', () => {
  test('a SessionFunction step finds no slot and no require, from its first cell and from a later one', async () => {
    const setup = await runCell(suite.kernel, `import * as nh from "nighthawk-ts";
import { ScriptedModel, toolCall } from "nighthawk-ts/testing";
import { z } from "zod";
const probe = ${JSON.stringify(PROBE)};
const slotModel = new ScriptedModel(() => ({ toolCalls: [toolCall("nh_assign", { target_path: "seen", expression: probe }), toolCall("nh_output", { result: { kind: "pass" } })] }));
nh.activeSession()!.configure({ executor: new nh.AgentExecutor({ model: slotModel }), oversight: { inspectOperation: () => nh.accept() } });
async function look(): Promise<unknown> {
  const r = await nh.step({ program: "execute\\nLook around into <:seen>.", writes: { seen: z.unknown() } });
  return r.bindings.seen;
}`);
    expect(setup.error).toBeUndefined();
    const during = await runCell(suite.kernel, 'JSON.stringify(await look())');
    expect(during.error).toBeUndefined();
    expect(during.result?.['text/plain']).toBe(`'[true,0,false]'`);

    // From a later cell, whose own slot would still be set had it outlived the cell's first statement.
    const again = await runCell(suite.kernel, 'const other = 1;\nJSON.stringify(await look())');
    expect(again.result?.['text/plain']).toBe(`'[true,0,false]'`);
  });
});
