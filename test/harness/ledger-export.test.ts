import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  Ledger,
  LedgerImportError,
  SqliteLedgerStore,
  exportLedgerJsonl,
  importLedgerJsonl,
  rejectOperation,
  step,
  type LedgerFilter,
  type Runner,
} from '../../kernel/src/index.js';
import { toolCall } from '../../kernel/src/testing.js';
import { finish, scriptedRunner, trackedCapability } from './support.js';

const dir = mkdtempSync(join(tmpdir(), 'nh-ledger-export-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Two runs with operations, a rejection, a refusal, a dispatch and values JSON cannot carry. */
async function recordedRunner(ledger?: Ledger): Promise<{ runner: Runner; runIds: string[] }> {
  const { capability } = trackedCapability('lookup');
  let turn = 0;
  // Each step: one response whose refund is rejected (so its later calls are skipped), then a lookup and the finish.
  const { runner } = scriptedRunner(
    () => (turn++ % 2 === 0 ? { toolCalls: [toolCall('nh_evaluate', { expression: 'refund(100)' }), toolCall('lookup', { target: 'order-6' })] } : { toolCalls: [toolCall('lookup', { target: 'order-7' }), finish()] }),
    ledger ? { ledger } : {},
  );
  const runIds: string[] = [];
  for (let i = 0; i < 2; i++) {
    const handle = runner.start(
      async (ctx) => {
        await step({ program: 'execute\nRefund the order.' });
        await ctx.invoke('missing', {}).catch(() => undefined);
        await ctx.dispatch({ language: 'typescript', intent: 'define-and-invoke', entry: 'big', args: [], source: 'export function big(): bigint { return 2n ** 70n; }' });
        return { total: 10n ** 20n, nothing: undefined, negZero: -0 };
      },
      { grant: { capabilities: [capability] }, label: `refunds-${i}`, oversight: { inspectOperation: (r) => (r.expression?.startsWith('refund') ? rejectOperation('refunds need approval', 'ask the operator') : { kind: 'accept' }) } },
    );
    runIds.push(handle.runId);
    await handle.result;
  }
  return { runner, runIds };
}

const filtersFor = (runId: string): LedgerFilter[] => [
  {},
  { runId },
  { kind: 'operation' },
  { kind: ['capability.refused', 'capability.call'], runId },
  { status: 'rejected' },
  { text: 'order-7' },
  { afterSequence: 5, limit: 4 },
  { subjectId: runId },
];

describe('ledger export as JSON Lines', () => {
  it('a whole-ledger round trip gives identical select results, and the import is read-only', async () => {
    const { runner, runIds } = await recordedRunner();
    const text = exportLedgerJsonl(runner.ledger);
    const imported = importLedgerJsonl(text);
    expect(imported.readOnly).toBe(true);
    expect(imported.ledgerId).toBe(runner.ledger.ledgerId);
    for (const filter of filtersFor(runIds[1]!)) expect(imported.select(filter), JSON.stringify(filter)).toEqual(runner.ledger.select(filter));
    const end = imported.select({ runId: runIds[0]!, kind: 'run.end' })[0]!;
    expect(end.data.result).toEqual({ total: 10n ** 20n, nothing: undefined, negZero: -0 });
    expect(Object.isFrozen(end.data)).toBe(true);
    expect(() => imported.append(runIds[0]!, { kind: 'part.event', subjectId: 'x:y', status: 'y', data: { part: 'x', event: { kind: 'y' } } })).toThrow(/read-only/);
    expect(imported.size).toBe(runner.ledger.size);
  });

  it('a one-run export holds exactly that run, also when exported from a SQLite-backed ledger', async () => {
    const store = new SqliteLedgerStore(join(dir, 'export.db'));
    const { runner, runIds } = await recordedRunner(new Ledger({ store, window: 5 }));
    const text = exportLedgerJsonl(runner.ledger, { runId: runIds[0]! });
    expect(JSON.parse(text.split('\n')[0]!)).toMatchObject({ format: 'nighthawk-ledger', version: 1, runId: runIds[0] });
    const imported = importLedgerJsonl(text);
    expect(imported.select({ runId: runIds[1]! })).toEqual([]);
    for (const filter of filtersFor(runIds[0]!)) {
      expect(imported.select(filter), JSON.stringify(filter)).toEqual(runner.ledger.select({ ...filter, runId: runIds[0]! }));
    }
    store.close();
  });

  it('refuses a tampered, truncated or foreign export as a whole, naming the line', async () => {
    const { runner } = await recordedRunner();
    const lines = exportLedgerJsonl(runner.ledger).trimEnd().split('\n');
    const refused = (text: string) => {
      try {
        importLedgerJsonl(text);
      } catch (error) {
        return error;
      }
      return undefined;
    };
    expect(refused('')).toBeInstanceOf(LedgerImportError);
    expect(refused(lines.slice(0, -1).join('\n'))).toMatchObject({ message: expect.stringMatching(/announces/) });
    expect(refused(['{"format":"other"}', ...lines.slice(1)].join('\n'))).toMatchObject({ line: 1 });
    // An event whose data does not fit its kind.
    const tampered = JSON.parse(lines[1]!) as Record<string, unknown>;
    expect(tampered.kind).toBe('run.entry');
    const bad = [...lines];
    bad[1] = JSON.stringify({ ...tampered, data: { ...(tampered.data as object), effectivePolicy: ['everything'] } });
    expect(refused(bad.join('\n'))).toMatchObject({ line: 2, message: expect.stringMatching(/effectivePolicy/) });
    // Reordered events and a duplicated terminal event.
    const swapped = [lines[0]!, lines[2]!, lines[1]!, ...lines.slice(3)];
    expect(refused(swapped.join('\n'))).toMatchObject({ line: 3, message: expect.stringMatching(/sequence/) });
    const endLine = lines.findIndex((l) => l.includes('"kind":"run.end"'));
    const duplicated = [...lines];
    const again = JSON.parse(lines[endLine]!) as Record<string, unknown>;
    duplicated.push(JSON.stringify({ ...again, sequence: 10_000, eventId: 'ev_again' }));
    duplicated[0] = JSON.stringify({ ...(JSON.parse(lines[0]!) as object), events: duplicated.length - 1 });
    expect(refused(duplicated.join('\n'))).toMatchObject({ message: expect.stringMatching(/second terminal run.end/) });
    expect(refused([lines[0], 'not json', ...lines.slice(2)].join('\n'))).toMatchObject({ line: 2, message: expect.stringMatching(/not JSON/) });
  });
});
