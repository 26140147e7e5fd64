/**
 * The ZeroMQ kernel (installed kernelspec, `nighthawk-ts kernel run`) beside tslab's own ZeroMQ kernel, both
 * started and driven by jupyter_client (Debian /usr/bin/python3, test/zmq/py/roundtrip_bench.py) in the same run:
 * - `1+1` round trip: execute_request → execute_reply and idle;
 * - cold start: KernelManager.start_kernel → first kernel_info_reply (the request sent as soon as channels are up),
 *   and on to the reply of a first `1+1` (the compiler and Session host load after that kernel_info_reply);
 *   the two kernels' cold starts alternate, so a change in the machine's load hits both alike;
 * - resident memory of the kernel process one second after that first `1+1` and after a cell importing the library
 *   (tslab: zod, as in notebook-peers.bench.ts; tslab cannot resolve this package's self-reference), per cold start;
 * - the same start to first result for a notebook run again: its cells' conversions stored by an earlier kernel
 *   (conversion-store.ts); every other figure starts with nothing stored;
 * - the same start to first result, and resident memory, for a kernel handed out by the kernel pool (a warm spare,
 *   kernel-pool.ts), measured after the pool's spare is warm and before the next figure (so its warm-up never
 *   runs beside another kernel's start); the launcher Jupyter started stays beside it, and its private memory is
 *   counted with the kernel's. Every other nighthawk figure runs with the pool off (cold);
 * plus ipykernel's cold start as a second reference. Round trips tslab loses (no reply or idle in 2 s) are counted;
 * a cold start that does not finish within 45 s (tslab's kernel hung so, now and then, in this bench) is ended,
 * made again and reported.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { percentile, report } from './stats.js';
import { ensureBuilt } from '../kernel/src/server/runner/nb-build.js';
import { isolatedJupyterEnv } from '../test/support/jupyter-env.js';

const N = Number(process.env.BENCH_N ?? 500);
const COLD = Number(process.env.BENCH_COLD ?? 5);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const progress = (what: string) => process.stderr.write(`# ${what}\n`);

interface DriverResult {
  cold_start_ms: number[];
  first_execute_ms: number[];
  round_trip_ms: number[];
  lost: number;
  rss_mb: Array<{ after_first_cell: number; after_import: number; pooled: boolean }>;
  /** Cold starts that hung and were made again (roundtrip_bench.py), by where they stopped. */
  hung: string[];
}

ensureBuilt(progress);
const dir = mkdtempSync(path.join(tmpdir(), 'nh-zmq-bench-'));
const prefix = path.join(dir, 'prefix');
const kernels = path.join(prefix, 'share', 'jupyter', 'kernels');
// Cold unless a figure says otherwise: the kernel pool is on by default for installed kernelspecs.
const env = isolatedJupyterEnv(dir, { NIGHTHAWK_KERNEL_POOL: 'off' });
const cli = path.join(root, 'dist', 'kernel', 'src', 'cli.js');
// One environment for every pooled start (a pool serves launches identical to its spares), conversions included.
const pooledEnv = { NIGHTHAWK_KERNEL_POOL: 'on', NIGHTHAWK_KERNEL_POOL_DIR: path.join(dir, 'pool'), NIGHTHAWK_CONVERSION_CACHE_DIR: path.join(dir, 'pooled-conversions') };

/** `conversions`: where the kernel keeps cell conversions (a fresh directory: nothing stored by an earlier kernel). */
function driver(kernel: string, n: number, cold: number, importCell?: string, conversions = mkdtempSync(path.join(dir, 'conversions-')), extraEnv: NodeJS.ProcessEnv = {}): DriverResult {
  const args = [path.join(root, 'test', 'zmq', 'py', 'roundtrip_bench.py'), kernel, String(n), String(cold), ...(importCell ? [importCell] : [])];
  const out = execFileSync('/usr/bin/python3', args, { env: { ...env, NIGHTHAWK_CONVERSION_CACHE_DIR: conversions, ...extraEnv }, cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 240_000 });
  return JSON.parse(out.trim().split('\n').at(-1)!) as DriverResult;
}

/** Waits until the pool has a warm spare (after a hand-out its replacement warms for a few seconds). */
function poolWarm(): void {
  const end = Date.now() + 120_000;
  while (Date.now() < end) {
    const status = spawnSync(process.execPath, [cli, 'kernel', 'pool', 'status'], { env: { ...env, ...pooledEnv }, encoding: 'utf8' });
    if (/ ready in /.test(status.stdout)) return;
    spawnSync('sleep', ['0.3']);
  }
  throw new Error('the kernel pool has no warm spare after 120 s');
}

try {
  execFileSync(process.execPath, [cli, 'kernel', 'install', '--prefix', prefix, '--name', 'nighthawk-bench'], { env, stdio: 'ignore' });
  // tslab's kernelspec as `tslab install` writes it, pointing at this repo's tslab.
  mkdirSync(path.join(kernels, 'tslab-bench'), { recursive: true });
  const tslabBin = createRequire(import.meta.url).resolve('tslab/bin/tslab');
  writeFileSync(
    path.join(kernels, 'tslab-bench', 'kernel.json'),
    JSON.stringify({ argv: [process.execPath, tslabBin, 'kernel', '--config-path', '{connection_file}'], display_name: 'TypeScript (tslab)', language: 'typescript' }),
  );
  const NH_IMPORT = 'import * as nh from "nighthawk-ts";\ntypeof nh.Session';
  const ZOD_IMPORT = 'import * as z from "zod";\ntypeof z.string';
  const merge = (a: DriverResult, b: DriverResult): DriverResult => ({
    cold_start_ms: [...a.cold_start_ms, ...b.cold_start_ms],
    first_execute_ms: [...a.first_execute_ms, ...b.first_execute_ms],
    round_trip_ms: [...a.round_trip_ms, ...b.round_trip_ms],
    lost: a.lost + b.lost,
    rss_mb: [...a.rss_mb, ...b.rss_mb],
    hung: [...a.hung, ...b.hung],
  });
  const none: DriverResult = { cold_start_ms: [], first_execute_ms: [], round_trip_ms: [], lost: 0, rss_mb: [], hung: [] };
  let ours = none;
  let tslab = none;
  // A notebook run again (Restart & Run All, papermill): its cells' conversions were stored by an earlier kernel.
  let rerun = none;
  let pooled = none;
  const stored = mkdtempSync(path.join(dir, 'stored-'));
  driver('nighthawk-bench', 0, 1, NH_IMPORT, stored);
  // The first pooled launch finds no daemon: it starts cold and starts the daemon, whose spare then warms.
  driver('nighthawk-bench', 0, 1, NH_IMPORT, pooledEnv.NIGHTHAWK_CONVERSION_CACHE_DIR, pooledEnv);
  poolWarm();
  for (let i = 0; i < COLD; i++) {
    progress(`cold start ${i + 1}/${COLD}: nighthawk, tslab, nighthawk with its cells stored, nighthawk from the pool`);
    ours = merge(ours, driver('nighthawk-bench', 0, 1, NH_IMPORT));
    tslab = merge(tslab, driver('tslab-bench', 0, 1, ZOD_IMPORT));
    rerun = merge(rerun, driver('nighthawk-bench', 0, 1, NH_IMPORT, stored));
    const handed = driver('nighthawk-bench', 0, 1, NH_IMPORT, pooledEnv.NIGHTHAWK_CONVERSION_CACHE_DIR, pooledEnv);
    if (!handed.rss_mb.every((m) => m.pooled)) throw new Error('a pooled start was not handed a spare');
    pooled = merge(pooled, handed);
    poolWarm();
  }
  progress(`${N} round trips: nighthawk, tslab`);
  ours = merge(ours, driver('nighthawk-bench', N, 0));
  tslab = merge(tslab, driver('tslab-bench', N, 0));
  progress(`ipykernel: ${COLD} cold starts`);
  const ipykernel = driver('python3', 0, COLD);

  report('zmq-kernel-roundtrip-1+1-vs-tslab', ours.round_trip_ms, tslab.round_trip_ms);
  report('zmq-kernel-cold-start-vs-tslab', ours.cold_start_ms, tslab.cold_start_ms);
  report('zmq-kernel-cold-start-vs-ipykernel', ours.cold_start_ms, ipykernel.cold_start_ms);
  // Our kernel answers kernel_info before its compiler and Session host load; this line shows the full start.
  report('zmq-kernel-start-to-first-execute-vs-tslab', ours.first_execute_ms, tslab.first_execute_ms);
  report('zmq-kernel-start-to-first-execute-stored-vs-tslab', rerun.first_execute_ms, tslab.first_execute_ms);
  report('zmq-kernel-start-to-first-execute-pooled-vs-tslab', pooled.first_execute_ms, tslab.first_execute_ms);
  const rss = (r: DriverResult, key: 'after_first_cell' | 'after_import') => r.rss_mb.map((m) => m[key]);
  const mb = (r: DriverResult, key: 'after_first_cell' | 'after_import') => percentile(rss(r, key), 50).toFixed(1);
  console.log(`# kernel RSS (p50 of ${COLD} starts) after the first cell: nighthawk ${mb(ours, 'after_first_cell')} MB, from the pool ${mb(pooled, 'after_first_cell')} MB, tslab ${mb(tslab, 'after_first_cell')} MB; after importing the library: nighthawk ${mb(ours, 'after_import')} MB, from the pool ${mb(pooled, 'after_import')} MB (nighthawk-ts), tslab ${mb(tslab, 'after_import')} MB (zod)`);
  // Megabytes, printed in the same format (the "_ms" fields hold MB here).
  report('zmq-kernel-rss-mb-after-first-cell-vs-tslab', rss(ours, 'after_first_cell'), rss(tslab, 'after_first_cell'));
  report('zmq-kernel-rss-mb-after-library-import-vs-tslab', rss(ours, 'after_import'), rss(tslab, 'after_import'));
  report('zmq-kernel-rss-mb-after-first-cell-pooled-vs-tslab', rss(pooled, 'after_first_cell'), rss(tslab, 'after_first_cell'));
  report('zmq-kernel-rss-mb-after-library-import-pooled-vs-tslab', rss(pooled, 'after_import'), rss(tslab, 'after_import'));
  console.log(`# lost round trips: nighthawk ${ours.lost}/${N}, tslab ${tslab.lost}/${N}`);
  for (const [name, r] of [['nighthawk', ours], ['nighthawk (cells stored)', rerun], ['nighthawk (pool)', pooled], ['tslab', tslab], ['ipykernel', ipykernel]] as const) {
    if (r.hung.length > 0) console.log(`# ${name}: ${r.hung.length} cold start(s) did not finish within 45 s and were made again (stopped at: ${r.hung.join(', ')})`);
  }
} finally {
  spawnSync(process.execPath, [cli, 'kernel', 'pool', 'stop'], { env: { ...env, ...pooledEnv } });
  rmSync(dir, { recursive: true, force: true });
}
