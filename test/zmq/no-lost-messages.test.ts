import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { installedKernel, runPython, type JupyterEnv } from './zmq-fixture.js';

let jupyter: JupyterEnv;

beforeAll(async () => {
  jupyter = await installedKernel();
}, 120_000);

afterAll(() => jupyter?.cleanup());

interface FloodReport {
  sent: number;
  completed: number;
  replies_ok: number;
  busy: number;
  idle: number;
  execute_input: number;
  execute_result: number;
  order_violations: number;
  stalled: boolean;
}

describe('the ZeroMQ kernel under load', () => {
  test('10,000 pipelined `1+1` executes through jupyter_client: every reply, busy/idle pair, execute_input and execute_result arrives, in order', async () => {
    const N = 10_000;
    const result = await runPython('flood_executes.py', [jupyter.kernelName, String(N), '64'], jupyter, 150_000);
    const last = result.stdout.trim().split('\n').at(-1) ?? '';
    let report: FloodReport;
    try {
      report = JSON.parse(last) as FloodReport;
    } catch {
      expect.fail(`driver printed no report (exit ${result.code})\n${result.stdout}\n${result.stderr}`);
    }
    expect(report).toMatchObject({
      sent: N,
      completed: N,
      replies_ok: N,
      busy: N,
      idle: N,
      execute_input: N,
      execute_result: N,
      order_violations: 0,
      stalled: false,
    });
  }, 160_000);
});
