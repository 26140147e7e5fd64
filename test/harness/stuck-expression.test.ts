/**
 * Seed 002: cooperative cancellation unwinds the body and records its terminal decision before propagating the
 * caller's cancellation. A model expression whose promise never settles must not hold the body (and the caller's
 * pending run call) for ever: a host stop cuts the operation off (recorded aborted), the step ends, the body
 * unwinds, and the caller receives a typed error. Without established cessation no run end is recorded.
 */
import { describe, expect, it } from 'vitest';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

const stuck = () =>
  new ScriptedModel([() => ({ toolCalls: [toolCall('nh_evaluate', { expression: 'new Promise(() => {})' })] }), () => ({ toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] })]);
const settled = <T>(p: Promise<T>, ms = 2000) => Promise.race([p.then((v) => ({ value: v }), (error: unknown) => ({ error })), new Promise<'pending'>((r) => setTimeout(() => r('pending'), ms))]);
const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
};

describe('a model expression that never settles', () => {
  it('RunHandle.terminate with the cooperative mechanism: false, and the run call rejects with RunTerminatedError', async () => {
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model: stuck() }) });
    const handle = runner.start(() => nh.step({ program: 'execute\nWait.' }));
    await waitFor(() => runner.ledger.select({ kind: 'operation' }).length > 0 || runner.ledger.select({}).some((e) => e.kind === 'execution.start'));
    await new Promise((r) => setTimeout(r, 20));
    expect(await handle.terminate('stop')).toBe(false);
    const outcome = await settled(handle.result);
    expect(outcome).not.toBe('pending');
    expect((outcome as { error: unknown }).error).toBeInstanceOf(nh.RunTerminatedError);
    expect(((outcome as { error: nh.RunTerminatedError }).error).ceased).toBe(false);
    const events = runner.ledger.select({});
    expect(events.filter((e) => e.kind === 'operation').map((e) => e.status)).toEqual(['aborted']);
    expect(events.filter((e) => e.kind === 'execution.end')).toHaveLength(1);
    expect(events.filter((e) => e.kind === 'run.end')).toEqual([]);
  });

  it("the caller's abort signal: the body unwinds and the run ends failed with the step's typed error", async () => {
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model: stuck() }) });
    const controller = new AbortController();
    const result = runner.run(() => nh.step({ program: 'execute\nWait.' }), { signal: controller.signal });
    await waitFor(() => runner.ledger.select({}).some((e) => e.kind === 'execution.start'));
    await new Promise((r) => setTimeout(r, 20));
    controller.abort(new Error('caller gave up'));
    const outcome = await settled(result);
    expect(outcome).not.toBe('pending');
    expect((outcome as { error: unknown }).error).toBeInstanceOf(nh.NaturalExecutionError);
    const events = runner.ledger.select({});
    expect(events.filter((e) => e.kind === 'operation').map((e) => e.status)).toEqual(['aborted']);
    expect(events.filter((e) => e.kind === 'run.end').map((e) => e.status)).toEqual(['failed']);
  });

  it('with a mechanism that establishes cessation: true, and the run ends terminated', async () => {
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model: stuck() }), termination: { terminate: async () => ({ ceased: true }) } });
    const handle = runner.start(() => nh.step({ program: 'execute\nWait.' }));
    await waitFor(() => runner.ledger.select({}).some((e) => e.kind === 'execution.start'));
    await new Promise((r) => setTimeout(r, 20));
    expect(await handle.terminate('stop')).toBe(true);
    const outcome = await settled(handle.result);
    expect((outcome as { error: unknown }).error).toBeInstanceOf(nh.RunTerminatedError);
    const events = runner.ledger.select({});
    expect(events.filter((e) => e.kind === 'run.end').map((e) => e.status)).toEqual(['terminated']);
    const counts = new Map<string, number>();
    for (const e of events) if (e.kind === 'execution.end' || e.kind === 'run.end') counts.set(e.subjectId, (counts.get(e.subjectId) ?? 0) + 1);
    expect([...counts.values()].every((c) => c === 1)).toBe(true);
  });
});
