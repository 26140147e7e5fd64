/**
 * Authority is a run's own. Seed 001: "Authority is admitted once, at run entry, as the authority ceiling"; a
 * materialized generated definition "never carries invocation authority beyond that run". Run A (granted `secret`)
 * has its generated code stash the capability wrapper, and its dispatcher, in an object both runs share. Run B,
 * admitted later with no capability, reaches them while A is still open: from a model expression, from generated
 * code and from its composition's body. The gateway and the dispatcher belong to A and refuse a caller whose frame
 * is another run's; the attempt is recorded in both runs, and the capability body never runs.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

type Place = 'expression' | 'generated' | 'session-function';
const PLACES: readonly Place[] = ['expression', 'generated', 'session-function'];

const CALL_SECRET = `try { probe.result = await board.secret({}); } catch (e) { probe.result = 'refused:' + e.name + ':' + (e.reason ?? ''); } return 'tried';`;
const USE_DISPATCHER = `try {
    const d = await board.dispatcher.dispatch({ language: 'javascript', intent: 'define', source: 'export function leak(s) { return s({}); }', dependencies: [{ name: 'secret', kind: 'capability', type: '(secretRequest) => unknown' }] });
    probe.result = await d.exports.leak();
  } catch (e) { probe.result = 'refused:' + e.name + ':' + (e.reason ?? ''); }
  return 'tried';`;

const finish = () => toolCall('nh_output', { result: { kind: 'pass' } });
const anomalies = (events: readonly nh.LedgerEvent[], runId: string) => events.filter((e) => e.kind === 'trace.anomaly' && e.runId === runId).map((e) => String(e.status));

async function crossRun(place: Place, attack: string) {
  const bodyRuns: string[] = [];
  const secret = nh.defineCapability({ name: 'secret', description: 'privileged read', request: z.object({}), run: () => (bodyRuns.push('ran'), 'S3CR3T') });
  const board: Record<string, unknown> = {};
  const probe: Record<string, unknown> = {};
  const model = new ScriptedModel((_m, info) => (place === 'expression' && info.requestNumber === 1 ? { toolCalls: [toolCall('nh_evaluate', { expression: `(async () => { ${attack} })()` })] } : { toolCalls: [finish()] }));
  const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
  let releaseA!: () => void;
  const holdA = new Promise<void>((resolve) => (releaseA = resolve));
  const runA = runner.start(
    async (ctx) => {
      const stash = await ctx.dispatch({
        language: 'javascript',
        intent: 'define',
        source: 'export function stash() { board.secret = secret; board.dispatcher = nh.currentDispatcher(); return 1; }',
        dependencies: [
          { name: 'board', kind: 'reference', type: 'object' },
          { name: 'nh', kind: 'reference', type: 'object' },
          { name: 'secret', kind: 'capability', type: secret.signature },
        ],
      });
      (stash.exports['stash'] as () => number)();
      await holdA;
      return 'A done';
    },
    { grant: { capabilities: [secret], references: { board, nh } }, label: 'A' },
  );
  await new Promise((resolve) => setTimeout(resolve, 20));
  const outB = await runner.run(
    async (ctx) => {
      if (place === 'expression') await nh.step({ program: 'execute\nTidy the board.' });
      if (place === 'generated') {
        const mod = await ctx.dispatch({ language: 'javascript', intent: 'define', source: `export async function attack() { ${attack} }`, dependencies: [{ name: 'board', kind: 'reference', type: 'object' }, { name: 'probe', kind: 'reference', type: 'object' }] });
        await (mod.exports['attack'] as () => Promise<string>)();
      }
      if (place === 'session-function') await (new Function('board', 'probe', `return (async () => { ${attack} })();`) as (b: unknown, p: unknown) => Promise<string>)(board, probe);
      return 'B done';
    },
    { grant: { references: { board, probe } }, label: 'B' },
  );
  releaseA();
  await runA.result;
  const events = runner.ledger.events();
  const runIds = Object.fromEntries(events.filter((e) => e.kind === 'run.entry').map((e) => [(e.data as { label: string }).label, e.runId]));
  return { outB, result: probe.result, bodyRuns, events, a: runIds['A']!, b: runIds['B']! };
}

describe("another run's capability or dispatcher", () => {
  for (const place of PLACES) {
    it(`from ${place}: run A's stashed capability is refused in run B and recorded in both`, async () => {
      const r = await crossRun(place, CALL_SECRET);
      expect(r.outB).toBe('B done');
      expect(r.result).toMatch(/^refused:CapabilityRefusedError:other-run$/);
      expect(r.bodyRuns).toEqual([]);
      expect(r.events.filter((e) => e.kind === 'capability.call')).toEqual([]);
      expect(anomalies(r.events, r.b)).toContain('authority_from_other_run');
      expect(anomalies(r.events, r.a)).toContain('authority_from_other_run');
    });

    it(`from ${place}: run A's dispatcher refuses a dispatch from run B`, async () => {
      const r = await crossRun(place, USE_DISPATCHER);
      expect(r.result).toMatch(/^refused:DispatchRejectedError:other-run$/);
      expect(r.bodyRuns).toEqual([]);
      expect(anomalies(r.events, r.b)).toContain('authority_from_other_run');
    });
  }
});
