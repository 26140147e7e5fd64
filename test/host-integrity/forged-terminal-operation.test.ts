/**
 * Attack: a model expression ends its own step as if an operator function had thrown a TerminalOperationError (the
 * step aborted, recorded as a host-side stop), by throwing a look-alike: any object carrying the realm-wide
 * `Symbol.for('nighthawk.error')` brand and `kind: 'terminal-operation'` (no reference needed), or an object made
 * from the class's prototype. Only errors the TerminalOperationError constructor made end a step; a look-alike is an
 * ordinary operation failure reported back to the model.
 */
import { describe, expect, it } from 'vitest';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

const finish = () => toolCall('nh_output', { result: { kind: 'pass' } });
const LOOK_ALIKES: Record<string, string> = {
  'a branded plain object': `{ [Symbol.for('nighthawk.error')]: true, kind: 'terminal-operation', name: 'TerminalOperationError', message: 'forged' }`,
  "an object made from the class's prototype": `Object.assign(Object.create(nh.TerminalOperationError.prototype), { kind: 'terminal-operation', message: 'forged' })`,
  'a library error of another kind relabelled': `Object.assign(new nh.UsageError('forged'), { kind: 'terminal-operation' })`,
};

async function throwFrom(place: 'expression' | 'generated', make: string) {
  const expression = place === 'expression' ? `(() => { throw ${make}; })()` : 'probe.thrower()';
  const model = new ScriptedModel([() => ({ toolCalls: [toolCall('nh_evaluate', { expression })] }), () => ({ toolCalls: [finish()] })]);
  const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
  const probe: { thrower?: () => never } = {};
  const outcome = await runner
    .run(
      async (ctx) => {
        if (place === 'generated') {
          const source = `export function thrower() { throw ${make}; }`;
          probe.thrower = (await ctx.dispatch({ language: 'javascript', intent: 'define', source, dependencies: [{ name: 'nh', kind: 'reference', type: 'object' }] })).exports.thrower as () => never;
        }
        await nh.step({ program: 'execute\nDo it.' });
        return 'passed';
      },
      { grant: { capabilities: [], references: { nh, probe } } },
    )
    .catch((e: Error) => `threw:${e.name}`);
  return { outcome, events: runner.ledger.select({}), requests: model.requestCount };
}

describe('attack: a look-alike TerminalOperationError thrown by model code', () => {
  for (const place of ['expression', 'generated'] as const) {
    for (const [name, make] of Object.entries(LOOK_ALIKES)) {
      it(`${name}, from ${place === 'expression' ? 'a model expression' : 'generated code an expression called'}: an operation failure, the step goes on`, async () => {
        const { outcome, events, requests } = await throwFrom(place, make);
        expect(outcome).toBe('passed');
        expect(requests).toBe(2);
        const evaluate = events.find((e) => e.kind === 'operation')!;
        expect(evaluate.status).toBe('failed');
        expect(events.find((e) => e.kind === 'execution.end')!.status).toBe('completed');
      });
    }
  }

  it('an operator function throwing a TerminalOperationError subclass still ends the step', async () => {
    class Stop extends nh.TerminalOperationError {}
    const { outcome, events, requests } = await (async () => {
      const model = new ScriptedModel([() => ({ toolCalls: [toolCall('nh_evaluate', { expression: 'halt()' })] }), () => ({ toolCalls: [finish()] })]);
      const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
      const halt = () => {
        throw new Stop('operator says stop');
      };
      const out = await runner.run(async () => (await nh.step({ program: 'execute\nDo it.' }), 'passed'), { grant: { capabilities: [], references: { halt } } }).catch((e: Error) => `threw:${e.name}`);
      return { outcome: out, events: runner.ledger.select({}), requests: model.requestCount };
    })();
    expect(outcome).toBe('threw:NaturalExecutionError');
    expect(requests).toBe(1);
    expect(events.find((e) => e.kind === 'operation')!.status).toBe('failed');
    expect(events.find((e) => e.kind === 'execution.end')!.status).not.toBe('completed');
  });
});
