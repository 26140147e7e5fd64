/**
 * `structuredClone` named by model code (an expression, generated code): operator data the operator may still write
 * reaches model code through the membrane (a proxy, which the engine's clone refuses), so the `structuredClone` model
 * code names clones what it shows.
 */
import { describe, expect, it } from 'vitest';
import { AgentExecutor, run, step } from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';
import { runGenerated } from '../harness/support.js';

describe('structuredClone in a model expression', () => {
  it('structuredClone in an expression clones operator data the model sees through the membrane; a function in it still fails the clone', async () => {
    const rows = [{ id: 1, at: new Date(0), tags: new Set(['a']) }];
    const tools = { rows, helper: () => 'tool' };
    const results: unknown[] = [];
    const expressions = ['structuredClone(rows)', 'structuredClone([rows[0], { n: 1 }])', 'structuredClone(rows) !== rows', 'structuredClone(tools)'];
    const model = new ScriptedModel((messages, info) => {
      if (info.requestNumber > 1) results.push(JSON.parse(String((messages.at(-1) as { content?: unknown }).content)));
      const next = expressions[info.requestNumber - 1];
      return next === undefined ? { toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] } : { toolCalls: [toolCall('nh_evaluate', { expression: next })] };
    });
    await run(new AgentExecutor({ model }), () => step({ program: 'execute\nRead <rows> and <tools>.', values: { rows, tools } }));
    const [whole, built, fresh, withFunction] = results as Array<{ status: string; value?: unknown; error?: { class: string } }>;
    expect(whole).toMatchObject({ status: 'completed', value: [{ id: 1, at: '1970-01-01T00:00:00.000Z', tags: ['a'] }] });
    expect(built).toMatchObject({ status: 'completed', value: [{ id: 1 }, { n: 1 }] });
    expect(fresh).toMatchObject({ status: 'completed', value: true });
    expect(withFunction).toMatchObject({ status: 'failed', error: { class: 'DOMException' } });
  });


  it('in generated code too, named bare or through globalThis: a copy of the operator data, the function still refused', async () => {
    const record = { x: 5, tags: ['a'], when: new Date(0) };
    const { outcome } = await runGenerated(
      `export function run() {
        const bare = structuredClone(record);
        const viaGlobal = globalThis.structuredClone([record.tags]);
        bare.tags.push('copy');
        let refused = '';
        try { structuredClone({ f: run }); } catch (e) { refused = e.name; }
        return { bare, viaGlobal, refused };
      }`,
      { record },
    );
    expect(outcome).toEqual({ value: { bare: { x: 5, tags: ['a', 'copy'], when: new Date(0) }, viaGlobal: [['a']], refused: 'DataCloneError' } });
    expect(record.tags).toEqual(['a']);
  });
});
