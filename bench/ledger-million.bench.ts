/**
 * A Session ledger with 1,000,000 recorded operations in SQLite (issue 17.5): heap after recording
 * (target < 150 MB), a filtered select and a text search (each < 50 ms p50), and replaying a
 * 1,000-operation run (< 100 ms). Baselines in the same run: scans of in-memory arrays holding the
 * same records, and an in-memory Ledger for bytes per entry. Prints bytes per entry (heap and disk).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { AgentExecutor, Ledger, ScriptedModel, Session, SqliteLedgerStore, projectLedger, type LedgerEvent } from '../kernel/src/index.js';
import { ledgerEntry } from '../kernel/src/server/display/run-view.js';
import { report, sample } from './stats.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const heap = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

const RUNS = Number(process.env.LEDGER_BENCH_RUNS ?? 1000);
const EXECUTIONS = 125;
const OPS = 8; // 125 × 8 = 1,000 operations per run
const REFUSALS = 5;

// Real ids are time-ordered (ULIDs), so they are zero-padded here to sort in creation order too.
const id = (prefix: string, ...parts: number[]): string => `${prefix}_${parts.map((p) => String(p).padStart(7, '0')).join('_')}`;

const operation = (runId: string, executionId: string, n: number) => ({
  request: { operationId: id('op', n), kind: 'evaluate', stepId: 'bench:1', executionId, runId, expression: `lookup(order_${n})` },
  status: 'completed' as const,
  sequence: n % OPS,
  startedAt: 1_760_000_000_000 + n,
  durationMs: 0.01,
});

/** Records one run of 1,000 operations the way the run host does (entry, executions, operations, refusals, end). */
function recordRun(ledger: Ledger, r: number): void {
  const runId = id('run', r);
  ledger.append(runId, {
    kind: 'run.entry',
    subjectId: runId,
    data: { label: 'bench', grant: { capabilities: [{ name: 'lookup', footprint: [] }], references: [] }, platformPolicy: [], effectivePolicy: [], allocation: { maxDepth: 8 }, executorStepObservation: 'adapter', confinementIdentity: null, auditStoreDurable: null },
  });
  for (let e = 0; e < EXECUTIONS; e++) {
    const executionId = id('exe', r, e);
    ledger.append(runId, { kind: 'execution.start', subjectId: executionId, parentId: runId, data: { stepId: 'bench:1' } });
    for (let k = 0; k < OPS; k++) {
      const n = (r * EXECUTIONS + e) * OPS + k;
      ledger.append(runId, { kind: 'operation', subjectId: id('op', n), parentId: executionId, status: 'completed', data: operation(runId, executionId, n) });
    }
    if (e < REFUSALS) {
      ledger.append(runId, { kind: 'capability.refused', subjectId: 'refund', parentId: executionId, status: e % 2 ? 'not-granted' : 'invalid-request', data: { capability: 'refund', reason: e % 2 ? 'not-granted' : 'invalid-request', detail: `refund_${r}_${e} above limit` } });
    }
    ledger.append(runId, { kind: 'execution.end', subjectId: executionId, parentId: runId, status: 'completed', data: { stepId: 'bench:1', outcomeKind: 'pass' } });
  }
  ledger.append(runId, { kind: 'run.end', subjectId: runId, status: 'completed', data: { result: r } });
}

/** Replay: a run's events in order, folded into its call tree (executions with their operations). */
function replay(events: readonly LedgerEvent[]): number {
  const executions = new Map<string, number>();
  for (const e of events) {
    if (e.kind === 'execution.start') executions.set(e.subjectId, 0);
    else if (e.kind === 'operation') executions.set(e.parentId!, (executions.get(e.parentId!) ?? 0) + 1);
  }
  let ops = 0;
  for (const n of executions.values()) ops += n;
  return ops;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'nh-ledger-million-'));
  const store = new SqliteLedgerStore(path.join(dir, 'ledger.db'));
  // The bench records synthetic runs through the writer it created; the Session hands out only a view.
  const ledger = new Ledger({ store, window: 2_000 });
  const session = new Session({ executor: new AgentExecutor({ model: new ScriptedModel([]) }), ledger });
  const heapBefore = heap();
  const t0 = performance.now();
  const perRun: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const start = performance.now();
    recordRun(ledger, r);
    perRun.push(performance.now() - start);
  }
  ledger.flush();
  const buildSeconds = (performance.now() - t0) / 1000;
  const heapAfter = heap();
  const events = ledger.size;
  // Reads go through the Session's read-only view, the path the notebook uses.
  const reader = session.ledger;
  const operations = RUNS * EXECUTIONS * OPS;

  // Baseline for bytes per entry and per-run recording cost: the same runs in an in-memory Ledger (one tenth).
  const memoryRuns = Math.max(1, Math.floor(RUNS / 10));
  const memHeapBefore = heap();
  const memory = new Ledger();
  const perRunMemory: number[] = [];
  for (let r = 0; r < memoryRuns; r++) {
    const start = performance.now();
    recordRun(memory, r);
    perRunMemory.push(performance.now() - start);
  }
  const memHeapAfter = heap();
  const memoryEvents = memory.size;
  const memoryRunEvents = memory.select({ runId: id('run', 0) });
  const memoryBytesPerEntry = (memHeapAfter - memHeapBefore) / memoryEvents;

  console.log(
    `# ledger-million: ${operations.toLocaleString('en')} operations, ${events.toLocaleString('en')} events recorded in ${buildSeconds.toFixed(1)} s; ` +
      `heap ${(heapAfter / 1e6).toFixed(1)} MB (grew ${((heapAfter - heapBefore) / 1e6).toFixed(1)} MB); ` +
      `bytes per entry: heap ${((heapAfter - heapBefore) / events).toFixed(1)} (in-memory Ledger: ${memoryBytesPerEntry.toFixed(0)}), disk ${(store.byteSize() / events).toFixed(0)}`,
  );
  report('ledger.million_record_run_1000_ops', perRun, perRunMemory);

  // Baseline arrays: the same records' header fields and search text, held in memory and scanned.
  const target = Math.floor(RUNS / 2);
  const headers: { runId: string; kind: string; status: string | undefined }[] = [];
  const texts: string[] = [];
  for (let r = 0; r < RUNS; r++) {
    const runId = id('run', r);
    headers.push({ runId, kind: 'run.entry', status: undefined });
    for (let e = 0; e < EXECUTIONS; e++) {
      headers.push({ runId, kind: 'execution.start', status: undefined });
      for (let k = 0; k < OPS; k++) {
        headers.push({ runId, kind: 'operation', status: 'completed' });
        texts.push(`lookup(order_${(r * EXECUTIONS + e) * OPS + k})`);
      }
      if (e < REFUSALS) headers.push({ runId, kind: 'capability.refused', status: e % 2 ? 'not-granted' : 'invalid-request' });
      headers.push({ runId, kind: 'execution.end', status: 'completed' });
    }
    headers.push({ runId, kind: 'run.end', status: 'completed' });
  }

  const runId = id('run', target);
  const filtered = await sample(50, () => {
    if (reader.select({ runId, kind: 'capability.refused', status: 'not-granted' }).length !== 2) throw new Error('bad filtered select');
  }, 5);
  const filteredScan = await sample(50, () => headers.filter((h) => h.runId === runId && h.kind === 'capability.refused' && h.status === 'not-granted').length, 5);
  report('ledger.million_filtered_select', filtered, filteredScan);

  const kindStatus = await sample(50, () => {
    if (reader.select({ kind: 'capability.refused', status: 'not-granted', limit: 100 }).length !== Math.min(100, RUNS * 2)) throw new Error('bad kind/status select');
  }, 5);
  report('ledger.million_kind_status_select_limit_100', kindStatus);

  const needle = `order_${(target * EXECUTIONS + 77) * OPS + 3}`;
  const text = await sample(50, () => {
    if (reader.select({ text: needle }).length !== 1) throw new Error('bad text search');
  }, 5);
  const textScan = await sample(20, () => texts.filter((t) => t.includes(needle)).length, 3);
  report('ledger.million_text_search', text, textScan);

  const replayed = await sample(50, () => {
    if (replay(reader.select({ runId })) !== EXECUTIONS * OPS) throw new Error('bad replay');
  }, 5);
  const replayedMemory = await sample(50, () => replay(projectLedger(memoryRunEvents, { runId: id('run', 0) })), 5);
  report('ledger.million_replay_1000_ops', replayed, replayedMemory);

  // The notebook's unfiltered ledger view: the latest 10,000 events as view rows (payload only; the
  // browser side is measured by web.bench.ts). Baseline: the same rows from an in-memory array.
  const latest = reader.select({ afterSequence: reader.size - 10_000 });
  const view = await sample(10, () => {
    if (reader.select({ afterSequence: reader.size - 10_000 }).map((e) => ledgerEntry(e)).length !== 10_000) throw new Error('bad view');
  }, 2);
  const viewMemory = await sample(10, () => latest.map((e) => ledgerEntry(e)).length, 2);
  report('ledger.million_view_latest_10000', view, viewMemory);

  store.close();
  rmSync(dir, { recursive: true, force: true });
}

await main();
