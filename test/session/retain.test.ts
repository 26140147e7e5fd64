import { describe, expect, it } from 'vitest';
import {
  AgentExecutor,
  OperatorControlError,
  RetainedFunction,
  Runner,
  Session,
  SessionClosedError,
  SubmissionRefusedError,
  currentExecutionRef,
  hashSource,
} from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

const executor = () => new AgentExecutor({ model: new ScriptedModel(() => ({ toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] })) });

/** A definition generated (dispatched) in some earlier run, retained as inert data. */
async function retainedAdder(): Promise<RetainedFunction> {
  const runner = new Runner({ executor: executor() });
  const materialization = await runner.run((ctx) =>
    ctx.dispatch({ language: 'typescript', intent: 'define', source: 'export function add(a: number, b: number): number { return a + b; }' }),
  );
  return RetainedFunction.retain(materialization, 'add');
}

describe('session.retain(retained, name?)', () => {
  it('a call from operator code starts a fresh run per call and re-materializes the retained definition there', async () => {
    const retained = await retainedAdder();
    const session = new Session({ executor: executor() });
    const add = session.retain<(a: number, b: number) => number>(retained, 'add');
    await expect(add(2, 3)).resolves.toBe(5);
    await expect(add(4, 5)).resolves.toBe(9);
    const entries = session.ledger.select({ kind: 'run.entry' });
    expect(entries).toHaveLength(2);
    expect(new Set(entries.map((e) => e.runId)).size).toBe(2);
    expect(entries.map((e) => e.data.label)).toEqual(['add', 'add']);
    for (const entry of entries) {
      const starts = session.ledger.select({ runId: entry.runId, kind: 'dispatch.start' });
      expect(starts.map((e) => e.status)).toEqual(['materialization', 'invocation']);
      const materialization = starts[0]!;
      expect(materialization.data).toMatchObject({ originalDefinitionId: retained.definitionId });
      // A fresh run-local identity each time.
      expect(materialization.data.materializationId).not.toBe(retained.originalMaterializationId);
    }
  });

  it('a call from inside a run joins that run', async () => {
    const retained = await retainedAdder();
    const session = new Session({ executor: executor() });
    const add = session.retain<(a: number, b: number) => number>(retained);
    const submission = session.submit('async function outer() { return [currentExecutionRef().runId, await add(1, 1)]; }');
    const { outer } = session.materialized(submission, { outer: async () => [currentExecutionRef().runId, await add(1, 1), await add(2, 2)] });
    const [runId, first, second] = (await outer!()) as [string, number, number];
    expect([first, second]).toEqual([2, 4]);
    expect(session.ledger.select({ kind: 'run.entry' }).map((e) => e.runId)).toEqual([runId]);
    expect(session.ledger.select({ runId, kind: 'dispatch.start', status: 'materialization' })).toHaveLength(2);
  });

  it('the callable stays generated source: never approved, by retention, by a cell that declares it, or by registration', async () => {
    const retained = await retainedAdder();
    const session = new Session({ executor: executor() });
    const add = session.retain(retained, 'add');
    await add(1, 2);
    expect(session.isApproved(add)).toBe(false);
    expect(session.evidenceFor(add)).toBeUndefined();
    const submission = session.submit('const again = add');
    expect(session.materialized(submission, { again: add })).toEqual({ again: add });
    expect(session.isApproved(add)).toBe(false);
    expect(() => session.registerImported(add, { reviewedSourceHash: hashSource(retained.proposal.source) })).toThrow(SubmissionRefusedError);
    expect(session.isApproved(add)).toBe(false);
    expect(session.retain(retained, 'add')).toBe(add);
  });

  it('closing the Session refuses calls; the RetainedFunction stays usable by another host-established run', async () => {
    const retained = await retainedAdder();
    const session = new Session({ executor: executor() });
    const add = session.retain(retained);
    await session.close();
    await expect(add(1, 2)).rejects.toBeInstanceOf(SessionClosedError);
    expect(() => session.retain(retained)).toThrow(SessionClosedError);
    const other = new Runner({ executor: executor() });
    await expect(other.run(() => retained.invoke(1, 2))).resolves.toBe(3);
  });

  it('retain is an operator control: refused from inside a run, and only takes a RetainedFunction', async () => {
    const retained = await retainedAdder();
    const session = new Session({ executor: executor() });
    const submission = session.submit('async function sneaky() {}');
    const { sneaky } = session.materialized(submission, { sneaky: async () => session.retain(retained) });
    await expect(sneaky!()).rejects.toBeInstanceOf(OperatorControlError);
    expect(() => session.retain({ exportName: 'add' } as unknown as RetainedFunction)).toThrow(TypeError);
  });
});
