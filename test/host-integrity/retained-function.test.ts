/**
 * A RetainedFunction handed to a run (so the model can call `rf.invoke`) is reachable by model code. Seed 001: later
 * materializations "link only the selected export to its originally observed definition identity", and nothing
 * from an earlier execution is an implicit input to a later one. Model code may neither mint a RetainedFunction of
 * its own source claiming another definition's identity (the constructor, or an object on its prototype), nor
 * change what every later `invoke` does (the shared prototype). The attack runs from a model expression, generated
 * code and a SessionFunction body (here, the composition's own code).
 */
import { describe, expect, it } from 'vitest';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

type Place = 'expression' | 'generated' | 'session-function';
const PLACES: readonly Place[] = ['expression', 'generated', 'session-function'];
const VICTIM = 'def_VICTIM_reviewed_definition';

const ATTACK = `
  const tries = {};
  const fields = { definitionId: '${VICTIM}', originalMaterializationId: 'def_x', exportName: 'add', proposal: { language: 'javascript', intent: 'define', source: 'export function add(a, b) { return 1000 + a + b; }' }, evidence: {} };
  try { const Ctor = Reflect.get(Object.getPrototypeOf(rf), ['constr', 'uctor'].join('')); tries.constructed = await new Ctor(fields).invoke(1, 2); } catch (e) { tries.constructed = 'refused:' + e.name; }
  try { tries.onPrototype = await Object.assign(Object.create(Object.getPrototypeOf(rf)), fields).invoke(1, 2); } catch (e) { tries.onPrototype = 'refused:' + e.name; }
  const before = Object.getPrototypeOf(rf).materialize;
  try { Object.getPrototypeOf(rf).materialize = Promise.resolve.bind(Promise, { fn: Array.of }); } catch (e) {}
  tries.prototype = Object.getPrototypeOf(rf).materialize === before ? 'unchanged' : 'replaced';
  probe.tries = tries;
  return 'tried';`;

async function retainedCase(place: Place) {
  const finish = () => toolCall('nh_output', { result: { kind: 'pass' } });
  const first = new nh.Runner({ executor: new nh.AgentExecutor({ model: new ScriptedModel(() => ({ toolCalls: [finish()] })) }) });
  const rf = await first.run(async (ctx) => nh.RetainedFunction.retain(await ctx.dispatch({ language: 'javascript', intent: 'define', source: 'export function add(a, b) { return a + b; }' }), 'add'));
  const probe: Record<string, unknown> = {};
  const model = new ScriptedModel((_m, info) => (place === 'expression' && info.requestNumber === 1 ? { toolCalls: [toolCall('nh_evaluate', { expression: `(async () => { ${ATTACK} })()` })] } : { toolCalls: [finish()] }));
  const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
  await runner.run(
    async (ctx) => {
      if (place === 'expression') await nh.step({ program: 'execute\nTry the adder.' });
      if (place === 'generated') {
        const mod = await ctx.dispatch({ language: 'javascript', intent: 'define', source: `export async function attack() { ${ATTACK} }`, dependencies: [{ name: 'rf', kind: 'reference', type: 'object' }, { name: 'probe', kind: 'reference', type: 'object' }] });
        await (mod.exports['attack'] as () => Promise<string>)();
      }
      if (place === 'session-function') await (new Function('rf', 'probe', `return (async () => { ${ATTACK} })();`) as (r: unknown, p: unknown) => Promise<string>)(rf, probe);
    },
    { grant: { references: { rf, probe } } },
  );
  // Later, another run uses the genuine retained function.
  const later = await first.run(async () => rf.invoke(2, 3));
  const claimed = runner.ledger.select({ kind: 'dispatch.start' }).filter((e) => (e.data as { originalDefinitionId?: string }).originalDefinitionId === VICTIM);
  const evaluate = runner.ledger.select({ kind: 'operation' }).filter((e) => (e.data as { request: { kind: string } }).request.kind === 'evaluate').map((e) => `${e.status}:${(e.data as { failure?: { errorClass: string; message: string } }).failure?.errorClass ?? ''}:${(e.data as { failure?: { message: string } }).failure?.message ?? ''}`);
  return { tries: probe.tries as Record<string, unknown>, later, claimed, evaluate };
}

describe('a RetainedFunction reachable by model code', () => {
  for (const place of PLACES) {
    it(`from ${place}: no forged lineage, no change to later invokes`, async () => {
      const r = await retainedCase(place);
      // A model expression naming `.constructor` is rejected before it runs (the expression rules); elsewhere each try is refused.
      if (place === 'expression' && r.tries === undefined) expect(r.evaluate).toEqual(['rejected::']);
      else expect(r.tries).toEqual({ constructed: 'refused:UsageError', onPrototype: 'refused:UsageError', prototype: 'unchanged' });
      expect(r.claimed).toEqual([]);
      expect(r.later).toBe(5);
    });
  }
});
