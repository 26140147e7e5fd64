/**
 * Attack: model code handed the run context (as a task reference, or a dependency of generated code) writes the
 * operator's record of a part: `ctx.recordPartEvent('exploration', { kind: 'exploration.end', outcome: 'candidate' })`
 * appended a part.event to the ledger saying an exploration found a candidate. The ledger is the host's; the call is
 * refused to model code with a `part_event_from_model_code` anomaly, and operator code still records its parts.
 */
import { describe, expect, it } from 'vitest';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

const finish = () => toolCall('nh_output', { result: { kind: 'pass' } });
const FORGE = `try { holder.run.recordPartEvent('exploration', { kind: 'exploration.end', outcome: 'candidate' }); return 'recorded'; } catch (e) { return e.name; }`;

describe('attack: model code writing part events through a run context it was handed', () => {
  for (const place of ['expression', 'generated'] as const) {
    it(`from ${place === 'expression' ? 'a model expression' : 'generated code'}: refused and recorded; operator code still records`, async () => {
      const probe: { out?: string } = {};
      const holder: { run?: nh.RunContext } = {};
      const expression = place === 'expression' ? `(() => { ${FORGE} })()` : '1';
      const model = new ScriptedModel([() => ({ toolCalls: [toolCall('nh_evaluate', { expression }), finish()] })]);
      const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
      await runner.run(
        async (ctx) => {
          holder.run = ctx;
          ctx.recordPartEvent('demo', { kind: 'operator.note' });
          if (place === 'generated') {
            const source = `export function forge() { ${FORGE} }`;
            const { exports } = await ctx.dispatch({ language: 'javascript', intent: 'define', source, dependencies: [{ name: 'holder', kind: 'reference', type: 'object' }] });
            probe.out = (exports.forge as () => string)();
          }
          await nh.step({ program: 'execute\nGo.' });
        },
        { grant: { capabilities: [], references: { holder } } },
      );
      const events = runner.ledger.select({});
      expect(events.filter((e) => e.kind === 'part.event').map((e) => e.status)).toEqual(['operator.note']);
      expect(events.filter((e) => e.kind === 'trace.anomaly').map((e) => e.status)).toContain('part_event_from_model_code');
      if (place === 'generated') expect(probe.out).toBe('HostIntegrityError');
      else expect((events.find((e) => e.kind === 'operation')!.data as { valuePreview?: string }).valuePreview).toBe('"HostIntegrityError"');
    });
  }
});
