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

/** A client's request is done at its idle: one that never comes fails here, not at the suite's timeout. */
function within<T>(p: Promise<T>, what: string): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what} never completed (no idle for it)`)), 10_000))]);
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
    // Module syntax a cell accepts is not flagged; what it refuses is, where it is (cell-module-syntax.ts).
    await expect(diagnose('export const doubled = limit * 2;')).resolves.toEqual([]);
    await expect(diagnose('const n = 1;\n  export default n;')).resolves.toEqual([expect.objectContaining({ line: 1, character: 2, severity: 'error', message: expect.stringContaining('export default') })]);
    // Checking is not running: the assignment never happened.
    await diagnose('ran = 99;');
    const check = await runCell(suite.kernel, 'ran');
    expect(check.result?.['text/plain']).toBe('0');
    // A cell that ran after the check still sees its own declarations, and the comm is listed.
    const info = await suite.kernel.requestCommInfo({});
    expect(Object.values((info.content as { comms: Record<string, { target_name: string }> }).comms)).toContainEqual({ target_name: 'nighthawk.diagnostics' });
    // Asked for one target: only that target's comms (none of another's).
    const mine = await suite.kernel.requestCommInfo({ target_name: 'nighthawk.diagnostics' });
    expect(Object.keys((mine.content as { comms: object }).comms).length).toBeGreaterThan(0);
    const other = await suite.kernel.requestCommInfo({ target_name: 'jupyter.widget' });
    expect((other.content as { comms: object }).comms).toEqual({});
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

  test('every comm message is framed busy and idle, so the request a client sent completes; none is framed inside a running cell', async () => {
    const k = suite.kernel;
    const statuses: Array<[string, string | undefined, string | undefined]> = [];
    const onIopub = (_: unknown, msg: { header: { msg_type: string }; parent_header: unknown; content: unknown }): void => {
      const parent = msg.parent_header as { msg_type?: string; msg_id?: string };
      if (msg.header.msg_type === 'status') statuses.push([(msg.content as { execution_state: string }).execution_state, parent.msg_type, parent.msg_id]);
    };
    // This test's own comm requests: an idle of an earlier test's request can still arrive after the listener connects.
    const mine = new Set<string>();
    const sent = <F extends { msg: { header: { msg_id: string } }; done: Promise<unknown> }>(future: F): Promise<unknown> => (mine.add(future.msg.header.msg_id), future.done);
    k.iopubMessage.connect(onIopub);
    try {
      const comm = k.createComm('nighthawk.diagnostics');
      await within(sent(comm.open({})), 'comm_open');
      // A cell that waits, and a check sent while it runs: the check is answered, and framed, after the cell.
      const cell = k.requestExecute({ code: 'await new Promise((r) => setTimeout(r, 600)); 1' });
      await new Promise((r) => setTimeout(r, 200));
      await within(sent(comm.send({ request_id: 1, code: 'const x: number = 1;' })), 'comm_msg');
      await cell.done;
      const executeIdle = statuses.findIndex(([state, parent]) => state === 'idle' && parent === 'execute_request');
      const commBusy = statuses.findIndex(([state, parent]) => state === 'busy' && parent === 'comm_msg');
      expect(commBusy).toBeGreaterThan(executeIdle);
      await within(sent(comm.close()), 'comm_close');
      // A target the kernel does not serve: closed, and the open completes.
      await within(sent(k.createComm('no.such.target').open({})), 'comm_open of an unknown target');
      // services settles a request's future before it hands the same idle to iopub listeners.
      await new Promise((r) => setTimeout(r, 50));
      expect(statuses.filter(([, parent, id]) => parent?.startsWith('comm_') && id !== undefined && mine.has(id)).map(([state]) => state)).toEqual(['busy', 'idle', 'busy', 'idle', 'busy', 'idle', 'busy', 'idle']);
    } finally {
      k.iopubMessage.disconnect(onIopub);
    }
  });

  test('a restart answers the requests in flight, not the comm messages answered long before', async () => {
    const k = suite.kernel;
    const comm = k.createComm('nighthawk.diagnostics');
    await within(comm.open({}).done, 'comm_open');
    // Done at the message's idle (the answer comes just before it): nothing of it is in flight after.
    await within(comm.send({ request_id: 1, code: '1 + 1' }).done, 'comm_msg');
    const stale: string[] = [];
    const onAny = (_: unknown, args: { msg: { header: { msg_type: string }; parent_header: unknown } }): void => {
      const parent = (args.msg.parent_header as { msg_type?: string }).msg_type;
      if (parent?.startsWith('comm_') && args.msg.header.msg_type !== 'status') stale.push(`${args.msg.header.msg_type} for ${parent}`);
    };
    k.anyMessage.connect(onAny);
    try {
      await k.restart();
      await k.info;
      await new Promise((r) => setTimeout(r, 500));
      expect(stale).toEqual([]);
    } finally {
      k.anyMessage.disconnect(onAny);
    }
  });
});
