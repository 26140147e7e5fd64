import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Kernel } from '@jupyterlab/services';
import { startKernelServer, type KernelServerFixture } from '../support/kernel-server.js';
import { runCell } from '../support/kernel-client.js';

// The fixture package stands in for the built `nighthawk-ts` until dist/kernel/src/index.js is part of the
// test setup: kernel processes run in its directory, so `import … from "kernel-fixture-package"` is a
// package self-reference resolved exactly as `nighthawk-ts` is from the repo root.
const fixtureDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'support', 'kernel-fixture-package');

let fx: KernelServerFixture;
let kernel: Kernel.IKernelConnection;

beforeAll(async () => {
  fx = await startKernelServer({ spareKernels: 0, kernelCwd: fixtureDir, hostModule: path.join(fixtureDir, 'host.js') });
  kernel = await fx.kernels.startNew();
  await kernel.info;
}, 60_000);

afterAll(async () => {
  await fx?.close();
});

describe('the kernel host seam', () => {
  test('cells import the library by package name and get the instance the host holds', async () => {
    const run = await runCell(kernel, 'import { Marker, registry } from "kernel-fixture-package";\nregistry.hostMarker instanceof Marker');
    expect(run.error).toBeUndefined();
    expect(run.result?.['text/plain']).toBe('true');
  });

  test('the package types are checked in cells', async () => {
    const run = await runCell(kernel, 'import { registry } from "kernel-fixture-package";\nconst n: number = registry.submitted');
    expect(run.error?.ename).toBe('TypeScriptError');
    expect(run.error?.evalue).toContain("Type 'string[]' is not assignable to type 'number'");
  });

  test('every cell is submitted to the host before it runs, and the host can refuse one', async () => {
    const before = await runCell(kernel, 'registry.submitted.length');
    const count = Number(before.result?.['text/plain']);
    const refused = await runCell(kernel, 'const sideEffect = 1; "REFUSE"');
    expect(refused.reply.status).toBe('error');
    expect(refused.error?.evalue).toBe('cell refused by the host');
    const after = await runCell(kernel, '[registry.submitted.length, registry.submitted.at(-2)]');
    expect(after.result?.['application/json']).toEqual([count + 2, 'const sideEffect = 1; "REFUSE"']);
    expect((await runCell(kernel, 'typeof sideEffect')).error?.ename).toBe('TypeScriptError');
  });

  test('afterCell sees the declared values and can rebind them for later cells', async () => {
    await runCell(kernel, 'function helper(x: number) { return x + 1 }\nlet rebindMe: unknown = "original"');
    const last = await runCell(kernel, 'registry.results.at(-1)');
    expect(last.result?.['application/json']).toEqual({ kind: 'ok', declared: ['helper', 'rebindMe'] });
    expect((await runCell(kernel, 'rebindMe')).result?.['text/plain']).toBe("'rebound by host'");
  });

  test('the source transform runs before compilation', async () => {
    expect((await runCell(kernel, '@@answer@@ + 0')).result?.['text/plain']).toBe('42');
  });

  test('the host publishes display_data and update_display_data on the running cell', async () => {
    const run = await runCell(
      kernel,
      'registry.channel!.display({ "text/plain": "running" }, { displayId: "op-1" });\n' +
        'registry.channel!.display({ "text/plain": "done" }, { displayId: "op-1", update: true });',
    );
    expect(run.displays.map((m) => [m.header.msg_type, (m.content as { data: Record<string, string> }).data['text/plain'], (m.content as { transient?: { display_id: string } }).transient?.display_id])).toEqual([
      ['display_data', 'running', 'op-1'],
      ['update_display_data', 'done', 'op-1'],
    ]);
    expect(run.displays.every((m) => (m.parent_header as { msg_id: string }).msg_id === run.iopub[0]!.parent_header.msg_id)).toBe(true);
  });

  test('requestInput asks over stdin and resolves with the input_reply', async () => {
    const prompts: string[] = [];
    const run = await runCell(kernel, 'await registry.channel!.requestInput("Approve? ", { timeoutMs: 10000 })', {
      onStdin: (msg) => {
        prompts.push((msg.content as { prompt: string }).prompt);
        kernel.sendInputReply({ status: 'ok', value: 'accept' }, msg.header as never);
      },
    });
    expect(prompts).toEqual(['Approve? ']);
    expect(run.result?.['text/plain']).toBe("'accept'");
  });

  test('an input request still waiting when its cell ends fails closed, naming why', async () => {
    await runCell(kernel, 'void registry.channel!.requestInput("Approve? ", { timeoutMs: 10000 }).catch((e: Error) => ((globalThis as Record<string, unknown>).inputFailure = `${e.name}: ${e.message}`))', { onStdin: () => {} });
    const run = await runCell(kernel, '(globalThis as Record<string, unknown>).inputFailure');
    expect(run.result?.['text/plain']).toBe("'InputRequestError: Input request failed: the cell finished before a reply arrived.'");
  });

  test('an unanswered input request fails closed after its timeout', async () => {
    const run = await runCell(kernel, 'await registry.channel!.requestInput("Approve? ", { timeoutMs: 200 })', { onStdin: () => {} });
    expect(run.reply.status).toBe('error');
    expect(run.error).toMatchObject({ ename: 'InputRequestError', evalue: 'Input request failed: no reply within 200 ms.' });
  });
});
