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
});

const GETTER = `({ get y() { try { const F = Math.max.constructor; globalThis.__nhUnmarked = typeof F('return process')(); } catch (e) { globalThis.__nhUnmarked = 'refused ' + e.name; } return 1; } })`;

describe('model code an operator inspector runs', () => {
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
