/**
 * Durable perimeter audit write (one attempt record, WAL + synchronous=FULL) beside a raw write+fsync of
 * the same byte count to a file in the same directory, interleaved so both see the same disk conditions.
 * Target: ratio under 1.5 (one fsync per commit either way).
 */
import { closeSync, fsyncSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPerimeterAttempt, type PerimeterAttempt } from '../kernel/src/harness/index.js';
import { SqlitePerimeterAuditStore } from '../kernel/src/harness/index.js';
import { report } from './stats.js';

const SAMPLES = Number(process.env.AUDIT_BENCH_SAMPLES ?? 1_500);
const WARMUP = 100;
// A slow or contended disk can make 1,500 fsync pairs take minutes; stop early but keep enough samples for p99.
const TIME_BUDGET_MS = 40_000;
const MIN_SAMPLES = 300;

const dir = mkdtempSync(join(tmpdir(), 'nh-audit-bench-'));
try {
  const store = new SqlitePerimeterAuditStore({ path: join(dir, 'audit.db') });
  const fd = openSync(join(dir, 'raw.bin'), 'a');
  const attempts: PerimeterAttempt[] = Array.from({ length: SAMPLES + WARMUP }, (_, i) =>
    createPerimeterAttempt({
      runId: 'run_bench',
      executionId: 'exec_bench',
      capability: 'http_post',
      footprint: ['egress'],
      arguments: { url: `https://api.example.com/items/${i}`, body: { id: i, note: 'audit bench payload' } },
    }),
  );
  const bytes = Buffer.byteLength(JSON.stringify(attempts[0]));
  const buffer = Buffer.alloc(bytes, 0x61);

  const audit: number[] = [];
  const raw: number[] = [];
  const started = performance.now();
  for (let i = 0; i < attempts.length; i++) {
    if (audit.length >= MIN_SAMPLES && performance.now() - started > TIME_BUDGET_MS) break;
    // Alternate which goes first so neither systematically inherits the other's disk state.
    const order = i % 2 === 0 ? (['audit', 'raw'] as const) : (['raw', 'audit'] as const);
    for (const which of order) {
      const t0 = performance.now();
      if (which === 'audit') store.recordAttempt(attempts[i]!);
      else {
        writeSync(fd, buffer);
        fsyncSync(fd);
      }
      const ms = performance.now() - t0;
      if (i >= WARMUP) (which === 'audit' ? audit : raw).push(ms);
    }
  }
  closeSync(fd);
  store.close();
  console.log(`# record bytes=${bytes} samples=${audit.length}`);
  report('audit-store-attempt-durable', audit, raw);
  report('audit-store-raw-write-fsync', raw);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
