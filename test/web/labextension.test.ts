/**
 * Issue 19.8: the JupyterLab MIME renderer extension. JupyterLab itself cannot be installed here (no
 * `jupyterlab` in Debian's archive, and PyPI is not reachable), so this checks the prebuilt bundle
 * against the @jupyterlab/rendermime-interfaces contract instead: it type-checks against the
 * interfaces, the committed bundle equals a fresh build, and in chromium the default export is an
 * IExtension whose factory makes Lumino widgets that render the run view and the ledger with the web
 * notebook's renderers.
 */
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NighthawkMime } from '../../shared/mime.js';
import { smallLedger, smallRun } from './run-ledger-fixture.js';
import { launchChromium, repoRoot } from './web-harness.js';

const bundle = path.join(repoRoot, 'labextension', 'lib', 'index.js');
let server: http.Server;
let base = '';
let browser: Browser;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/index.js') {
      void fs.readFile(bundle).then((body) => {
        res.writeHead(200, { 'content-type': 'text/javascript' });
        res.end(body);
      });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><html><body><div id="host"></div></body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe('JupyterLab MIME renderer extension (labextension/)', () => {
  it('type-checks against @jupyterlab/rendermime-interfaces', () => {
    execFileSync(process.execPath, [path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(repoRoot, 'labextension', 'tsconfig.json')], { cwd: repoRoot, stdio: 'pipe' });
  }, 120_000);

  it('the committed bundle is the build of the current sources', async () => {
    const out = await fs.mkdtemp(path.join(os.tmpdir(), 'nh-labext-'));
    const { build } = await import('vite');
    await build({ configFile: path.join(repoRoot, 'labextension', 'vite.config.ts'), logLevel: 'error', build: { outDir: out, emptyOutDir: true } });
    const fresh = await fs.readFile(path.join(out, 'index.js'), 'utf8');
    expect(fresh === (await fs.readFile(bundle, 'utf8')), 'labextension/lib/index.js is stale: run npm run build:labextension').toBe(true);
    await fs.rm(out, { recursive: true, force: true });
  }, 120_000);

  it('is an IExtension whose renderers draw the run view and the ledger, and fall back to text', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/`);
    const result = await page.evaluate(`(async () => {
      const mod = await import('/index.js');
      const ext = mod.default;
      const factory = ext.rendererFactory;
      const out = { id: ext.id, dataType: ext.dataType, safe: factory.safe, mimeTypes: factory.mimeTypes, rank: factory.defaultRank };
      const render = async (mimeType, data) => {
        const widget = factory.createRenderer({ mimeType, sanitizer: { sanitize: (s) => s }, resolver: null, linkHandler: null, latexTypesetter: null });
        const done = widget.renderModel({ trusted: false, data, metadata: {}, setData: () => {} });
        const isPromise = done instanceof Promise;
        await done;
        document.getElementById('host').appendChild(widget.node);
        return { isPromise, isWidget: typeof widget.dispose === 'function' && widget.node instanceof HTMLElement, html: widget.node.innerHTML, text: widget.node.textContent };
      };
      out.run = await render(${JSON.stringify(NighthawkMime.run)}, { ${JSON.stringify(NighthawkMime.run)}: ${JSON.stringify(smallRun())}, 'text/plain': 'run text' });
      out.ledger = await render(${JSON.stringify(NighthawkMime.ledger)}, { ${JSON.stringify(NighthawkMime.ledger)}: ${JSON.stringify(smallLedger())}, 'text/plain': 'ledger text' });
      out.bad = await render(${JSON.stringify(NighthawkMime.run)}, { ${JSON.stringify(NighthawkMime.run)}: { nonsense: true }, 'text/plain': 'fallback text' });
      out.rows = document.querySelectorAll('.nh-ledger .nh-ledger-rows .nh-ledger-row').length;
      out.ops = [...document.querySelectorAll('.nh-run [data-operation-id]')].map((e) => e.getAttribute('data-operation-id'));
      return out;
    })()`) as { id: string; dataType: string; safe: boolean; mimeTypes: string[]; rank: number; run: { isPromise: boolean; isWidget: boolean; text: string }; ledger: { isWidget: boolean }; bad: { text: string; html: string }; rows: number; ops: string[] };
    expect(result.id).toBe('nighthawk-ts-renderer:plugin');
    expect(result.dataType).toBe('json');
    expect(result.safe).toBe(true);
    expect(result.mimeTypes).toEqual(expect.arrayContaining([NighthawkMime.run, NighthawkMime.ledger]));
    expect(result.mimeTypes).not.toContain(NighthawkMime.approval);
    expect(result.run.isPromise).toBe(true);
    expect(result.run.isWidget).toBe(true);
    expect(result.ledger.isWidget).toBe(true);
    expect(result.ops).toEqual(['op_A1', 'op_A2', 'op_A3']);
    expect(result.run.text).toContain('→ 1250');
    expect(result.rows).toBe(3);
    // A payload the shared schemas reject shows its text/plain, never a blank output.
    expect(result.bad.text).toBe('fallback text');
    await page.close();
  }, 60_000);
});
