/**
 * A function a model expression made, called by operator code with no interior mark: an application
 * `inspectStepCommit` that serialises the commit runs a getter the model put in an `nh_assign` value kept under
 * `z.unknown()`. The guard lets such a caller through (host code that calls a built-in an expression replaced is
 * not broken off), but the run-time tier now applies to the rest of that job: the getter no longer reaches the real
 * Function constructor (and with it `process`, `require`, the ledger's database), and the attempt is recorded.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentExecutor, Runner, accept, step, type StepCommit } from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

const G = globalThis as Record<string, unknown>;
afterEach(() => {
  delete G['__nhUnmarked'];
  delete G['__nhChain'];
});

/** Registers only built-ins (no guard runs again) that build a function from text a job later. */
const CHAIN = `Promise.resolve('globalThis.__nhChain = typeof process').then(Function).then(Function.prototype.call.bind(Function.prototype.call))`;

const GETTER = `({ get y() { try { const F = Math.max.constructor; globalThis.__nhUnmarked = typeof F('return process')(); } catch (e) { globalThis.__nhUnmarked = 'refused ' + e.name; } return 1; } })`;

describe('model code an operator inspector runs', () => {
  it.each([
    ['a thrown value the host formats into the failure record', `Promise.reject({ get message() { ${CHAIN}; return 'network down'; } })`, {}],
    ['a Date toJSON an inspector serialises', `Object.assign(new Date(0), { toJSON() { ${CHAIN}; return 'd'; } })`, { inspect: true }],
  ])('cannot leave built-in reactions that build a function from text later: %s', async (_label, expression, how) => {
    const calls = (how as { inspect?: boolean }).inspect
      ? [toolCall('nh_assign', { target_path: 'when', expression }), toolCall('nh_output', { result: { kind: 'pass' } })]
      : [toolCall('nh_evaluate', { expression }), toolCall('nh_output', { result: { kind: 'pass' } })];
    const model = new ScriptedModel([() => ({ toolCalls: calls }), () => ({ toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] })]);
    const runner = new Runner({ executor: new AgentExecutor({ model }) });
    const inspectStepCommit = (commit: StepCommit) => (JSON.stringify(commit.bindings), accept());
    const writes = (how as { inspect?: boolean }).inspect ? { when: z.date() } : {};
    const program = (how as { inspect?: boolean }).inspect ? 'execute\nPick a date into <:when>.' : 'execute\nGo.';
    await runner.run(() => step({ program, writes }), { oversight: { inspectStepCommit } }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 20));
    expect(G['__nhChain']).toBeUndefined();
    const recorded = [...runner.ledger.select({ kind: 'trace.anomaly' }).map((e) => e.status), ...runner.anomalies.map((a) => a.anomalyKind)];
    expect(recorded).toContain('raw_dynamic_execution');
  });

  // Round 3: however the getter schedules the text later, the tier follows the async context it started.
  const EV = "Reflect.get(globalThis, 'ev' + 'al')";
  const SRC = "'globalThis.__nhChain = typeof process'";
  it.each([
    ['process.nextTick', `process.nextTick(${EV}, ${SRC})`],
    ['a thenable adoption job', `Promise.resolve({ then: ${EV}.bind(null, ${SRC}) })`],
    ['an EventTarget listener object', `AbortSignal.timeout(1).addEventListener('abort', { handleEvent: ${EV}.bind(null, ${SRC}) })`],
  ])('cannot run text later through %s either', async (_label, later) => {
    const expression = `Promise.reject({ get message() { ${later}; return 'network down'; } })`;
    const model = new ScriptedModel([() => ({ toolCalls: [toolCall('nh_evaluate', { expression }), toolCall('nh_output', { result: { kind: 'pass' } })] }), () => ({ toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] })]);
    const runner = new Runner({ executor: new AgentExecutor({ model }) });
    await runner.run(() => step({ program: 'execute\nGo.' })).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 30));
    expect(G['__nhChain']).toBeUndefined();
    const recorded = [...runner.ledger.select({ kind: 'trace.anomaly' }).map((e) => e.status), ...runner.anomalies.map((a) => a.anomalyKind)];
    // Refused by the tier, or (a listener object, now bound like a function) not called after the execution ended.
    expect(recorded.some((k) => k === 'raw_dynamic_execution' || k === 'expression_code_outside_execution')).toBe(true);
  });

  it('meets the run-time tier: a getter read by JSON.stringify in inspectStepCommit cannot build functions from text', async () => {
    const model = new ScriptedModel([() => ({ toolCalls: [toolCall('nh_assign', { target_path: 'x', expression: GETTER }), toolCall('nh_output', { result: { kind: 'pass' } })] })]);
    const runner = new Runner({ executor: new AgentExecutor({ model }) });
    const seen: string[] = [];
    const inspectStepCommit = (commit: StepCommit) => {
      seen.push(JSON.stringify(commit.bindings));
      return accept();
    };
    await runner.run(() => step({ program: 'execute\nFill <:x>.', writes: { x: z.unknown() } }), { oversight: { inspectStepCommit } });
    expect(seen).toEqual(['{"x":{"y":1}}']);
    expect(G['__nhUnmarked']).toBe('refused RawDynamicExecutionRefusedError');
    expect(runner.ledger.select({ kind: 'trace.anomaly' }).map((e) => e.status)).toContain('raw_dynamic_execution');
  });
});
