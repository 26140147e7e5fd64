/**
 * Shared setup for the web notebook's browser tests: builds web/ once per source version (cached, so
 * parallel test files share one build), launches Debian's chromium through playwright-core, and writes
 * screenshots to artifacts/web/.
 */
import { createHash } from 'node:crypto';
import { existsSync, promises as fs, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startServer, type NighthawkServer } from '../../kernel/src/server/index.js';
import { ensureBuilt, sessionHostModule } from '../support/kernel-server.js';
import { startFakeJupyterServer, type FakeJupyterServer, type KernelScript } from '../support/web-fake-jupyter-server.js';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const CHROMIUM = '/usr/bin/chromium';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const abs = path.join(dir, name);
    if (name === 'dist' || name === 'node_modules') return [];
    return statSync(abs).isDirectory() ? sourceFiles(abs) : [abs];
  });
}

function sourceHash(): string {
  const hash = createHash('sha256');
  const files = [...sourceFiles(path.join(repoRoot, 'web')), ...sourceFiles(path.join(repoRoot, 'shared')), path.join(repoRoot, 'vite.config.ts')].sort();
  for (const file of files) hash.update(file).update(readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

/** Builds the web app with Vite (once per source hash) and returns the directory to serve. */
export async function buildWebApp(): Promise<string> {
  const cacheRoot = path.join(repoRoot, 'node_modules', '.cache', 'nighthawk-web-test');
  const outDir = path.join(cacheRoot, sourceHash());
  if (existsSync(path.join(outDir, 'index.html'))) return outDir;
  await fs.mkdir(cacheRoot, { recursive: true });
  const tmp = await fs.mkdtemp(path.join(cacheRoot, 'build-'));
  const { build } = await import('vite');
  await build({ configFile: path.join(repoRoot, 'vite.config.ts'), root: path.join(repoRoot, 'web'), logLevel: 'error', build: { outDir: tmp, emptyOutDir: true } });
  // Another test file may have finished the same build first; either copy is identical.
  await fs.rename(tmp, outDir).catch(async () => fs.rm(tmp, { recursive: true, force: true }));
  return outDir;
}

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run scripts/ensure-system-deps.sh (apt install chromium)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = path.join(repoRoot, 'artifacts', 'web');
  await fs.mkdir(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: false });
}

export async function tempNotebooksDir(): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), 'nighthawk-web-'));
}

/** A notebook file with the given code cells (and an optional leading markdown cell); a code cell may bring saved outputs (nbformat). */
export function notebookJson(cells: Array<{ type?: 'code' | 'markdown'; source: string; outputs?: object[] }>): string {
  return JSON.stringify({
    nbformat: 4,
    nbformat_minor: 5,
    metadata: { kernelspec: { name: 'nighthawk', display_name: 'Nighthawk TypeScript', language: 'typescript' } },
    cells: cells.map((c, i) => ({
      id: `cell-${i}`,
      cell_type: c.type ?? 'code',
      metadata: {},
      source: c.source,
      ...(c.type === 'markdown' ? {} : { execution_count: null, outputs: c.outputs ?? [] }),
    })),
  });
}

/**
 * Opens the app and waits until the notebook is loaded and the kernel answers. The page loads Monaco at the
 * first sign of use (monaco-loader.ts): unless `untouched`, the pointer moves and Monaco is waited for, as
 * for someone at the page; `untouched` leaves the page as only looked at (static code, no Monaco).
 */
export async function openNotebook(page: Page, baseUrl: string, token: string, notebookPath?: string, options: { untouched?: boolean } = {}): Promise<void> {
  const query = new URLSearchParams({ token, ...(notebookPath ? { path: notebookPath } : {}) });
  await page.goto(`${baseUrl}/?${query.toString()}`);
  await page.locator('body[data-ready="true"]').waitFor();
  await page.locator('.kernel-status[data-status="idle"]').waitFor();
  if (options.untouched) return;
  await page.mouse.move(2, 2);
  await page.locator('body[data-monaco="loaded"]').waitFor({ state: 'attached' });
}

export type NotebookCells = Parameters<typeof notebookJson>[0];

export interface FakeNotebookSuite {
  readonly server: FakeJupyterServer;
  readonly browser: Browser;
  /** The notebooks directory the scripted server serves. */
  readonly dir: string;
}

/**
 * Registers the shared setup of a browser suite against the scripted Jupyter server: the built app,
 * a temporary notebooks directory holding `notebooks`, the server running `script`, and chromium.
 */
export function fakeNotebookSuite(options: { token: string; notebooks: Record<string, NotebookCells>; script?: KernelScript; slowFirstListsMs?: number; v1Protocol?: boolean; kernelName?: string }): FakeNotebookSuite {
  let server: FakeJupyterServer | undefined;
  let browser: Browser | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    const [staticDir, notebooksDir] = await Promise.all([buildWebApp(), tempNotebooksDir()]);
    for (const [name, cells] of Object.entries(options.notebooks)) await fs.writeFile(path.join(notebooksDir, name), notebookJson(cells));
    dir = notebooksDir;
    server = await startFakeJupyterServer({ token: options.token, notebooksDir, staticDir, script: options.script ?? (() => {}), slowFirstListsMs: options.slowFirstListsMs, v1Protocol: options.v1Protocol, kernelName: options.kernelName });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  return {
    get server() {
      return server!;
    },
    get browser() {
      return browser!;
    },
    get dir() {
      return dir!;
    },
  };
}

export interface RealNotebookSuite {
  readonly server: NighthawkServer;
  readonly browser: Browser;
  readonly notebookDir: string;
  /** The server's base URL without its trailing slash, as openNotebook takes it. */
  readonly base: string;
}

/**
 * Registers the shared setup of a browser suite against the real server with the notebook's Session kernel
 * host (the built library): the built app, a temporary notebooks directory holding `notebooks`, chromium.
 */
export function realNotebookSuite(options: { notebooks: Record<string, NotebookCells> }): RealNotebookSuite {
  let server: NighthawkServer | undefined;
  let browser: Browser | undefined;
  let sandbox: string | undefined;
  beforeAll(async () => {
    ensureBuilt();
    const staticDir = await buildWebApp();
    sandbox = await fs.mkdtemp(path.join(os.tmpdir(), 'nighthawk-web-real-'));
    const notebookDir = path.join(sandbox, 'notebooks');
    await fs.mkdir(notebookDir);
    for (const [name, cells] of Object.entries(options.notebooks)) await fs.writeFile(path.join(notebookDir, name), notebookJson(cells));
    server = await startServer({ notebookDir, port: 0, staticDir, hostModule: sessionHostModule, kernelCwd: repoRoot, spareKernels: 0, log: () => {} });
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (sandbox) await fs.rm(sandbox, { recursive: true, force: true });
  });
  return {
    get server() {
      return server!;
    },
    get browser() {
      return browser!;
    },
    get notebookDir() {
      return path.join(sandbox!, 'notebooks');
    },
    get base() {
      return server!.baseUrl.replace(/\/$/, '');
    },
  };
}
