/**
 * A kernel started for a new notebook session converts the notebook's first code cell ahead (again after each
 * restart), so running it does not wait for the compiler. Converting is all it does: nothing runs, nothing is
 * counted or declared, and a session whose path is no readable notebook starts as before.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { notebookJson } from '../web/web-harness.js';
import { runCell } from '../support/kernel-client.js';
import { startSessionKernelServer, type KernelServerFixture } from '../support/kernel-server.js';

let fx: KernelServerFixture;

beforeAll(async () => {
  fx = await startSessionKernelServer({ spareKernels: 1 });
}, 60_000);

afterAll(async () => {
  await fx.close();
});

async function createSession(notebook: string): Promise<{ kernel: { id: string; name: string } }> {
  const response = await fetch(`${fx.server.baseUrl}api/sessions?token=${fx.server.token}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ path: notebook, type: 'notebook', name: notebook, kernel: { name: 'nighthawk' } }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { kernel: { id: string; name: string } };
}

describe('the first code cell, converted ahead', () => {
  test('is converted and not run: its side effect happens only when it is executed, as execution 1', async () => {
    const marker = path.join(fx.sandbox, 'first-cell-ran');
    const first = `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "ran");\nconst answer: number = 41;\nanswer + 1`;
    writeFileSync(path.join(fx.notebookDir, 'prepared.ipynb'), notebookJson([{ source: '# Title', type: 'markdown' }, { source: first }, { source: 'answer * 2' }]));
    await fx.server.kernels.waitForSpare();
    const session = await createSession('prepared.ipynb');
    const kernel = fx.server.kernels.get(session.kernel.id)!;
    // Asked once the server read the notebook, after the session's reply.
    await vi.waitFor(() => expect(kernel.prepared).toBeDefined(), { timeout: 5000 });
    await kernel.prepared;
    expect(existsSync(marker)).toBe(false);

    const connection = fx.kernels.connectTo({ model: session.kernel });
    const run = await runCell(connection, first);
    expect(run.error).toBeUndefined();
    expect(run.result?.['text/plain']).toBe('42');
    expect(run.reply.execution_count).toBe(1);
    expect(existsSync(marker)).toBe(true);
    // Declared by the run, not by the conversion ahead.
    expect((await runCell(connection, 'answer * 2')).result?.['text/plain']).toBe('82');
    connection.dispose();
  }, 120_000);

  test('after a restart the new process converts the notebook\'s first code cell as saved then, and runs nothing', async () => {
    const marker = path.join(fx.sandbox, 'restarted-cell-ran');
    const first = (n: number) => `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "ran");\n${n} + 1`;
    const file = path.join(fx.notebookDir, 'restarted.ipynb');
    writeFileSync(file, notebookJson([{ source: first(1) }]));
    const session = await createSession('restarted.ipynb');
    const kernel = fx.server.kernels.get(session.kernel.id)!;
    await vi.waitFor(() => expect(kernel.prepared).toBeDefined(), { timeout: 5000 });
    const before = kernel.prepared;
    await before;
    // Saved again before the restart: the new process is asked for the cell as it is now.
    writeFileSync(file, notebookJson([{ source: first(41) }]));
    const restart = await fetch(`${fx.server.baseUrl}api/kernels/${session.kernel.id}/restart?token=${fx.server.token}`, { method: 'POST', headers: { 'Content-Type': 'application/json' } });
    expect(restart.status).toBe(200);
    await vi.waitFor(() => expect(kernel.prepared).not.toBe(before), { timeout: 10_000 });
    await kernel.prepared;
    expect(existsSync(marker)).toBe(false);
    const connection = fx.kernels.connectTo({ model: session.kernel });
    const run = await runCell(connection, first(41));
    expect(run.result?.['text/plain']).toBe('42');
    expect(run.reply.execution_count).toBe(1);
    expect(existsSync(marker)).toBe(true);
    connection.dispose();
  }, 120_000);

  test('a first cell with a type error is refused when run, as any other', async () => {
    writeFileSync(path.join(fx.notebookDir, 'typed.ipynb'), notebookJson([{ source: 'const n: number = "text";\nn' }]));
    const session = await createSession('typed.ipynb');
    const kernel = fx.server.kernels.get(session.kernel.id)!;
    await vi.waitFor(() => expect(kernel.prepared).toBeDefined(), { timeout: 5000 });
    await kernel.prepared;
    const connection = fx.kernels.connectTo({ model: session.kernel });
    const run = await runCell(connection, 'const n: number = "text";\nn');
    expect(run.error?.evalue ?? '').toMatch(/not assignable to type 'number'/);
    connection.dispose();
  }, 120_000);

  test('a session for no readable notebook starts its kernel with nothing prepared', async () => {
    for (const notebook of ['missing.ipynb', 'console-1', '../outside.ipynb']) {
      const session = await createSession(notebook);
      const kernel = fx.server.kernels.get(session.kernel.id)!;
      // Reading the notebook failed before anything was asked of the kernel.
      await new Promise((r) => setTimeout(r, 100));
      expect(kernel.prepared).toBeUndefined();
      const connection = fx.kernels.connectTo({ model: session.kernel });
      expect((await runCell(connection, '1 + 1')).result?.['text/plain']).toBe('2');
      connection.dispose();
    }
  }, 120_000);
});
