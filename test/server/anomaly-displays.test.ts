/**
 * A run's trace anomalies shown inline in the running cell: one display per kind and parent (an operation, a
 * dispatch node), updated in place with how many there were, not one display (a role="alert" row in the web
 * notebook) per anomaly. A model expression looping over a refused write would otherwise fill the cell with
 * a hundred alerts, and a screen reader would read each.
 */
import { describe, expect, it } from 'vitest';
import { AgentExecutor, Session, step } from '../../kernel/src/index.js';
import { ANOMALIES_LISTED_EACH } from '../../kernel/src/harness/anomaly-tally.js';
import { RunDisplays } from '../../kernel/src/server/display/run-displays.js';
import type { KernelChannel } from '../../kernel/src/server/kernel/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';
import { NighthawkMime } from '../../shared/mime.js';

type Shown = { bundle: Record<string, unknown>; options?: { displayId?: string; update?: boolean } };
interface AnomalyShown { anomalyKind: string; message: string; count?: number; executionId?: string }

const loop = (n: number): string => `(() => { const o = Object.freeze({ a: 1 }); for (let i = 0; i < ${n}; i++) { try { o.a = i; } catch {} } return 1; })()`;

/** Runs one step of a Session whose model answers `turns`, with RunDisplays attached: everything it displayed. */
async function displayedBy(turns: ConstructorParameters<typeof ScriptedModel>[0]) {
  const session = new Session({ executor: new AgentExecutor({ model: new ScriptedModel(turns) }) });
  const shown: Shown[] = [];
  const ch: KernelChannel = { display: (bundle, options) => void shown.push({ bundle: bundle as Record<string, unknown>, ...(options ? { options } : {}) }), requestInput: () => Promise.reject(new Error('no stdin')) };
  const detach = new RunDisplays(() => ch).attach(session.ledger);
  const submission = session.submit('async function agent() {}');
  const { agent } = session.materialized(submission, { agent: async () => void (await step({ program: 'execute\nGo.' })) });
  await agent!();
  detach();
  return { session, anomalies: shown.filter((s) => NighthawkMime.traceAnomaly in s.bundle) };
}

describe('trace anomalies inline in the cell', () => {
  it('one display per kind and operation, updated with the count, once per batch rather than per anomaly', async () => {
    const { session, anomalies } = await displayedBy([
      () => ({ toolCalls: [toolCall('nh_evaluate', { expression: loop(ANOMALIES_LISTED_EACH + 150) })] }),
      () => ({ toolCalls: [toolCall('nh_evaluate', { expression: loop(3) }), toolCall('nh_output', { result: { kind: 'pass' } })] }),
    ]);
    const ids = [...new Set(anomalies.map((s) => s.options?.displayId))];
    // Two operations, one kind each: two displays, each created once and then only updated.
    expect(ids).toHaveLength(2);
    for (const id of ids) {
      const mine = anomalies.filter((s) => s.options?.displayId === id);
      expect(mine.map((s) => s.options!.update)).toEqual([false, ...mine.slice(1).map(() => true)]);
      // The loop runs in one go: its updates are batched (and the count record's is sent before run.end).
      expect(mine.length).toBeLessThanOrEqual(3);
    }
    const last = (id: string | undefined) => anomalies.filter((s) => s.options?.displayId === id).at(-1)!;
    const first = last(ids[0]).bundle[NighthawkMime.traceAnomaly] as AnomalyShown;
    const second = last(ids[1]).bundle[NighthawkMime.traceAnomaly] as AnomalyShown;
    expect(first).toMatchObject({ anomalyKind: 'frozen_value_write', count: ANOMALIES_LISTED_EACH + 150 });
    expect(second).toMatchObject({ anomalyKind: 'frozen_value_write', count: 3 });
    expect(first.message).toContain('Cannot assign to read only property');
    expect(String(last(ids[0]).bundle['text/plain'])).toMatch(new RegExp(`^trace anomaly frozen_value_write \\(×${ANOMALIES_LISTED_EACH + 150}\\)`));
    // The ledger still lists each one it listed, and counts the rest.
    expect(session.ledger.select({ kind: 'trace.anomaly' })).toHaveLength(ANOMALIES_LISTED_EACH + 1 + 3);
  });

  it('a single anomaly reads as before: no count', async () => {
    const { anomalies } = await displayedBy([() => ({ toolCalls: [toolCall('nh_evaluate', { expression: loop(1) }), toolCall('nh_output', { result: { kind: 'pass' } })] })]);
    expect(anomalies).toHaveLength(1);
    expect(anomalies[0]!.bundle[NighthawkMime.traceAnomaly]).not.toHaveProperty('count');
    expect(String(anomalies[0]!.bundle['text/plain'])).toMatch(/^trace anomaly frozen_value_write: /);
  });
});
