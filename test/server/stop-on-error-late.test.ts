/**
 * stop_on_error aborts what a client queued behind a failing cell, also when those requests reach the kernel only
 * after the failure (a browser's run all sends its requests over tens of milliseconds, and a type error fails in
 * a few): the requests of the same batch (EXECUTE_BATCH_METADATA), and those of the same session dated before
 * that client could have seen the failure's reply. A request sent after seeing it runs, whatever the timing.
 */
import { describe, expect, it } from 'vitest';
import { EXECUTE_BATCH_METADATA } from '../../shared/rest.js';
import { KernelRuntime } from '../../kernel/src/server/kernel/kernel-runtime.js';
import type { CellCompiler, CellOutcome } from '../../kernel/src/server/kernel/cell-compiler.js';

const ran: string[] = [];
const compiler = {
  execute: async (code: string): Promise<CellOutcome> => {
    ran.push(code);
    // As a type error does: it fails in a few milliseconds.
    await new Promise((r) => setTimeout(r, 5));
    return code.startsWith('fail') ? { kind: 'error', ename: 'TypeScriptError', evalue: code, traceback: [] } : { kind: 'ok', value: undefined, declared: {} };
  },
  complete: () => ({ matches: [], cursorStart: 0, cursorEnd: 0 }),
  inspect: () => ({ found: false, text: '' }),
  isComplete: () => ({ status: 'complete', indent: '' }),
  rebind: () => {},
  interrupt: () => {},
  close: () => {},
} as unknown as CellCompiler;

interface Sent {
  code: string;
  session?: string;
  date?: Date;
  batch?: string;
  stopOnError?: boolean;
}

function kernel() {
  const replies = new Map<string, string>();
  const rt = new KernelRuntime(compiler, (msg) => {
    if (msg.header.msg_type !== 'execute_reply') return;
    const parent = msg.parent_header as { msg_id: string };
    replies.set(parent.msg_id, (msg.content as { status: string }).status);
  }, 'kernel-session');
  let n = 0;
  /** Sends an execute request and resolves with its reply's status. */
  const send = ({ code, session = 'client-a', date = new Date(), batch, stopOnError = true }: Sent): Promise<string> => {
    const msgId = `m${++n}`;
    const header = { msg_id: msgId, msg_type: 'execute_request', session, username: 'u', date: date.toISOString(), version: '5.3' };
    const metadata = batch === undefined ? {} : { [EXECUTE_BATCH_METADATA]: batch };
    rt.handle({ header, parent_header: {}, metadata, content: { code, stop_on_error: stopOnError }, channel: 'shell', buffers: [] } as never, 'route');
    return (async () => {
      while (!replies.has(msgId)) await new Promise((r) => setTimeout(r, 1));
      return replies.get(msgId)!;
    })();
  };
  return { send };
}

describe('stop_on_error for requests that arrive after the failure they were queued behind', () => {
  it('a request the client sent before it could see the failure is aborted; one sent after it runs', async () => {
    ran.length = 0;
    const { send } = kernel();
    const sentAt = new Date();
    await expect(send({ code: 'fail first', date: sentAt })).resolves.toBe('error');
    // Sent in the same burst (the same client time), it reaches the kernel only now.
    await expect(send({ code: 'late twin', date: sentAt })).resolves.toBe('aborted');
    await expect(send({ code: 'late twin 2', date: new Date(sentAt.getTime() + 2) })).resolves.toBe('aborted');
    // Sent now, after the failure's reply arrived: it runs.
    await expect(send({ code: 'after the reply' })).resolves.toBe('ok');
    expect(ran).toEqual(['fail first', 'after the reply']);
  });

  it('the rest of a batch is aborted whenever it arrives; a new batch runs', async () => {
    ran.length = 0;
    const { send } = kernel();
    await expect(send({ code: 'fail in batch', batch: 'run-all-1' })).resolves.toBe('error');
    await new Promise((r) => setTimeout(r, 30));
    await expect(send({ code: 'late batch member', batch: 'run-all-1', date: new Date() })).resolves.toBe('aborted');
    await expect(send({ code: 'next run all', batch: 'run-all-2' })).resolves.toBe('ok');
    expect(ran).toEqual(['fail in batch', 'next run all']);
  });

  it('another client, or a request without stop_on_error, is not judged by the failing client\'s time', async () => {
    ran.length = 0;
    const { send } = kernel();
    const sentAt = new Date();
    await expect(send({ code: 'fail', date: sentAt })).resolves.toBe('error');
    await expect(send({ code: 'other client', session: 'client-b', date: sentAt })).resolves.toBe('ok');
    await expect(send({ code: 'no stop on error', date: sentAt, stopOnError: false })).resolves.toBe('ok');
    expect(ran).toEqual(['fail', 'other client', 'no stop on error']);
  });

  it('requests queued when the failure happens are aborted as before, from any client', async () => {
    ran.length = 0;
    const { send } = kernel();
    const replies = [send({ code: 'fail now' }), send({ code: 'queued a', session: 'client-b' }), send({ code: 'queued b' })];
    await expect(Promise.all(replies)).resolves.toEqual(['error', 'aborted', 'aborted']);
    expect(ran).toEqual(['fail now']);
  });
});
