import { afterAll, beforeAll, expect, test } from 'vitest';
import { installedKernel, runPythonReport, type JupyterEnv } from './zmq-fixture.js';

interface Reply {
  msg_type: string;
  status: string;
  ename: string | null;
  evalue: string | null;
}
interface Result {
  status: string;
  value: string | null;
}
interface HostileReport {
  cold: Reply | null;
  cold_after: Result;
  cold_alive: boolean;
  warm: Reply | null;
  warm_after: Result;
  malformed: Record<'complete' | 'inspect' | 'execute_silent' | 'shutdown' | 'history' | 'comm_info', Reply | null>;
  malformed_after: Result;
  replay: { first: Reply | null; replayed: Reply | null; counter: Result };
  alive: boolean;
}

let jupyter: JupyterEnv;
let report: HostileReport;

// One kernel process through jupyter_client (hostile_messages.py); the tests assert parts of its report.
beforeAll(async () => {
  jupyter = await installedKernel();
  report = await runPythonReport<HostileReport>('hostile_messages.py', [jupyter.kernelName], jupyter, 150_000);
}, 180_000);

afterAll(() => jupyter?.cleanup());

test('a signed execute_request with content {code: 42} sent to a cold kernel gets an error execute_reply, and the kernel then answers 1+1', () => {
  expect(report.cold).toMatchObject({ msg_type: 'execute_reply', status: 'error', ename: 'InvalidMessage' });
  expect(report.cold!.evalue).toMatch(/code/);
  expect(report.cold_after).toEqual({ status: 'ok', value: '2' });
  expect(report.cold_alive).toBe(true);
});

test('the same message to a warm kernel gets an error reply and the shell channel keeps answering', () => {
  expect(report.warm).toMatchObject({ msg_type: 'execute_reply', status: 'error', ename: 'InvalidMessage' });
  expect(report.warm_after).toEqual({ status: 'ok', value: '2' });
});

test('malformed shell and control requests are answered with an error on their own channel', () => {
  for (const name of ['complete', 'inspect', 'execute_silent'] as const) {
    expect(report.malformed[name], name).toMatchObject({ msg_type: name === 'execute_silent' ? 'execute_reply' : `${name}_reply`, status: 'error', ename: 'InvalidMessage' });
  }
  expect(report.malformed.shutdown).toMatchObject({ msg_type: 'shutdown_reply', status: 'error', ename: 'InvalidMessage' });
  expect(report.malformed.comm_info).toMatchObject({ msg_type: 'comm_info_reply', status: 'error', ename: 'InvalidMessage' });
  expect(report.malformed.history).toMatchObject({ msg_type: 'history_reply', status: 'error' });
  expect(report.malformed_after).toEqual({ status: 'ok', value: '2' });
  expect(report.alive).toBe(true);
});

test('a replayed signed message is refused: it runs once and gets no second reply', () => {
  expect(report.replay.first).toMatchObject({ msg_type: 'execute_reply', status: 'ok' });
  expect(report.replay.replayed).toBeNull();
  expect(report.replay.counter).toEqual({ status: 'ok', value: '1' });
});
