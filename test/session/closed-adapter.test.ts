/**
 * Seed 001: "Closing a Session prevents calls through its SessionFunction adapters." A refusal, never a crash: a
 * model can leave an adapter where the host's promise machinery calls it later (the `then` of a value it hands
 * back), and after close nobody holds the promise that refusal rejects. It is recorded in the Session's anomalies
 * and absorbed where it reaches the event loop; the operator's own call still sees the error.
 */
import { describe, expect, it } from 'vitest';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

/**
 * A Session whose model, in a run of `plant`, evaluates `expression` with the adapter `helper` and `probe` as step
 * references; the Session is closed afterwards. `other` is a second adapter nobody planted.
 */
async function plantedThenClosed(expression: string) {
  const probe: Record<string, unknown> = {};
  const model = new ScriptedModel((_m, info) => (info.requestNumber === 1 ? { toolCalls: [toolCall('nh_evaluate', { expression })] } : { toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] }));
  const session = new nh.Session({ executor: new nh.AgentExecutor({ model }) });
  const { helper, other } = session.materialized(session.submit('async function helper() {}\nasync function other() {}'), { helper: async () => 'helper ran', other: async () => 2 });
  // The model reaches the adapter as a step reference.
  const { plant } = session.materialized(session.submit('async function plant() {}'), { plant: async () => nh.step({ program: 'execute\nDo it.', references: { helper, probe } }) });
  await plant!();
  await session.close();
  return { probe, session, helper: helper!, other: other! };
}

/** Runs `fn` and returns the rejections nobody handled meanwhile. */
async function unhandledDuring(fn: () => Promise<void>): Promise<unknown[]> {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  try {
    await fn();
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
  return unhandled;
}

describe('a SessionFunction adapter after close', () => {
  it('planted by a model as a thenable: refused and recorded, the process keeps running', async () => {
    const { probe, session, helper } = await plantedThenClosed('(probe.out = { then: helper }, 1)');
    const unhandled = await unhandledDuring(async () => {
      const settled = await Promise.race([Promise.resolve(probe.out).then(() => 'resolved', () => 'rejected'), new Promise((resolve) => setTimeout(() => resolve('pending'), 50))]);
      expect(settled).toBe('pending');
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(unhandled).toEqual([]);
    expect(session.anomalies.map((a) => a.anomalyKind)).toContain('session_function_after_close');
    await expect(helper()).rejects.toThrow(nh.SessionClosedError);
  });

  it("a loop of refused calls lists the first ones and counts the rest: it cannot fill the Session's record and hide a later one", async () => {
    const model = new ScriptedModel([() => ({ toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] })]);
    const session = new nh.Session({ executor: new nh.AgentExecutor({ model }) });
    const { helper, other } = session.materialized(session.submit('async function helper() {}\nasync function other() {}'), { helper: async () => 1, other: async () => 2 });
    await session.close();
    for (let i = 0; i < 1500; i++) await helper!().catch(() => {});
    await expect(other!()).rejects.toThrow(nh.SessionClosedError);
    const closed = session.anomalies.filter((a) => a.anomalyKind === 'session_function_after_close');
    expect(closed.filter((a) => a.detail['name'] === 'helper')).toHaveLength(100);
    expect(closed.filter((a) => a.detail['name'] === 'other')).toHaveLength(1);
    const dropped = session.anomalies.filter((a) => a.anomalyKind === 'anomalies_dropped' && a.detail['record'] === 'session');
    expect(dropped).toHaveLength(1);
    expect(dropped[0]!.detail['count']).toBe(1400);
  });
  it("a model that planted the adapter as the then of many values, all resolved after close, lists the first ones and counts the rest; a later refusal is still listed", async () => {
    const { probe, session, other } = await plantedThenClosed('(probe.out = Array.from({ length: 1500 }, () => ({ then: helper })), 1)');
    const unhandled = await unhandledDuring(async () => {
      // The host's promise machinery calls each planted then; no caller holds what the refusals reject.
      for (const value of probe.out as unknown[]) void Promise.resolve(value);
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(unhandled).toEqual([]);
    await expect(other()).rejects.toThrow(nh.SessionClosedError);
    const closed = session.anomalies.filter((a) => a.anomalyKind === 'session_function_after_close');
    expect(closed.filter((a) => a.detail['name'] === 'helper')).toHaveLength(100);
    expect(closed.filter((a) => a.detail['name'] === 'other')).toHaveLength(1);
    const dropped = session.anomalies.filter((a) => a.anomalyKind === 'anomalies_dropped' && a.detail['record'] === 'session');
    expect(dropped.map((a) => a.detail['count'])).toEqual([1400]);
  });
});
