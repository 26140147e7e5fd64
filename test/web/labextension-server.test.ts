/**
 * Issue 19.8 with Debian's Jupyter server: `nighthawk-ts kernel install --prefix P --with-lab-extension`,
 * then Debian's jupyterlab_server (python3-jupyterlab-server, on jupyter_server) with P/share/jupyter on
 * JUPYTER_PATH. It finds the extension the way it does for JupyterLab (page config `federated_extensions`
 * from the installed package.json) and serves its files under /lab/extensions/. JupyterLab's own frontend
 * is not installable here (labextension/README.md), so the page template is JupyterLab's loader steps
 * (labextension-loader.ts) reading that page config; chromium renders the run view and ledger from it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fs, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NighthawkMime } from '../../shared/mime.js';
import { freePort } from '../support/free-port.js';
import { isolatedJupyterEnv } from '../support/jupyter-env.js';
import { builtCli, ensureKernelBuilt, PYTHON, run } from '../zmq/zmq-fixture.js';
import { FEDERATED_LOADER, type FederatedExtension, type Rendered } from './labextension-loader.js';
import { smallLedger, smallRun } from './run-ledger-fixture.js';
import { launchChromium, repoRoot } from './web-harness.js';

const luminoVersion = (JSON.parse(readFileSync(path.join(repoRoot, 'node_modules', '@lumino', 'widgets', 'package.json'), 'utf8')) as { version: string }).version;

// The application page jupyterlab_server renders (Jinja): its page config, then the loader.
const TEMPLATE = `<!doctype html>
<html><head><meta charset="utf-8"><title>{{page_config['appName'] | e}}</title>
<script id="jupyter-config-data" type="application/json">{{ page_config | tojson }}</script>
<script>{% raw %}${FEDERATED_LOADER}{% endraw %}</script>
</head><body><div id="host"></div></body></html>
`;

let dir = '';
let prefix = '';
let server: ChildProcess | undefined;
let log = '';
let base = '';
let token = '';
let browser: Browser;

beforeAll(async () => {
  const probe = await run(PYTHON, ['-c', 'import jupyterlab_server, jupyter_server; print(jupyterlab_server.__version__)']);
  if (probe.code !== 0) throw new Error(`Debian's python3-jupyterlab-server is missing (run scripts/ensure-system-deps.sh as root):\n${probe.stderr}`);
  ensureKernelBuilt();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'nh-labserver-'));
  prefix = path.join(dir, 'prefix');
  for (const sub of ['runtime', 'data', 'config', 'templates', 'static']) await fs.mkdir(path.join(dir, sub), { recursive: true });
  const env = isolatedJupyterEnv(dir);
  delete env['PYTHONPATH'];
  delete env['VIRTUAL_ENV'];
  const install = await run(process.execPath, [builtCli, 'kernel', 'install', '--prefix', prefix, '--with-lab-extension'], { env, cwd: repoRoot });
  if (install.code !== 0) throw new Error(`kernel install failed:\n${install.stderr}`);
  await fs.writeFile(path.join(dir, 'templates', 'index.html'), TEMPLATE);
  const { build } = await import('esbuild');
  const lumino = await build({ stdin: { contents: "export * from '@lumino/widgets';", resolveDir: repoRoot }, bundle: true, format: 'esm', write: false, logLevel: 'silent' });
  await fs.writeFile(path.join(dir, 'static', 'lumino-widgets.js'), lumino.outputFiles[0]!.text);

  const port = await freePort();
  token = randomBytes(16).toString('hex');
  const args = ['-m', 'jupyterlab_server', '--ServerApp.ip=127.0.0.1', `--ServerApp.port=${port}`, '--ServerApp.port_retries=0', `--ServerApp.token=${token}`, '--ServerApp.open_browser=False', `--ServerApp.root_dir=${dir}`, `--LabServerApp.templates_dir=${path.join(dir, 'templates')}`, `--LabServerApp.static_dir=${path.join(dir, 'static')}`];
  if (process.getuid?.() === 0) args.push('--allow-root');
  const child = spawn(PYTHON, args, { env, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  server = child;
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      log += chunk.toString();
      if (/is running at/.test(log)) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`jupyterlab_server exited (${code}) before serving:\n${log}`)));
  });
  base = `http://127.0.0.1:${port}`;
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  if (dir) await fs.rm(dir, { recursive: true, force: true });
}, 30_000);

describe("Debian's jupyterlab_server serves the installed extension to a page that loads it like JupyterLab", () => {
  it('lists it in the page config, serves its remoteEntry, and the loaded renderer draws the run view and the ledger', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    const fetched: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('response', (r) => fetched.push(`${r.status()} ${new URL(r.url()).pathname}`));
    const response = await page.goto(`${base}/lab?token=${token}`);
    expect(response?.status()).toBe(200);
    const config = (await page.evaluate(`JSON.parse(document.getElementById('jupyter-config-data').textContent)`)) as {
      federated_extensions: FederatedExtension[];
      fullLabextensionsUrl: string;
      fullStaticUrl: string;
    };
    const installed = JSON.parse(await fs.readFile(path.join(prefix, 'share', 'jupyter', 'labextensions', 'nighthawk-ts-renderer', 'package.json'), 'utf8')) as { jupyterlab: { _build: { load: string } } };
    const ext = config.federated_extensions.find((e) => e.name === 'nighthawk-ts-renderer');
    expect(ext, `page config federated_extensions: ${JSON.stringify(config.federated_extensions)}\n${log}`).toEqual({ name: 'nighthawk-ts-renderer', load: installed.jupyterlab._build.load, mimeExtension: './mimeExtension', style: './style' });

    await page.evaluate(`window.nhLoadFederated(${JSON.stringify({ ext, extensionsUrl: config.fullLabextensionsUrl, luminoUrl: `${config.fullStaticUrl}/lumino-widgets.js`, luminoVersion, shareLumino: true })})`);
    const render = async (mimeType: string, data: Record<string, unknown>) =>
      (await page.evaluate(`window.nhRender(${JSON.stringify({ mimeExtension: ext!.mimeExtension, style: ext!.style, mimeType, data })})`)) as Rendered;
    const run = await render(NighthawkMime.run, { [NighthawkMime.run]: smallRun(), 'text/plain': 'run text' });
    expect(run).toMatchObject({ isPromise: true, pageWidget: true, attached: true });
    expect(run.text).toContain('→ 1250');
    await render(NighthawkMime.ledger, { [NighthawkMime.ledger]: smallLedger(), 'text/plain': 'ledger text' });
    const dom = (await page.evaluate(`({
      ops: [...document.querySelectorAll('.nh-lab-output .nh-run [data-operation-id]')].map((e) => e.getAttribute('data-operation-id')),
      rows: document.querySelectorAll('.nh-lab-output .nh-ledger .nh-ledger-rows .nh-ledger-row').length,
      styled: getComputedStyle(document.querySelector('.nh-run')).borderTopStyle,
    })`)) as { ops: string[]; rows: number; styled: string };
    expect(dom).toEqual({ ops: ['op_A1', 'op_A2', 'op_A3'], rows: 3, styled: 'solid' });
    // The remoteEntry and its chunks came from jupyterlab_server's labextensions handler.
    const served = fetched.filter((f) => f.includes('/lab/extensions/nighthawk-ts-renderer/static/'));
    expect(served).toContain(`200 /lab/extensions/nighthawk-ts-renderer/${installed.jupyterlab._build.load}`);
    expect(served.length).toBeGreaterThan(2);
    expect(served.every((f) => f.startsWith('200 '))).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
