/**
 * A SessionFunction adapter a model reached in a run (a step reference) and left as a value-protocol hook of a value
 * it hands back: `then`, `toJSON`, `toString`/`valueOf`, `Symbol.toPrimitive`, `Symbol.iterator`. Operator code that
 * later awaits, serializes, interpolates or spreads the value calls the adapter outside any run, where a call counts
 * as the operator's and would start a fresh run with the Session's grant: the model would choose when an approved
 * function runs with the Session's authority. The adapter refuses a call made as such a hook (found on its `this`
 * under a protocol key, or with the two resolving functions of a thenable's adoption) and records it
 * (`session_function_as_protocol_hook`); the operator's own calls, direct or as a method of a namespace, still run.
 */
import { describe, expect, it } from 'vitest';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

const PLANT = `(
  probe.thenable = { then: helper },
  probe.boundThenable = { then: helper.bind(null) },
  probe.json = { toJSON: helper },
  probe.str = { toString: helper, valueOf: helper },
  probe.prim = { [Symbol.toPrimitive]: helper },
  probe.iter = { [Symbol.iterator]: helper },
  probe.inherited = Object.create({ then: helper }),
  1)`;

describe('a SessionFunction adapter left as a value-protocol hook', () => {
  it('is refused when operator code touches the value after the run, and recorded; operator calls still run', async () => {
    const probe: Record<string, unknown> = {};
    let helperRuns = 0;
    const model = new ScriptedModel((_m, info) => (info.requestNumber === 1 ? { toolCalls: [toolCall('nh_evaluate', { expression: PLANT })] } : { toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] }));
    const session = new nh.Session({ executor: new nh.AgentExecutor({ model }) });
    const { helper } = session.materialized(session.submit('async function helper() {}'), { helper: async () => (helperRuns++, 'ran') });
    const { work } = session.materialized(session.submit('async function work() {}'), { work: async () => nh.step({ program: 'execute\nWork.', references: { helper, probe } }) });
    await work!();
    const runsBefore = session.ledger.select({ kind: 'run.entry' }).length;
    const tick = () => new Promise((resolve) => setTimeout(resolve, 20));
    const swallow = (f: () => unknown) => {
      try {
        const out = f();
        if (out instanceof Promise) out.catch(() => undefined);
      } catch {
        // the protocol's own complaint about a promise where it wanted a value
      }
    };
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      swallow(() => Promise.resolve(probe.thenable));
      swallow(() => Promise.resolve(probe.boundThenable));
      swallow(() => Promise.resolve(probe.inherited));
      swallow(() => JSON.stringify(probe.json));
      swallow(() => `${String(probe.str)}`);
      swallow(() => `${probe.prim as string}`);
      swallow(() => [...(probe.iter as Iterable<unknown>)]);
      await tick();
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
    expect(helperRuns).toBe(0);
    expect(session.ledger.select({ kind: 'run.entry' }).length).toBe(runsBefore);
    expect(session.anomalies.filter((a) => a.anomalyKind === 'session_function_as_protocol_hook').length).toBeGreaterThanOrEqual(7);
    // The operator's own calls: direct, and as a method of a namespace object (how a later cell reaches an earlier cell's export).
    await expect(helper!()).resolves.toBe('ran');
    const cellExports = { helper };
    await expect(cellExports.helper!()).resolves.toBe('ran');
    expect(helperRuns).toBe(2);
  });
});
