/**
 * Attack: a generated module keeps the references it was materialized with. The operator dispatches a model's
 * proposal under the run's grant, then calls one of its exports inside `ctx.attenuate({ references: [] })`, a scope
 * that holds none of them. Seed 001: "Nested scopes and invocations receive no more authority than their
 * submitting execution holds". A capability dependency is checked by the gateway against the authority in force
 * at each call (refused there), but a reference dependency was a parameter of the module body: the export ran in
 * the narrower scope with the wider scope's reference in hand. The invocation is refused instead, with a
 * `trace.anomaly` (`ambient_dependency`) under its caller, and no dispatch node starts.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel } from '../../kernel/src/testing.js';

const peeking: nh.CodeProposal = {
  language: 'javascript',
  intent: 'define',
  source: 'let kept;\nexport function keep() { kept = secret; return 1; }\nexport function peek() { return (kept ?? secret)(); }\nexport function plain() { return 2; }',
  dependencies: [{ name: 'secret', kind: 'reference', type: 'function' }],
};

describe('attack: a generated module used in a scope that holds fewer references than it was materialized with', () => {
  it('its exports are refused there and recorded; in the wider scope they still run', async () => {
    let reads = 0;
    const secret = () => (reads++, 'SECRET');
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model: new ScriptedModel([]) }) });
    const outcomes: unknown[] = [];
    await runner.run(
      async (ctx) => {
        const { exports } = await ctx.dispatch(peeking);
        (exports.keep as () => number)();
        await ctx.attenuate({ references: [] }, async () => {
          for (const name of ['peek', 'plain']) {
            try {
              outcomes.push((exports[name] as () => unknown)());
            } catch (error) {
              outcomes.push(error);
            }
          }
        });
        outcomes.push((exports.peek as () => unknown)());
      },
      { grant: { references: { secret } } },
    );
    expect(outcomes[0]).toMatchObject({ name: 'DispatchRejectedError', reason: 'outside-authority' });
    expect(outcomes[1]).toMatchObject({ name: 'DispatchRejectedError', reason: 'outside-authority' });
    expect(outcomes[2]).toBe('SECRET');
    expect(reads).toBe(1);
    const events = runner.ledger.select({});
    const runId = events[0]!.runId;
    const anomalies = events.filter((e) => e.kind === 'trace.anomaly');
    expect(anomalies.map((e) => [e.status, e.parentId])).toEqual([
      ['ambient_dependency', runId],
      ['ambient_dependency', runId],
    ]);
    expect(anomalies[0]!.data).toMatchObject({ export: 'peek', references: ['secret'] });
    // keep, then peek in the wider scope: the refused calls started no node.
    expect(events.filter((e) => e.kind === 'dispatch.start').map((e) => e.status)).toEqual(['materialization', 'invocation', 'invocation']);
  });

  it('the same reference passed again by the narrower scope is not ambient; a capability dependency is the gateway\'s', async () => {
    const secret = () => 'SECRET';
    const lookup = nh.defineCapability({ name: 'lookup', description: 'reversible lookup', request: z.object({ target: z.string() }), run: ({ target }) => target });
    const calling: nh.CodeProposal = { language: 'javascript', intent: 'define', source: 'export function peek() { return secret(); }\nexport async function look() { return await lookup({ target: "x" }); }', dependencies: [{ name: 'secret', kind: 'reference', type: 'function' }, { name: 'lookup', kind: 'capability', type: '(lookupRequest) => unknown' }] };
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model: new ScriptedModel([]) }) });
    let peeked: unknown;
    let looked: unknown;
    await runner.run(
      async (ctx) => {
        const { exports } = await ctx.dispatch(calling);
        peeked = await ctx.attenuate({ references: ['secret'] }, async () => (exports.peek as () => unknown)());
        looked = await ctx.attenuate({ capabilities: [] , references: ['secret'] }, async () => (exports.look as () => Promise<unknown>)().catch((e: unknown) => e));
      },
      { grant: { references: { secret }, capabilities: [lookup] } },
    );
    expect(peeked).toBe('SECRET');
    expect(looked).toMatchObject({ name: 'CapabilityRefusedError' });
  });
});
