/**
 * Attack: model code calls the run's dispatcher itself. Seed 001 gives generated source two typed routes to the
 * one host dispatch (a CodeProposal committed through a write binding, the execute_code capability); a model
 * expression or generated code that reaches `nh.currentDispatcher()` and calls `dispatch` would run source it
 * wrote without either. Refused before anything is admitted, recorded as `dispatch_from_model_code`; the typed
 * routes keep working from the same run.
 */
import { describe, expect, it } from 'vitest';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

const pass = () => toolCall('nh_output', { result: { kind: 'pass' } });
const PROPOSAL = "{ language: 'javascript', intent: 'define-and-invoke', entry: 'run', source: 'export function run() { sink.push(\"ran\"); return 1; }', dependencies: [{ name: 'sink', kind: 'reference', type: 'array' }] }";

function dispatchEvents(runner: nh.Runner) {
  const events = runner.ledger.select({});
  return { events, starts: events.filter((e) => e.kind === 'dispatch.start'), anomalies: events.filter((e) => e.kind === 'trace.anomaly' && e.status === 'dispatch_from_model_code') };
}

describe('attack: model code dispatching generated source itself', () => {
  it('from a model expression: refused, nothing admitted, the attempt recorded under its operation', async () => {
    const sink: string[] = [];
    const model = new ScriptedModel([
      () => ({ toolCalls: [toolCall('nh_evaluate', { expression: `nh.currentDispatcher().dispatch(${PROPOSAL})` })] }),
      () => ({ toolCalls: [pass()] }),
    ]);
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
    await runner.run(() => nh.scope({ taskReferences: { nh, sink } }, () => nh.step({ program: 'execute\nDo it.' })));
    const { events, starts, anomalies } = dispatchEvents(runner);
    expect(sink).toEqual([]);
    expect(starts).toEqual([]);
    const operation = events.find((e) => e.kind === 'operation')!;
    expect(operation.status).toBe('failed');
    expect(JSON.stringify(operation.data)).toContain('model-code');
    expect(anomalies).toHaveLength(1);
    expect(anomalies[0]!.parentId).toBe(operation.subjectId);
    expect(anomalies[0]!.data).toMatchObject({ interior: 'expression' });
  });

  it('from a RetainedFunction re-materialized by a model expression: refused the same way', async () => {
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model: new ScriptedModel([]) }) });
    const retained = await runner.run(async () => {
      const m = await nh.currentDispatcher().dispatch({ language: 'javascript', intent: 'define', source: 'export function f() { return 1; }' });
      return nh.RetainedFunction.retain(m, 'f');
    });
    const model = new ScriptedModel([() => ({ toolCalls: [toolCall('nh_evaluate', { expression: 'retained.materialize()' })] }), () => ({ toolCalls: [pass()] })]);
    const second = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
    await second.run(() => nh.scope({ taskReferences: { retained } }, () => nh.step({ program: 'execute\nDo it.' })));
    const { starts, anomalies } = dispatchEvents(second);
    expect(starts).toEqual([]);
    expect(anomalies).toHaveLength(1);
  });

  it('from generated code: refused, recorded under its dispatch node, and only the operator-dispatched node exists', async () => {
    const sink: string[] = [];
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model: new ScriptedModel([]) }) });
    const outcome = await runner.run(async () => {
      const out = await nh.currentDispatcher().dispatch({
        language: 'javascript',
        intent: 'define-and-invoke',
        entry: 'nest',
        source: `export function nest() { return nh.currentDispatcher().dispatch(${PROPOSAL}).then(() => 'BREACH', (e) => e.name + ':' + e.reason); }`,
        dependencies: [{ name: 'nh', kind: 'reference', type: 'object' }],
      });
      return await (out.invocation!.value as Promise<string>);
    }, { grant: { capabilities: [], references: { nh, sink } } });
    expect(outcome).toBe('DispatchRejectedError:model-code');
    expect(sink).toEqual([]);
    const { starts, anomalies } = dispatchEvents(runner);
    expect(starts.map((e) => e.status)).toEqual(['materialization', 'invocation']);
    expect(anomalies).toHaveLength(1);
    expect(anomalies[0]!.parentId).toBe(starts[1]!.subjectId);
    expect(anomalies[0]!.data).toMatchObject({ interior: 'generated' });
  });

  it('the execute_code capability, called by the model, still dispatches', async () => {
    const model = new ScriptedModel([
      () => ({ toolCalls: [toolCall('execute_code', { language: 'javascript', intent: 'define-and-invoke', entry: 'run', source: 'export function run() { return 41 + 1; }' })] }),
      () => ({ toolCalls: [pass()] }),
    ]);
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
    await runner.run(() => nh.step({ program: 'execute\nRun code.' }), { grant: { capabilities: [nh.executeCodeCapability()] } });
    const { starts, anomalies } = dispatchEvents(runner);
    expect(starts.map((e) => e.status)).toEqual(['materialization', 'invocation']);
    expect(anomalies).toEqual([]);
    const call = runner.ledger.select({}).find((e) => e.kind === 'capability.call' && e.status === 'completed');
    expect(JSON.stringify(call?.data)).toContain('42');
  });

  it('a String method a model expression replaced earlier in the step does not change the identity execute_code records', async () => {
    const proposal = { language: 'javascript' as const, intent: 'define-and-invoke' as const, entry: 'run', source: 'export function run() { return 1; }' };
    const replace = String.prototype.replace;
    const model = new ScriptedModel([
      () => ({ toolCalls: [toolCall('nh_evaluate', { expression: '(String.prototype.replace = String.prototype.concat, 1)' })] }),
      () => ({ toolCalls: [toolCall('execute_code', proposal)] }),
      () => ({ toolCalls: [pass()] }),
    ]);
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
    try {
      await runner.run(() => nh.step({ program: 'execute\nRun code.' }), { grant: { capabilities: [nh.executeCodeCapability()] } });
    } finally {
      String.prototype.replace = replace;
    }
    const events = runner.ledger.select({});
    const start = events.find((e) => e.kind === 'dispatch.start' && e.status === 'materialization')!;
    expect((start.data as { definitionId: string }).definitionId).toBe(nh.definitionIdOf(proposal));
    expect(events.some((e) => e.kind === 'trace.anomaly' && e.status === 'builtin_modified' && (e.data as { property?: unknown }).property === 'String.prototype.replace')).toBe(true);
  });
});
