/**
 * Time to first result and a notebook beside its peers, in one run and the same headless chromium:
 * - web-first-result-{pool,cold,cold-stored}: navigation to a new notebook → its first cell's result (`import * as nh from
 *   "nighthawk-ts"`), run as soon as the kernel reads idle; with the server's warm spare and with none. Beside it,
 *   the same figure for tslab's kernel in Jupyter Notebook 6 (Debian's jupyter-notebook), whose first cell imports
 *   zod (tslab cannot resolve this package's self-reference). "cold" starts with nothing stored; "cold-stored" is
 *   a notebook run again: its first cell's conversion stored by an earlier kernel (conversion-store.ts).
 * - web-run-all-20: Run all of 20 small cells → every result shown; Jupyter Notebook 6 with tslab's kernel alongside.
 * - web-heap-50-cells: the page's JS heap after loading a 50-cell notebook (after a forced GC), beside Jupyter 6's;
 *   "editing": after the pointer moved, so Monaco loaded and all 50 editors mounted.
 * - kernel-rss-*: a cold kernel process's resident memory after its first cell and after importing the library,
 *   beside tslab's kernel after the same first cell and an import of zod; "-from-compiler-snapshot": the same
 *   kernel started from its directory's compiler snapshot (the blob stays resident).
 * "cold" kernels start from the directory's compiler snapshot (built once per Node, install and directory, by
 * the first kernel start that misses it); "cold-no-snapshot" is the very first kernel started in a directory.
 * Jupyter Notebook 6 missing: its lines are skipped with a note (scripts/ensure-system-deps.sh installs it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, promises as fs, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { report } from './stats.js';
import { startServer } from '../kernel/src/server/index.js';
import { buildCompilerSnapshot, compilerSnapshotTarget } from '../kernel/src/server/kernel/compiler-snapshot.js';
import { kernelNodeFlags } from '../kernel/src/server/kernel/kernel-process-handle.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { ensureBuilt } from '../kernel/src/server/runner/nb-build.js';
import { freePort } from '../test/support/free-port.js';
import { isolatedJupyterEnv, untilServing } from '../test/support/jupyter-env.js';
import { TslabZmqKernel } from '../test/support/kernel-tslab-zmq.js';
import { buildWebApp, launchChromium, notebookJson, tempNotebooksDir } from '../test/web/web-harness.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LOADS = Number(process.env.BENCH_LOADS ?? 8);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const progress = (what: string) => process.stderr.write(`# ${what}\n`);
const NH_FIRST = 'import * as nh from "nighthawk-ts";\ntypeof nh.Session';
const ZOD_FIRST = 'import * as z from "zod";\ntypeof z.string';
const SMALL = Array.from({ length: 20 }, (_, i) => ({ source: `${i} + 1` }));
const FIFTY = Array.from({ length: 50 }, (_, i) => ({ source: `// cell ${i}\nconst value${i} = await compute(${i});\nconsole.log(value${i});` }));
const sessionHost = path.join(root, 'dist', 'kernel', 'src', 'server', 'display', 'session-host.js');

/**
 * Both servers send a Content-Security-Policy without 'unsafe-eval', and Playwright evaluates a string
 * predicate with eval: the bench's pages bypass CSP (the pages' own scripts run the same either way).
 */
function newPage(browser: Browser): Promise<Page> {
  return browser.newPage({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
}

/** Resolves with the page's performance.now() at the first animation frame where `condition` holds. */
function frameWhen(page: Page, condition: string, timeout = 60_000): Promise<number> {
  return page.waitForFunction(`(${condition}) && performance.now()`, undefined, { polling: 'raf', timeout }).then((h) => h.jsonValue() as Promise<number>);
}

async function heapUsed(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const usage = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  await cdp.detach();
  return usage.usedSize / 1024 / 1024;
}

function rssMb(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

// --- ours -------------------------------------------------------------------------------------------------

const ours = {
  ready: `document.body.dataset.ready === 'true' && document.querySelector('.kernel-status[data-status="idle"]') !== null`,
  runAll: `document.querySelector('button[aria-label="Run all cells"], button[title="Run all cells"]')?.click() ?? [...document.querySelectorAll('button')].find((b) => b.textContent === 'Run all')?.click()`,
  done: (n: number) => `document.querySelectorAll('.cell .output-execute_result').length >= ${n} && document.querySelectorAll('.cell[data-run-state="queued"], .cell[data-run-state="running"]').length === 0`,
};

async function oursFirstResult(browser: Browser, server: ServerProcess, dir: string, pooled: boolean, loads = LOADS): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < loads; i++) {
    if (pooled) await server.waitForSpare();
    const name = `first-${pooled ? 'pool' : 'cold'}-${i}.ipynb`;
    writeFileSync(path.join(dir, name), notebookJson([{ source: NH_FIRST }]));
    const page = await newPage(browser);
    await page.goto(`${server.url.split('?')[0]}?token=${server.token}&path=${name}`);
    await frameWhen(page, ours.ready);
    await page.evaluate(ours.runAll);
    out.push(await frameWhen(page, ours.done(1)));
    await page.close();
    await server.shutdownKernels();
  }
  return out;
}

async function oursRunAll(browser: Browser, server: ServerProcess, dir: string): Promise<number[]> {
  writeFileSync(path.join(dir, 'twenty.ipynb'), notebookJson(SMALL));
  const page = await newPage(browser);
  await page.goto(`${server.url.split('?')[0]}?token=${server.token}&path=twenty.ipynb`);
  await frameWhen(page, ours.ready);
  const out: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const t0 = (await page.evaluate(`performance.now()`)) as number;
    await page.evaluate(ours.runAll);
    const t1 = await frameWhen(page, ours.done(20));
    if (i > 0) out.push(t1 - t0);
  }
  await page.close();
  return out;
}

/**
 * At rest the page holds no Monaco (it loads at the first sign of use); `inUse` moves the pointer first and
 * waits for Monaco and every editor (mounted ahead in idle time), as for someone editing.
 */
async function oursHeap(browser: Browser, server: ServerProcess, dir: string, inUse = false): Promise<number[]> {
  writeFileSync(path.join(dir, 'fifty.ipynb'), notebookJson(FIFTY));
  const out: number[] = [];
  for (let i = 0; i < 3; i++) {
    const page = await newPage(browser);
    await page.goto(`${server.url.split('?')[0]}?token=${server.token}&path=fifty.ipynb`);
    await frameWhen(page, ours.ready);
    if (inUse) {
      await page.mouse.move(640, 450);
      await page.locator('body[data-editors="mounted"]').waitFor({ state: 'attached', timeout: 30_000 });
    }
    await page.waitForTimeout(1000);
    out.push(await heapUsed(page));
    await page.close();
  }
  return out;
}

// --- Jupyter Notebook 6 with tslab's kernel ---------------------------------------------------------------

const jupyter = {
  ready: `window.Jupyter?.notebook?.kernel?.is_connected?.() && document.querySelector('#kernel_indicator_icon.kernel_idle_icon') !== null`,
  runAll: `Jupyter.notebook.execute_all_cells()`,
  done: (n: number) => `document.querySelectorAll('.cell .output_subarea').length >= ${n} && [...document.querySelectorAll('.cell .input_prompt')].every((p) => !p.textContent.includes('*'))`,
};

interface Notebook6 {
  url: string;
  token: string;
  dir: string;
  stop(): void;
}

async function startNotebook6(): Promise<Notebook6 | undefined> {
  const python = '/usr/bin/python3';
  const probe = spawn(python, ['-c', 'import notebook, sys; sys.exit(0 if notebook.__version__.startswith("6") else 1)'], { stdio: 'ignore' });
  if ((await new Promise<number | null>((r) => probe.once('exit', r))) !== 0) return undefined;
  const dir = await tempNotebooksDir();
  const kernels = path.join(dir, 'prefix', 'share', 'jupyter', 'kernels');
  mkdirSync(path.join(kernels, 'tslab'), { recursive: true });
  const tslabBin = createRequire(import.meta.url).resolve('tslab/bin/tslab');
  writeFileSync(path.join(kernels, 'tslab', 'kernel.json'), JSON.stringify({ argv: [process.execPath, tslabBin, 'kernel', '--config-path', '{connection_file}'], display_name: 'TypeScript (tslab)', language: 'typescript' }));
  const nbDir = path.join(dir, 'nb');
  mkdirSync(nbDir);
  const port = await freePort();
  const token = 'bench-jupyter-token';
  const args = ['-m', 'notebook', '--no-browser', '--ip=127.0.0.1', `--port=${port}`, '--port-retries=0', `--NotebookApp.token=${token}`, `--notebook-dir=${nbDir}`];
  if (process.getuid?.() === 0) args.push('--allow-root');
  // tslab resolves `zod` from the notebook's directory: give it this repository's node_modules.
  await fs.symlink(path.join(root, 'node_modules'), path.join(nbDir, 'node_modules'));
  const child: ChildProcess = spawn(python, args, { env: isolatedJupyterEnv(dir), cwd: nbDir, stdio: ['ignore', 'pipe', 'pipe'] });
  process.once('exit', () => child.kill('SIGKILL'));
  await untilServing(child, 'jupyter notebook');
  return { url: `http://127.0.0.1:${port}/`, token, dir: nbDir, stop: () => child.kill('SIGTERM') };
}

function tslabNotebook(cells: Array<{ source: string }>): string {
  const nb = JSON.parse(notebookJson(cells)) as { metadata: Record<string, unknown> };
  nb.metadata = { kernelspec: { name: 'tslab', display_name: 'TypeScript (tslab)', language: 'typescript' } };
  return JSON.stringify(nb);
}

async function shutdownJupyterKernels(nb: Notebook6): Promise<void> {
  const list = (await (await fetch(`${nb.url}api/kernels?token=${nb.token}`)).json()) as Array<{ id: string }>;
  for (const k of list) await fetch(`${nb.url}api/kernels/${k.id}?token=${nb.token}`, { method: 'DELETE' });
  const sessions = (await (await fetch(`${nb.url}api/sessions?token=${nb.token}`)).json()) as Array<{ id: string }>;
  for (const s of sessions) await fetch(`${nb.url}api/sessions/${s.id}?token=${nb.token}`, { method: 'DELETE' });
}

async function jupyterFirstResult(browser: Browser, nb: Notebook6): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < LOADS; i++) {
    const name = `first-${i}.ipynb`;
    writeFileSync(path.join(nb.dir, name), tslabNotebook([{ source: ZOD_FIRST }]));
    const page = await newPage(browser);
    try {
      await page.goto(`${nb.url}notebooks/${name}?token=${nb.token}`);
      await frameWhen(page, jupyter.ready);
      await page.evaluate(jupyter.runAll);
      out.push(await frameWhen(page, jupyter.done(1)));
    } catch (error) {
      // Now and then tslab's kernel never reads idle in Jupyter 6: that load is reported, not fatal to the run.
      if ((error as Error).name !== 'TimeoutError') throw error;
      console.log(`# Jupyter 6 + tslab: load ${i + 1} showed no first result within 60 s (left out)`);
    }
    await page.close();
    await shutdownJupyterKernels(nb);
  }
  return out;
}

async function jupyterRunAll(browser: Browser, nb: Notebook6): Promise<number[]> {
  writeFileSync(path.join(nb.dir, 'twenty.ipynb'), tslabNotebook(SMALL));
  const page = await newPage(browser);
  await page.goto(`${nb.url}notebooks/twenty.ipynb?token=${nb.token}`);
  await frameWhen(page, jupyter.ready);
  const out: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    await page.evaluate(`Jupyter.notebook.clear_all_output()`);
    const t0 = (await page.evaluate(`performance.now()`)) as number;
    await page.evaluate(jupyter.runAll);
    const t1 = await frameWhen(page, jupyter.done(20));
    if (i > 0) out.push(t1 - t0);
    // tslab aborts requests within 200 ms of an error; leave a gap so runs do not overlap it.
    await page.waitForTimeout(250);
  }
  await page.close();
  await shutdownJupyterKernels(nb);
  return out;
}

async function jupyterHeap(browser: Browser, nb: Notebook6): Promise<number[]> {
  writeFileSync(path.join(nb.dir, 'fifty.ipynb'), tslabNotebook(FIFTY));
  const out: number[] = [];
  for (let i = 0; i < 3; i++) {
    const page = await newPage(browser);
    await page.goto(`${nb.url}notebooks/fifty.ipynb?token=${nb.token}`);
    await frameWhen(page, jupyter.ready);
    await page.waitForTimeout(1000);
    out.push(await heapUsed(page));
    await page.close();
    await shutdownJupyterKernels(nb);
  }
  return out;
}

// --- kernel resident memory --------------------------------------------------------------------------------

/** A compiler snapshot directory holding the blob kernels started here in `root` use. */
async function primedCompilerSnapshots(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'nh-peers-snapshots-'));
  const target = compilerSnapshotTarget(root, kernelNodeFlags(), { ...process.env, NIGHTHAWK_COMPILER_SNAPSHOT_DIR: dir });
  if (!target || !(await buildCompilerSnapshot(target))) throw new Error('could not build the compiler snapshot');
  return dir;
}

/** A cold kernel's resident memory after `1+1` and after importing the library (MB). */
async function oursRss(snapshots: string): Promise<{ first: number; imported: number; fromBlob: boolean }> {
  const dir = await tempNotebooksDir();
  process.env['NIGHTHAWK_COMPILER_SNAPSHOT_DIR'] = snapshots;
  const server = await startServer({ notebookDir: dir, port: 0, spareKernels: 0, kernelCwd: root, hostModule: sessionHost, log: () => {} });
  const { KernelManager, ServerConnection } = await import('@jupyterlab/services');
  const WebSocket = (await import('ws')).default;
  const manager = new KernelManager({ serverSettings: ServerConnection.makeSettings({ baseUrl: server.baseUrl, wsUrl: server.wsUrl, token: server.token, appendToken: true, WebSocket: WebSocket as unknown as typeof globalThis.WebSocket, fetch,
    // The server refuses a POST without a JSON content type (CSRF); an empty body alone sends none.
    init: { headers: { 'Content-Type': 'application/json' } } }) });
  const kernel = await manager.startNew();
  await kernel.info;
  const child = (server.kernels.get(kernel.id) as unknown as { process: { child: { pid: number; spawnargs: string[] } } }).process.child;
  await kernel.requestExecute({ code: '1+1' }).done;
  await new Promise((r) => setTimeout(r, 1000));
  const first = rssMb(child.pid);
  await kernel.requestExecute({ code: NH_FIRST }).done;
  await new Promise((r) => setTimeout(r, 1000));
  const imported = rssMb(child.pid);
  await kernel.shutdown();
  manager.dispose();
  await server.close();
  return { first, imported, fromBlob: child.spawnargs.includes('--snapshot-blob') };
}

async function kernelRss(snapshots: string): Promise<void> {
  // Nothing stored by earlier kernels: this kernel builds its compiler's program, as a first visit's does.
  process.env['NIGHTHAWK_CONVERSION_CACHE_DIR'] = 'off';
  const plain = await oursRss('off');
  const fromSnapshot = await oursRss(snapshots);
  if (!fromSnapshot.fromBlob) throw new Error('the kernel did not start from the compiler snapshot');
  const oursFirst = plain.first;
  const oursImport = plain.imported;

  const tslab = await TslabZmqKernel.start(root);
  await tslab.request('kernel_info_request', {}, false);
  const exec = (code: string) => tslab.request('execute_request', { code, silent: false, store_history: true, allow_stdin: false, stop_on_error: false }, false);
  await exec('1+1');
  await new Promise((r) => setTimeout(r, 1000));
  const tslabFirst = rssMb(tslab.pid);
  await exec(ZOD_FIRST);
  await new Promise((r) => setTimeout(r, 1000));
  const tslabImport = rssMb(tslab.pid);
  tslab.close();
  console.log(`# kernel RSS after the first cell: nighthawk ${oursFirst.toFixed(1)} MB, tslab ${tslabFirst.toFixed(1)} MB; after importing the library: nighthawk ${oursImport.toFixed(1)} MB (nighthawk-ts), tslab ${tslabImport.toFixed(1)} MB (zod)`);
  report('kernel-rss-mb-after-first-cell', [oursFirst], [tslabFirst]);
  report('kernel-rss-mb-after-library-import', [oursImport], [tslabImport]);
  console.log(`# started from a compiler snapshot (a cold kernel a client waits for): ${fromSnapshot.first.toFixed(1)} MB after the first cell, ${fromSnapshot.imported.toFixed(1)} MB after importing the library`);
  report('kernel-rss-mb-after-first-cell-from-compiler-snapshot', [fromSnapshot.first], [tslabFirst]);
  report('kernel-rss-mb-after-library-import-from-compiler-snapshot', [fromSnapshot.imported], [tslabImport]);
}

async function main(): Promise<void> {
  ensureBuilt(progress);
  const staticDir = await buildWebApp();
  const browser = await launchChromium();
  const dir = await tempNotebooksDir();
  // Each server in a process of its own, as Jupyter Notebook 6 is: this process also runs Playwright's client.
  const pooledServer = await startServerProcess({ notebookDir: dir, port: 0, spareKernels: 1, kernelCwd: root, hostModule: sessionHost, staticDir });
  // Cold kernels with nothing stored, as on a first visit; and cold kernels where this notebook was run before,
  // its first cell's conversion stored by an earlier kernel (conversion-store.ts; primed by one unmeasured load).
  // "cold" kernels start from the directory's compiler snapshot (compiler-snapshot.ts; built here first, as the
  // first kernel start that misses one builds it); "cold-no-snapshot" is the first kernel ever started there.
  const snapshotDir = await primedCompilerSnapshots();
  const coldServer = await startServerProcess(
    { notebookDir: dir, port: 0, spareKernels: 0, kernelCwd: root, hostModule: sessionHost, staticDir },
    { NIGHTHAWK_CONVERSION_CACHE_DIR: 'off', NIGHTHAWK_COMPILER_SNAPSHOT_DIR: snapshotDir },
  );
  const firstEverServer = await startServerProcess(
    { notebookDir: dir, port: 0, spareKernels: 0, kernelCwd: root, hostModule: sessionHost, staticDir },
    { NIGHTHAWK_CONVERSION_CACHE_DIR: 'off', NIGHTHAWK_COMPILER_SNAPSHOT_DIR: 'off' },
  );
  const storedServer = await startServerProcess(
    { notebookDir: dir, port: 0, spareKernels: 0, kernelCwd: root, hostModule: sessionHost, staticDir },
    { NIGHTHAWK_CONVERSION_CACHE_DIR: mkdtempSync(path.join(tmpdir(), 'nh-peers-conversions-')), NIGHTHAWK_COMPILER_SNAPSHOT_DIR: 'off' },
  );
  const nb = existsSync('/usr/bin/python3') ? await startNotebook6().catch((e: unknown) => (progress(`Jupyter Notebook 6: ${String(e)}`), undefined)) : undefined;
  try {
    progress('first result: ours (pool)');
    const pool = await oursFirstResult(browser, pooledServer, dir, true);
    // The last hand-out makes the pool warm a replacement (seconds of CPU): on two cores it would otherwise
    // overlap the next figures' first loads, which measure a kernel start with nothing else running.
    await pooledServer.waitForSpare();
    progress('first result: ours (cold)');
    const cold = await oursFirstResult(browser, coldServer, dir, false);
    progress('first result: ours (cold, no compiler snapshot)');
    const firstEver = await oursFirstResult(browser, firstEverServer, dir, false);
    progress('first result: ours (cold, stored)');
    await oursFirstResult(browser, storedServer, dir, false, 1);
    const coldStored = await oursFirstResult(browser, storedServer, dir, false);
    const jFirst = nb ? (progress('first result: Jupyter 6 + tslab'), await jupyterFirstResult(browser, nb)) : undefined;
    progress('run all 20');
    const runAll = await oursRunAll(browser, pooledServer, dir);
    const jRunAll = nb ? await jupyterRunAll(browser, nb) : undefined;
    progress('heap after 50 cells');
    const heap = await oursHeap(browser, pooledServer, dir);
    const heapInUse = await oursHeap(browser, pooledServer, dir, true);
    const jHeap = nb ? await jupyterHeap(browser, nb) : undefined;
    report('web-first-result-pool-vs-jupyter6-tslab', pool, jFirst);
    report('web-first-result-cold-vs-jupyter6-tslab', cold, jFirst);
    report('web-first-result-cold-no-snapshot-vs-jupyter6-tslab', firstEver, jFirst);
    report('web-first-result-cold-stored-vs-jupyter6-tslab', coldStored, jFirst);
    report('web-run-all-20-cells-vs-jupyter6-tslab', runAll, jRunAll);
    // Megabytes, printed in the same format (the "_ms" fields hold MB here).
    report('web-heap-mb-50-cells-vs-jupyter6', heap, jHeap);
    report('web-heap-mb-50-cells-editing-vs-jupyter6', heapInUse, jHeap);
    if (!nb) console.log('# Jupyter Notebook 6 (python3-notebook 6.x) is not installed: its baselines are missing');
  } finally {
    await browser.close();
    await pooledServer.close();
    await coldServer.close();
    await firstEverServer.close();
    await storedServer.close();
    nb?.stop();
  }
  progress('kernel RSS');
  await kernelRss(snapshotDir);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
