/**
 * Attack: a function a model expression made, run by operator code that carries no interior mark. The model puts a
 * getter in a value it assigns under `z.unknown()`; the operator's `inspectStepCommit` serialises the commit and so
 * runs the getter. The guard let such a caller through unmarked, so every refusal that asks whether model code is
 * calling (the step context's executor members, the run context's part events) said no: the getter ended its own
 * step's bookkeeping with `markFinished()` during the commit inspection, and nothing was recorded.
 *
 * The body of every function an expression defines now runs through the guard (`ExpressionGuard.enter`, and for a
 * generator each resumption, `enterGenerator`): called unmarked, it runs under its execution's mark, so those
 * refusals apply and leave their anomaly. The operator's own
 * code around the call stays unmarked, and model helpers the getter calls still run.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

const finish = () => toolCall('nh_output', { result: { kind: 'pass' } });

async function inspectedGetter(getterBody: string, holder: { run?: nh.RunContext } = {}, value = `(() => { const helper = (n) => n * 2; return { get y() { ${getterBody} } }; })()`, read: (bindings: Readonly<Record<string, unknown>>) => string = JSON.stringify) {
  // A second turn for when the assignment is refused (the turn's later calls are then not run).
  const model = new ScriptedModel([() => ({ toolCalls: [toolCall('nh_assign', { target_path: 'v', expression: value }), finish()] }), () => ({ toolCalls: [finish()] })]);
  const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
  let serialised: string | undefined;
  let operatorMark: unknown = 'unset';
  const inspectStepCommit = (commit: nh.StepCommit) => {
    serialised = read(commit.bindings);
    operatorMark = nh.currentInterior();
    return nh.accept();
  };
  const result = await runner.run(
    (ctx) => {
      holder.run = ctx;
      return nh.step({ program: 'execute\nPut it in <:v>.', writes: { v: z.unknown() } });
    },
    { grant: { capabilities: [], references: { nh, holder } }, oversight: { inspectStepCommit } },
  );
  return { result, serialised, operatorMark, anomalies: runner.ledger.select({ kind: 'trace.anomaly' }), parts: runner.ledger.select({ kind: 'part.event' }) };
}

describe('attack: a model getter run by an operator inspector', () => {
  it("calls its step context's executor members: refused and recorded, and the step commits", async () => {
    const { result, serialised, operatorMark, anomalies } = await inspectedGetter(`try { nh.currentStepContext().markFinished(); return 'called'; } catch (e) { return e.name; }`);
    expect(serialised).toBe('{"v":{"y":"StepControlRefusedError"}}');
    expect((result as { kind?: unknown }).kind).toBe('pass');
    expect(anomalies.map((e) => e.status)).toContain('step_control_from_model_code');
    // The operator's code after the read is its own again.
    expect(operatorMark).toBeUndefined();
  });

  it('writes a part event through the run context it was handed: refused and recorded, nothing appended', async () => {
    const { serialised, anomalies, parts } = await inspectedGetter(`try { holder.run.recordPartEvent('exploration', { kind: 'exploration.end', outcome: 'candidate' }); return 'recorded'; } catch (e) { return e.name; }`);
    expect(serialised).not.toContain('recorded');
    expect(anomalies.map((e) => e.status)).toContain('part_event_from_model_code');
    expect(parts).toEqual([]);
  });

  it('a generator the operator iterates (spread) calling the executor members: refused at each resumption, recorded', async () => {
    const value = `({ *[Symbol.iterator]() { for (const call of ['first', 'second']) { try { nh.currentStepContext().markFinished(); yield call + ' called'; } catch (e) { yield e.name; } } } })`;
    const { serialised, anomalies } = await inspectedGetter('', {}, value, (bindings) => JSON.stringify([...(bindings.v as Iterable<unknown>)]));
    expect(serialised).toBe('["StepControlRefusedError","StepControlRefusedError"]');
    expect(anomalies.filter((e) => e.status === 'step_control_from_model_code')).toHaveLength(2);
  });

  it('a generator method that uses super (its body cannot move under the guard): the expression is refused, recorded, and nothing runs', async () => {
    const value = `({ __proto__: { tag: 'x' }, *[Symbol.iterator]() { try { nh.currentStepContext().markFinished(); yield super.tag + ' called'; } catch (e) { yield e.name; } } })`;
    const { result, serialised, anomalies } = await inspectedGetter('', {}, value, (bindings) => JSON.stringify(bindings.v === undefined ? 'unset' : [...(bindings.v as Iterable<unknown>)]));
    expect(serialised).toBe('"unset"');
    expect((result as { kind?: unknown }).kind).toBe('pass');
    const refused = anomalies.find((e) => e.status === 'expression_not_guardable');
    expect(JSON.stringify(refused?.data)).toContain('generator method [Symbol.iterator] uses super');
    expect(anomalies.map((e) => e.status)).not.toContain('step_control_from_model_code');
  });

  it('made by generated code instead: refused (its dispatch ended) and recorded, and the step commits', async () => {
    const probe: { make?: () => unknown } = {};
    const model = new ScriptedModel([() => ({ toolCalls: [toolCall('nh_assign', { target_path: 'v', expression: 'probe.make()' }), finish()] })]);
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
    let serialised: string | undefined;
    const inspectStepCommit = (commit: nh.StepCommit) => {
      try {
        serialised = JSON.stringify(commit.bindings);
      } catch (e) {
        serialised = `threw ${(e as Error).name}`;
      }
      return nh.accept();
    };
    const result = await runner.run(
      async (ctx) => {
        const source = `export function make() { return { get y() { try { nh.currentStepContext().markFinished(); return 'called'; } catch (e) { return e.name; } } }; }`;
        const { exports } = await ctx.dispatch({ language: 'javascript', intent: 'define', source, dependencies: [{ name: 'nh', kind: 'reference', type: 'object' }] });
        probe.make = exports.make as () => unknown;
        return nh.step({ program: 'execute\nPut it in <:v>.', writes: { v: z.unknown() } });
      },
      { grant: { capabilities: [], references: { nh, probe } }, oversight: { inspectStepCommit } },
    );
    expect(serialised).toBe('threw GeneratedCodeOutsideDispatchError');
    expect((result as { kind?: unknown }).kind).toBe('pass');
    expect(runner.ledger.select({ kind: 'trace.anomaly' }).map((e) => e.status)).toContain('generated_code_outside_dispatch');
  });

  it('calls a helper the same expression defined: it runs (the host read is not a continuation of the expression)', async () => {
    const { serialised, anomalies } = await inspectedGetter('return helper(21);');
    expect(serialised).toBe('{"v":{"y":42}}');
    expect(anomalies.map((e) => e.status)).not.toContain('expression_code_outside_execution');
  });
});
