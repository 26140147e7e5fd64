import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Kernel, KernelMessage } from '@jupyterlab/services';
import { startKernelServer, type KernelServerFixture } from '../support/kernel-server.js';
import { runCell } from '../support/kernel-client.js';

// Loops that never yield to the event loop: the interrupt message and SIGINT cannot reach them, the kernel's
// watchdog thread can (interrupt-watchdog.ts). Each is interrupted and the state of earlier cells is checked.
let fx: KernelServerFixture;
let kernel: Kernel.IKernelConnection;

beforeAll(async () => {
  fx = await startKernelServer({ spareKernels: 1 });
  kernel = await fx.kernels.startNew();
  await runCell(kernel, 'let kept = 41');
}, 60_000);

afterAll(async () => {
  await fx?.close();
});

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `code`, interrupting once it has printed `started` (so the loop is really spinning). */
function runAndInterrupt(code: string) {
  let interrupted = false;
  return runCell(kernel, `console.log("started"); ${code}`, {
    onIOPub: (msg: KernelMessage.IIOPubMessage) => {
      if (!interrupted && msg.header.msg_type === 'stream') {
        interrupted = true;
        void delay(300).then(() => kernel.interrupt());
      }
    },
  });
}

describe('interrupt stops loops that never yield, and keeps the kernel state', () => {
  test('a microtask spin: for (;;) { await null; }', async () => {
    const run = await runAndInterrupt('for (;;) { await null; }');
    expect(run.reply.status).toBe('error');
    expect(run.error?.ename).toBe('KeyboardInterrupt');
    expect((await runCell(kernel, 'kept + 1')).result?.['text/plain']).toBe('42');
  }, 30_000);

  test('a microtask spin: for (;;) { await Promise.resolve(); }', async () => {
    const run = await runAndInterrupt('for (;;) { await Promise.resolve(); }');
    expect(run.error?.ename).toBe('KeyboardInterrupt');
    expect((await runCell(kernel, 'kept += 1; kept')).result?.['text/plain']).toBe('42');
    expect((await runCell(kernel, 'kept -= 1; kept')).result?.['text/plain']).toBe('41');
  }, 30_000);

  test('a loop in a timer callback, after its cell finished: the next cell runs once interrupted', async () => {
    const scheduled = await runCell(kernel, 'setTimeout(() => { while (true) {} }, 200); "scheduled"');
    expect(scheduled.result?.['text/plain']).toBe("'scheduled'");
    await delay(600);
    // The kernel is wedged: this cell waits until the interrupt frees the event loop.
    const next = runCell(kernel, 'kept + 1');
    await delay(500);
    await kernel.interrupt();
    const run = await next;
    expect(run.reply.status).toBe('ok');
    expect(run.result?.['text/plain']).toBe('42');
  }, 30_000);

  test('a synchronous loop still stops through SIGINT, and an awaiting cell through the message', async () => {
    expect((await runAndInterrupt('while (true) {}')).error?.ename).toBe('KeyboardInterrupt');
    expect((await runAndInterrupt('await new Promise(() => {})')).error?.ename).toBe('KeyboardInterrupt');
    expect((await runCell(kernel, 'kept')).result?.['text/plain']).toBe('41');
  }, 30_000);
});

describe('where the runtime may not stop the loop, the kernel restarts and the cell says so', () => {
  test('a microtask spin in a fresh kernel after AsyncLocalStorage was used (Node aborts unwinding async hooks)', async () => {
    // Measured on Node 20: once an async hook is enabled (the Session's AsyncLocalStorage does so),
    // terminating a microtask spin aborts the process; the server restarts it and the cell's error says so.
    kernel = await fx.kernels.startNew();
    await runCell(kernel, 'let lost = 1; import { AsyncLocalStorage } from "node:async_hooks"; new AsyncLocalStorage().run(1, () => {});');
    const reconnected = new Promise<void>((resolve) => {
      let autorestarted = false;
      kernel.statusChanged.connect((_, status) => {
        if (status === 'autorestarting') autorestarted = true;
      });
      kernel.connectionStatusChanged.connect((_, status) => {
        if (autorestarted && status === 'connected') resolve();
      });
    });
    const run = await runAndInterrupt('for (;;) { await null; }');
    expect(run.reply.status).toBe('error');
    // Whether Node aborts while unwinding depends on timing: either the spin stops with the state kept, or the
    // kernel restarts and the cell says so. Never a hang, and never a silent loss of state.
    expect(['KeyboardInterrupt', 'KernelRestarted']).toContain(run.error?.ename);
    if (run.error?.ename === 'KeyboardInterrupt') {
      expect((await runCell(kernel, 'typeof lost')).result?.['text/plain']).toBe("'number'");
      return;
    }
    expect(run.error?.evalue).toMatch(/could not stop the running code.*restarted.*state are lost/);
    await reconnected;
    expect((await runCell(kernel, '1+1')).result?.['text/plain']).toBe('2');
    expect((await runCell(kernel, 'typeof lost')).error?.evalue).toContain("Cannot find name 'lost'");
  }, 40_000);
});
