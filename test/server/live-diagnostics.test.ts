/** Issue 19.2: live diagnostics over the `nighthawk.diagnostics` comm, checked against earlier cells, nothing run. */
import { describe, expect, test } from 'vitest';
import type { Kernel } from '@jupyterlab/services';
import { kernelSuite } from '../support/kernel-suite.js';
import { runCell } from '../support/kernel-client.js';

const suite = kernelSuite();

interface Diagnostic { line: number; character: number; message: string; code: number; severity: string }

function diagnoser(k: Kernel.IKernelConnection): (code: string) => Promise<Diagnostic[]> {
  const comm = k.createComm('nighthawk.diagnostics');
  const waiting = new Map<number, (d: Diagnostic[]) => void>();
  let next = 0;
  comm.onMsg = (msg) => {
    const data = msg.content.data as unknown as { request_id: number; diagnostics: Diagnostic[] };
    waiting.get(data.request_id)?.(data.diagnostics);
  };
  comm.open({});
  return (code) => new Promise((resolve) => {
    const id = ++next;
    waiting.set(id, resolve);
    comm.send({ request_id: id, code });
  });
}

describe('live diagnostics comm', () => {
  test('type errors come back with positions, checked against the session; the code does not run', async () => {
    await runCell(suite.kernel, 'const limit: number = 3;\nlet ran = 0;');
    const diagnose = diagnoser(suite.kernel);
    const errors = await diagnose('const ok = limit + 1;\nlimit.toUpperCase();');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ line: 1, character: 6, code: 2339, severity: 'error' });
    expect(errors[0]!.message).toContain("Property 'toUpperCase' does not exist on type 'number'");
    // Names from earlier cells are known: no "Cannot find name" for them.
    await expect(diagnose('limit * 2')).resolves.toEqual([]);
    await expect(diagnose('missingName + 1')).resolves.toEqual([expect.objectContaining({ code: 2304, line: 0, character: 0 })]);
    // Checking is not running: the assignment never happened.
    await diagnose('ran = 99;');
    const check = await runCell(suite.kernel, 'ran');
    expect(check.result?.['text/plain']).toBe('0');
    // A cell that ran after the check still sees its own declarations, and the comm is listed.
    const info = await suite.kernel.requestCommInfo({});
    expect(Object.values((info.content as { comms: Record<string, { target_name: string }> }).comms)).toContainEqual({ target_name: 'nighthawk.diagnostics' });
  });

  test('an unknown comm target is closed by the kernel', async () => {
    const comm = suite.kernel.createComm('no.such.target');
    const closed = new Promise<boolean>((resolve) => {
      comm.onClose = () => resolve(true);
      setTimeout(() => resolve(false), 5000);
    });
    comm.open({});
    await expect(closed).resolves.toBe(true);
  });
});
