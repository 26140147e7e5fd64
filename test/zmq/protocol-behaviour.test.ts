import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { installedKernel, runPythonReport, type JupyterEnv } from './zmq-fixture.js';

interface ProtocolReport {
  heartbeat: { echo: string | null };
  forged_signature: { forged_answered: boolean; signed_answered: boolean };
  interrupt_by_signal: { started: boolean; status: string; ename: string; after: string };
  interrupt_by_message: { started: boolean; interrupt_reply: { status: string } | null; status: string; ename: string };
  abandoned_by_console: { started: boolean; shell: Array<[string, string, string]>; errors: string[] };
  operator_approval: { setup: string; prompts: string[]; status: { status: string }; results: string[]; last_run_text: string | null };
  escaped_error: { status: string; execution_count: number; stderr: string; after: string };
  restart: { new_process: boolean; status: string; execution_count: number; marker: string[] };
  shutdown: { reply: { status: string; restart: boolean } | null; exit_code: number | null };
}

let jupyter: JupyterEnv;
let report: ProtocolReport;

// One kernel session through jupyter_client's KernelManager runs every check in order (protocol_checks.py);
// each test below asserts one behaviour of its report.
beforeAll(async () => {
  jupyter = await installedKernel();
  report = await runPythonReport<ProtocolReport>('protocol_checks.py', [jupyter.kernelName], jupyter, 120_000);
}, 150_000);

afterAll(() => jupyter?.cleanup());

describe('the ZeroMQ kernel through jupyter_client', () => {
  test('the heartbeat socket echoes a ping', () => {
    expect(report.heartbeat.echo).toBe('ping-nighthawk');
  });

  test('a message with a forged HMAC signature gets no reply, and the same message signed with the key does', () => {
    expect(report.forged_signature).toEqual({ forged_answered: false, signed_answered: true });
  });

  test('an error that escapes a cell is reported on its stderr with the cell\'s frames, not the kernel\'s, and the kernel goes on', () => {
    const { status, execution_count: count, stderr, after } = report.escaped_error;
    expect([status, after]).toEqual(['ok', 'ok']);
    // After the approval check configured the Session, `explode` (declared by the cell) is a SessionFunction: called from
    // the cell's timer it starts a run and returns a promise, so its throw arrives as that promise's rejection.
    expect(stderr).toMatch(/^(?:Uncaught exception|Unhandled rejection): RangeError: late throw\n/);
    expect(stderr).toContain(`at explode (Cell [${count}], line 2)`);
    expect(stderr).not.toMatch(/node_modules|node:internal|compiled line|dist\//);
  });

  test('interrupt_mode "signal": SIGINT from the KernelManager stops a synchronous infinite loop with KeyboardInterrupt, and the kernel runs the next cell', () => {
    expect(report.interrupt_by_signal).toEqual({ started: true, status: 'error', ename: 'KeyboardInterrupt', after: 'ok' });
  });

  test('interrupt_request on the control channel is answered and stops an awaiting cell', () => {
    expect(report.interrupt_by_message).toEqual({ started: true, interrupt_reply: { status: 'ok' }, status: 'error', ename: 'KeyboardInterrupt' });
  });

  test('a console back at its prompt (is_complete from the session whose cell runs) interrupts that cell, is not sent its late execute_reply, and its next input runs', () => {
    expect(report.abandoned_by_console).toEqual({
      started: true,
      shell: [['is_complete_reply', 'is_complete', 'complete'], ['execute_reply', 'next input', 'ok']],
      errors: ['KeyboardInterrupt'],
    });
  });

  test('nh.operatorApproval asks over stdin (input_request) and the typed input_reply rejects the operation, shown in the run display', () => {
    const a = report.operator_approval;
    expect(a.setup).toBe('ok');
    expect(a.prompts[0]).toContain('evaluate 1 + 1');
    expect(a.prompts).toHaveLength(2);
    expect(a.status.status).toBe('ok');
    expect(a.results).toEqual(["'done'"]);
    expect(a.last_run_text).toContain('evaluate 1 + 1: rejected — not now (guidance: finish instead)');
  });

  test('restart starts a fresh kernel process: counting starts again and earlier state is gone', () => {
    expect(report.restart).toEqual({ new_process: true, status: 'ok', execution_count: 1, marker: ["'undefined'"] });
  });

  test('shutdown_request on control is answered with its restart flag, then the kernel process exits with code 0', () => {
    expect(report.shutdown).toEqual({ reply: { status: 'ok', restart: true }, exit_code: 0 });
  });
});
