import { afterAll, beforeAll, expect, test } from 'vitest';
import { installedKernel, runPythonReport, type JupyterEnv } from './zmq-fixture.js';

interface Spin {
  started: boolean;
  reply: { status: string; ename: string | null } | null;
  alive: boolean;
}
interface LoopReport {
  await_null: Spin;
  await_null_kept: string | null;
  promise_resolve: Spin;
  promise_resolve_kept: string | null;
  timer: { reply: { status: string; ename: string | null } | null; alive: boolean };
  timer_kept: string | null;
  prompt_await: { replies: string[]; alive: boolean };
  prompt_sync: { replies: string[]; alive: boolean } | null;
  prompt_kept: string | null;
}

let jupyter: JupyterEnv;
let report: LoopReport;

// One ZeroMQ kernel (with the Session host) interrupted by jupyter_client's SIGINT to its process group
// (interrupt_loops.py); the kernel's watchdog thread stops code that never yields to the event loop.
beforeAll(async () => {
  jupyter = await installedKernel();
  report = await runPythonReport<LoopReport>('interrupt_loops.py', [jupyter.kernelName], jupyter, 150_000);
}, 180_000);

afterAll(() => jupyter?.cleanup());

test('for (;;) { await null; } is interrupted with KeyboardInterrupt and the kernel keeps its state', () => {
  expect(report.await_null).toEqual({ started: true, reply: { status: 'error', ename: 'KeyboardInterrupt' }, alive: true });
  expect(report.await_null_kept).toBe('42');
});

test('for (;;) { await Promise.resolve(); } is interrupted with KeyboardInterrupt and the kernel keeps its state', () => {
  expect(report.promise_resolve).toEqual({ started: true, reply: { status: 'error', ename: 'KeyboardInterrupt' }, alive: true });
  expect(report.promise_resolve_kept).toBe('42');
});

test('a loop in a timer callback is stopped: the cell waiting behind it runs, with the state kept', () => {
  expect(report.timer).toEqual({ reply: { status: 'ok', ename: null }, alive: true });
  expect(report.timer_kept).toBe('42');
});

// Node's breakOnSigint left SIGINT fatal for a moment around every cell's synchronous part, and a client that
// interrupts on a cell's first output lands there often: about one kernel in three died (sigint-hold.ts).
test('an interrupt sent the moment a cell prints never ends the kernel: awaiting and looping cells, round after round', () => {
  expect(report.prompt_await).toEqual({ replies: Array(12).fill('KeyboardInterrupt'), alive: true });
  expect(report.prompt_sync).toEqual({ replies: Array(6).fill('KeyboardInterrupt'), alive: true });
  expect(report.prompt_kept).toBe('42');
});
