import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NighthawkMime } from '../../shared/mime.js';
import type { LedgerPayload } from '../../shared/ui-types.js';
import { Ledger, SqliteLedgerStore, displayLedger } from '../../kernel/src/index.js';
import { setNotebookChannel } from '../../kernel/src/server/display/notebook-bridge.js';

const dir = mkdtempSync(path.join(tmpdir(), 'nh-display-ledger-'));
afterAll(() => {
  setNotebookChannel(undefined);
  rmSync(dir, { recursive: true, force: true });
});

describe('displayLedger over a ledger that lives in SQLite', () => {
  it('unfiltered, it shows the latest 10,000 events of a larger ledger; a filter reaches evicted events', () => {
    const shown: Record<string, unknown>[] = [];
    setNotebookChannel({ display: (bundle) => void shown.push(bundle as Record<string, unknown>), requestInput: () => Promise.reject(new Error('no input')) });
    const store = new SqliteLedgerStore(path.join(dir, 'ledger.db'));
    const ledger = new Ledger({ store, window: 100 });
    for (let i = 0; i < 10_050; i++) {
      const event = { kind: 'tick', i };
      ledger.append(`run_${i % 3}`, { kind: 'part.event', subjectId: 'bench:tick', status: 'tick', data: { part: 'bench', event } });
    }
    expect(displayLedger({}, { ledger })).toBe(10_000);
    const latest = shown[0]![NighthawkMime.ledger] as LedgerPayload;
    expect(latest.entries[0]!.sequence).toBe(51);
    expect(latest.entries.at(-1)!.sequence).toBe(10_050);
    expect(shown[0]!['text/plain']).toMatch(/the latest of 10050/);
    expect(displayLedger({ runId: 'run_0', afterSequence: 0, limit: 5 }, { ledger })).toBe(5);
    expect((shown[1]![NighthawkMime.ledger] as LedgerPayload).entries.map((e) => e.sequence)).toEqual([1, 4, 7, 10, 13]);
    store.close();
  });
});
