/**
 * Attack: model code subscribes a listener to an operator-held Ledger. A listener runs inside every later append,
 * host seams included, and after the run: a bound host function (`fs.appendFileSync` bound to a path) subscribed
 * from a model expression, generated code or a SessionFunction body wrote its file at each append, with nothing
 * recorded. The read-only view refused subscriptions; the Ledger itself did not. Now the Ledger refuses them from a
 * run's code, from model code of a core-only run and while the host reads an untrusted value; its `append` refuses
 * core-only model code too.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';
import { attack, expectContained, PLACES } from './support.js';

const plant = "probe.ledger.subscribe(process.getBuiltinModule('node:fs').appendFileSync.bind(null, probe.scratchPath, 'x'));";

describe('attack: a listener subscribed to the operator-held Ledger from model code', () => {
  for (const place of PLACES) {
    it(`from ${place}: refused and recorded; no later append runs it`, async () => {
      const result = await attack(place, `${plant} return 'BREACH: subscribed';`, { operatorLedger: true });
      expect(result.outcome).toMatch(/^threw:HostIntegrityError: Refused \(ledger-subscribe\)/);
      expectContained(result, 'operator_control_in_run', expect);
      const refused = result.events.filter((e) => e.kind === 'trace.anomaly' && e.status === 'operator_control_in_run');
      expect(refused.map((e) => (e.data as { control?: string }).control)).toContain('Ledger.subscribe');
      expect(existsSync(join(dirname(result.auditPath), 'scratch.txt'))).toBe(false);
    });
  }

  it('from model code of a core-only run: subscribe and append refused, noted outside Runners; the operator still subscribes', async () => {
    const ledger = new nh.Ledger();
    const scratchPath = join(mkdtempSync(join(tmpdir(), 'nh-subscribe-')), 'scratch.txt');
    const probe = { ledger, scratchPath };
    const expression = `(() => { const out = [];
      try { ${plant} out.push('subscribed'); } catch (e) { out.push(e.name); }
      try { probe.ledger.append('run_forged', { kind: 'run.entry', subjectId: 'run_forged' }); out.push('appended'); } catch (e) { out.push(e.name); }
      return out.join(' '); })()`;
    let preview: unknown;
    const model = new ScriptedModel([() => ({ toolCalls: [toolCall('nh_evaluate', { expression }), toolCall('nh_output', { result: { kind: 'pass' } })] })]);
    const before = nh.anomaliesOutsideRunners().length;
    await nh.run(new nh.AgentExecutor({ model }), () => nh.scope({ oversight: { onOperationFinished: (f) => void (preview ??= f.valuePreview) } }, () => nh.step({ program: 'execute\nGo.', references: { probe } })));
    expect(preview).toBe('"HostIntegrityError HostIntegrityError"');
    expect(ledger.size).toBe(0);
    const noted = nh.anomaliesOutsideRunners().slice(before);
    expect(noted.map((a) => [a.anomalyKind, a.detail['control']])).toEqual([
      ['operator_control_in_run', 'Ledger.subscribe'],
      ['ledger_append_refused', 'Ledger.append'],
    ]);
    const seen: string[] = [];
    ledger.subscribe((e) => seen.push(e.kind));
    ledger.append('run_op', { kind: 'run.entry', subjectId: 'run_op' } as never);
    expect(seen).toEqual(['run.entry']);
    expect(existsSync(scratchPath)).toBe(false);
  });
});
