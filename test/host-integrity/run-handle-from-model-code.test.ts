/**
 * Attack: model code reaches the operator's RunHandle (kept where a reference it was granted leads, as the run
 * context was in part-events.test.ts) and ends the run itself: `handle.terminate(reason)` asks the Runner's
 * termination mechanism and, on its cessation, records the run's end as `terminated` with the reason the model
 * wrote. Terminating the run is the operator's control, as terminating a branch is (RunContext.terminateBranch):
 * from a model expression or generated code it is refused with a `trace.anomaly` (`operator_control_in_run`), the
 * mechanism is not asked, and the run ends as it would have. So is `finalize()`.
 */
import { describe, expect, it } from 'vitest';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

const finish = () => toolCall('nh_output', { result: { kind: 'pass' } });
const END = `try { await holder.handle.terminate('the model says the host ended this'); return 'terminated'; } catch (e) { try { holder.handle.finalize(); return 'finalized'; } catch (f) { return e.name + '/' + f.name; } }`;

describe('attack: model code ending its run through a RunHandle it can reach', () => {
  for (const place of ['expression', 'generated'] as const) {
    it(`from ${place === 'expression' ? 'a model expression' : 'generated code'}: refused and recorded; the mechanism is not asked`, async () => {
      const asked: unknown[] = [];
      const holder: { handle?: nh.RunHandle<unknown>; go?: () => Promise<unknown> } = {};
      const expression = place === 'expression' ? `(async () => { ${END} })()` : 'holder.go()';
      const model = new ScriptedModel([() => ({ toolCalls: [toolCall('nh_evaluate', { expression }), finish()] })]);
      const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }), termination: { terminate: async (t) => (asked.push(t), { ceased: true }) } });
      holder.handle = runner.start(
        async (ctx) => {
          if (place === 'generated') {
            const { exports } = await ctx.dispatch({ language: 'javascript', intent: 'define', source: `export async function go() { ${END} }`, dependencies: [{ name: 'holder', kind: 'reference', type: 'object' }] });
            holder.go = exports.go as () => Promise<unknown>;
          }
          await nh.step({ program: 'execute\nGo.' });
          return 'done';
        },
        { grant: { references: { holder } } },
      );
      expect(await holder.handle.result).toBe('done');
      const events = runner.ledger.select({});
      expect(asked).toEqual([]);
      expect(events.filter((e) => e.kind === 'run.end').map((e) => e.status)).toEqual(['completed']);
      expect(events.filter((e) => e.kind === 'trace.anomaly').map((e) => e.status)).toContain('operator_control_in_run');
      const preview = (events.find((e) => e.kind === 'operation')!.data as { valuePreview?: string }).valuePreview;
      expect(preview).toBe('"HostIntegrityError/HostIntegrityError"');
    });
  }
});
