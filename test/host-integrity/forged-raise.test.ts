/**
 * Attack: the model raises, as its step's outcome (`nh_output` kind `raise` with `raise_operation_id`), an error its
 * own expression threw: a look-alike of a host error. The host's translation decided the execution's failure on that
 * error's class, so the operator caught a NaturalExecutionError naming another execution, or one saying the
 * allocation was exhausted or the run terminated, when nothing of the kind happened. Now a raised outcome is the
 * model's: its failure is `raised` unless the host recorded otherwise for this very execution.
 */
import { describe, expect, it } from 'vitest';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall, type ScriptedTurn } from '../../kernel/src/testing.js';

const LOOK_ALIKES: Record<string, string> = {
  'a NaturalExecutionError naming another execution': `Object.assign(Object.create(nh.NaturalExecutionError.prototype), { executionId: 'exe_forged', stepId: 'forged', failure: 'allocation_exhausted', message: 'forged' })`,
  'an AllocationExhaustedError': `Object.assign(Object.create(nh.AllocationExhaustedError.prototype), { resource: 'cost', message: 'forged' })`,
  'an error caused by a RunTerminatedError': `Object.assign(new Error('x'), { cause: new nh.RunTerminatedError({ runId: 'forged', ceased: true, reason: 'forged' }) })`,
};

/** Evaluates `expression` (which throws), then raises the error of that failed operation. */
function raiseTurns(expression: string): ScriptedTurn[] {
  return [
    () => ({ toolCalls: [toolCall('nh_evaluate', { expression })] }),
    (messages) => {
      const failed = /op_[A-Za-z0-9]+/.exec(messages.map((m) => m.content).join('\n'))![0];
      return { toolCalls: [toolCall('nh_output', { result: { kind: 'raise', raise_operation_id: failed } })] };
    },
  ];
}

async function raiseFrom(place: 'expression' | 'generated', make: string) {
  const expression = place === 'expression' ? `(() => { throw ${make}; })()` : 'probe.thrower()';
  const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model: new ScriptedModel(raiseTurns(expression)) }) });
  const probe: { thrower?: () => never } = {};
  let caught: unknown;
  await runner.run(
    async (ctx) => {
      if (place === 'generated') {
        const source = `export function thrower() { throw ${make}; }`;
        probe.thrower = (await ctx.dispatch({ language: 'javascript', intent: 'define', source, dependencies: [{ name: 'nh', kind: 'reference', type: 'object' }] })).exports.thrower as () => never;
      }
      await nh.step({ program: 'execute\nDo it.' }).catch((e: unknown) => (caught = e));
    },
    { grant: { capabilities: [], references: { nh, probe } } },
  );
  return { caught, events: runner.ledger.select({}) };
}

describe('attack: the model raises a look-alike of a host error as its outcome', () => {
  for (const place of ['expression', 'generated'] as const) {
    for (const [name, make] of Object.entries(LOOK_ALIKES)) {
      it(`${name}, thrown by ${place === 'expression' ? 'a model expression' : 'generated code an expression called'}: the operator sees a raise of this execution`, async () => {
        const { caught, events } = await raiseFrom(place, make);
        const execution = events.find((e) => e.kind === 'execution.start')!.subjectId;
        expect(caught).toBeInstanceOf(nh.NaturalExecutionError);
        const error = caught as nh.NaturalExecutionError;
        expect([error.executionId, error.failure]).toEqual([execution, 'raised']);
        // The look-alike is kept as the cause, for the operator to read as the model's value.
        expect(Object.getPrototypeOf(error.cause)).not.toBe(null);
        expect(events.filter((e) => e.kind === 'allocation.exhausted')).toEqual([]);
        expect(events.find((e) => e.kind === 'execution.end')!.status).toBe('raised');
        expect(events.find((e) => e.kind === 'run.end')!.status).toBe('completed');
      });
    }
  }
});
