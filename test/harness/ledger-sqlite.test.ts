import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentExecutor, Ledger, Session, SqliteLedgerStore, currentExecutionRef, step, type LedgerAppend, type LedgerEvent, type LedgerFilter } from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';
import { finish } from './support.js';

const dir = mkdtempSync(join(tmpdir(), 'nh-ledger-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const dbPath = () => join(dir, `ledger-${files++}.db`);

/** A deterministic mix of kinds, statuses, parents and values that JSON alone cannot carry. */
function script(runs: number): [string, LedgerAppend][] {
  const out: [string, LedgerAppend][] = [];
  for (let r = 0; r < runs; r++) {
    const runId = `run_${r}`;
    // Part events carry the part's own fields (not fresh literals here, so the open shape is not excess-checked).
    const event = { kind: 'start', big: 12345678901234567890n, none: undefined, negZero: -0, nan: NaN };
    out.push([runId, { kind: 'part.event', subjectId: `demo:start`, parentId: runId, status: 'start', data: { part: 'demo', event } }]);
    for (let e = 0; e < 3; e++) {
      const exe = `exe_${r}_${e}`;
      out.push([runId, { kind: 'execution.start', subjectId: exe, parentId: runId, data: { stepId: `step_${e}`, program: `execute\nFind the refund for order ${r * 10 + e}.` } }]);
      out.push([runId, { kind: 'capability.refused', subjectId: 'refund', parentId: exe, status: e === 1 ? 'not-granted' : 'invalid-request', data: { capability: 'refund', reason: e === 1 ? 'not-granted' : 'invalid-request', detail: `order_${r}_${e} above limit` } }]);
      out.push([runId, { kind: 'execution.end', subjectId: exe, parentId: runId, status: e === 2 ? 'failed' : 'completed', data: { stepId: `step_${e}`, error: e === 2 ? new RangeError(`boom ${r}`) : undefined } }]);
    }
    out.push([runId, { kind: 'run.end', subjectId: runId, status: 'completed', data: { result: { orders: [r, r + 1], at: new Date(0) } } }]);
  }
  return out;
}

/** Events without the per-ledger identity fields, for comparing two ledgers fed the same appends. */
const facts = (events: readonly LedgerEvent[]) => events.map(({ eventId: _id, at: _at, ...rest }) => rest);

const FILTERS: LedgerFilter[] = [
  {},
  { runId: 'run_3' },
  { kind: 'capability.refused' },
  { kind: ['run.end', 'execution.end'], status: 'completed' },
  { status: 'failed' },
  { subjectId: 'refund', limit: 7 },
  { parentId: 'exe_4_1' },
  { afterSequence: 120, kind: 'execution.start' },
  { text: 'order_5_1' },
  { text: 'ABOVE LIMIT', runId: 'run_2' },
  { text: 'boom 7' },
  { text: 'refund', limit: 5 },
];

describe('a ledger that lives in SQLite', () => {
  it('keeps a bounded window in memory and answers every select exactly like an in-memory ledger', () => {
    const store = new SqliteLedgerStore(dbPath());
    const durable = new Ledger({ store, window: 16 });
    const memory = new Ledger();
    let largestWindow = 0;
    for (const [runId, entry] of script(30)) {
      durable.append(runId, entry);
      memory.append(runId, entry);
      largestWindow = Math.max(largestWindow, durable.window.length);
    }
    expect(durable.size).toBe(memory.size);
    expect(largestWindow).toBeLessThanOrEqual(16 + 64);
    for (const filter of FILTERS) expect(facts(durable.select(filter)), JSON.stringify(filter)).toEqual(facts(memory.select(filter)));
    expect(durable.select({ text: 'order_5_1' })).toHaveLength(1);
    // Values JSON cannot carry come back as the snapshot held them.
    const start = durable.select({ runId: 'run_0', kind: 'part.event' })[0]!;
    expect(start.data.event).toEqual({ kind: 'start', big: 12345678901234567890n, none: undefined, negZero: -0, nan: NaN });
    expect(Object.is(start.data.event.negZero, -0)).toBe(true);
    expect(Object.isFrozen(start.data.event)).toBe(true);
    store.close();
  });

  it('refuses a second terminal event for a subject whose first one has left the window', () => {
    const store = new SqliteLedgerStore(dbPath());
    const ledger = new Ledger({ store, window: 4 });
    ledger.append('run_1', { kind: 'execution.end', subjectId: 'exe_old', status: 'completed' });
    for (let i = 0; i < 200; i++) {
      const event = { kind: 'tick', i };
      ledger.append('run_1', { kind: 'part.event', subjectId: 'p:tick', status: 'tick', data: { part: 'p', event } });
    }
    expect(ledger.window.some((e) => e.subjectId === 'exe_old')).toBe(false);
    expect(ledger.hasTerminal('execution.end', 'exe_old')).toBe(true);
    expect(() => ledger.append('run_1', { kind: 'execution.end', subjectId: 'exe_old', status: 'failed' })).toThrow(/already holds/);
    expect(ledger.select({ subjectId: 'exe_old' })).toHaveLength(1);
    store.close();
  });

  it('a path whose folders do not exist yet creates them and opens', () => {
    const store = new SqliteLedgerStore(join(dir, 'not', 'yet', 'ledger.db'));
    const ledger = new Ledger({ store });
    ledger.append('run_1', { kind: 'part.event', subjectId: 'x:y', status: 'y', data: { part: 'x', event: { kind: 'y' } } });
    expect(ledger.select({ runId: 'run_1' })).toHaveLength(1);
    store.close();
  });

  it('nothing is lost on restart: a reopened store continues the ledger, and other ledgers in the file stay apart', () => {
    const path = dbPath();
    const first = new SqliteLedgerStore(path);
    const ledger = new Ledger({ store: first, window: 8 });
    for (const [runId, entry] of script(5)) ledger.append(runId, entry);
    const before = facts(ledger.select({}));
    const other = new Ledger({ store: first });
    other.append('run_other', { kind: 'part.event', subjectId: 'x:y', status: 'y', data: { part: 'x', event: { kind: 'y' } } });
    first.close();

    const reopened = new SqliteLedgerStore(path);
    const resumed = new Ledger({ store: reopened, ledgerId: ledger.ledgerId });
    expect(facts(resumed.select({}))).toEqual(before);
    expect(resumed.size).toBe(before.length);
    expect(() => resumed.append('run_1', { kind: 'run.end', subjectId: 'run_1', status: 'failed' })).toThrow(/already holds/);
    const next = resumed.append('run_9', { kind: 'part.event', subjectId: 'z:z', status: 'z', data: { part: 'z', event: { kind: 'z' } } });
    expect(next.sequence).toBe(before.length + 1);
    // The store as a whole (the notebook's persisted view) holds both ledgers.
    expect(reopened.select({ runId: 'run_other' })).toHaveLength(1);
    expect(resumed.select({ runId: 'run_other' })).toHaveLength(0);
    expect(reopened.ledgerIds()).toEqual([ledger.ledgerId, other.ledgerId]);
    reopened.close();
  });

  it('a process that exits in the same tick as its appends still leaves them in the store', () => {
    const path = dbPath();
    const entry = fileURLToPath(new URL('../../kernel/src/index.ts', import.meta.url));
    const child = join(dir, 'exit-child.ts');
    writeFileSync(
      child,
      `import { Ledger, SqliteLedgerStore } from ${JSON.stringify(entry)};
const ledger = new Ledger({ store: new SqliteLedgerStore(${JSON.stringify(path)}) });
for (let i = 0; i < 3; i++) ledger.append('run_exit', { kind: 'run.end', subjectId: 'run_' + i, status: 'completed', data: { result: i } });
console.log(ledger.ledgerId);
process.exit(0);
`,
    );
    const ledgerId = execFileSync(process.execPath, ['--import', 'tsx', child], { encoding: 'utf8' }).trim();
    const store = new SqliteLedgerStore(path);
    expect(new Ledger({ store, ledgerId }).select({ runId: 'run_exit' }).map((e) => e.subjectId)).toEqual(['run_0', 'run_1', 'run_2']);
    store.close();
  });

  it('answers run, kind, status, subject, parent and text filters from indexes and FTS5, not by scanning', () => {
    const store = new SqliteLedgerStore(dbPath());
    const ledger = new Ledger({ store, window: 8 });
    for (const [runId, entry] of script(3)) ledger.append(runId, entry);
    const plan = (filter: LedgerFilter) => store.explain(filter, ledger.ledgerId);
    expect(plan({ runId: 'run_1', kind: 'execution.end' })).toMatch(/USING INDEX ledger_events_run/);
    expect(plan({ kind: 'run.end' })).toMatch(/USING INDEX ledger_events_kind_status/);
    expect(plan({ kind: 'capability.refused', status: 'not-granted' })).toMatch(/USING INDEX ledger_events_kind_status/);
    expect(plan({ status: 'failed' })).toMatch(/USING INDEX ledger_events_by_status/);
    expect(plan({ subjectId: 'exe_1_1' })).toMatch(/USING INDEX ledger_events_subject/);
    expect(plan({ parentId: 'exe_1_1' })).toMatch(/USING INDEX ledger_events_parent/);
    expect(plan({ afterSequence: 10 })).toMatch(/USING INDEX ledger_events_ledger_seq/);
    expect(plan({ text: 'order_1_2' })).toMatch(/VIRTUAL TABLE INDEX/);
    for (const filter of [{ runId: 'run_1' }, { kind: 'run.end' as const }, { status: 'failed' }, { text: 'order_1_2' }]) expect(plan(filter)).not.toMatch(/SCAN e(?! USING)/);
    expect(ledger.select({ text: 'order_1_2' }).map((e) => e.subjectId)).toEqual(['refund']);
    store.close();
  });

  it('a Session whose ledger lives in SQLite runs, projects history and reads evicted runs back', async () => {
    const store = new SqliteLedgerStore(dbPath());
    const model = new ScriptedModel(() => ({ toolCalls: [toolCall('nh_evaluate', { expression: '"needle-" + 1' }), finish()] }));
    const session = new Session({ executor: new AgentExecutor({ model }), ledger: new Ledger({ store, window: 10 }) });
    const submission = session.submit('async function work() {}');
    const { work } = session.materialized(submission, {
      work: async () => {
        await step({ program: 'execute\nGo.' });
        return currentExecutionRef().runId;
      },
    });
    const runIds: string[] = [];
    for (let i = 0; i < 16; i++) runIds.push((await work!()) as string);
    const first = runIds[0]!;
    expect(session.ledger.window.some((e) => e.runId === first)).toBe(false);
    expect(session.ledger.select({ runId: first }).map((e) => e.kind)).toEqual(['run.entry', 'execution.start', 'operation', 'operation', 'execution.end', 'run.end']);
    expect(session.ledger.select({ kind: 'run.entry' })).toHaveLength(16);
    expect(session.ledger.select({ text: 'needle' })).toHaveLength(16);
    expect(session.ledger.select({ runId: runIds[15]!, kind: 'operation' })).toHaveLength(2);
    store.close();
  });
});
