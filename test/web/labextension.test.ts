/**
 * Issue 19.8: the JupyterLab renderer extension, prebuilt in JupyterLab 4's module-federation format.
 * JupyterLab itself cannot be installed here (see labextension/README.md), so this does what its page
 * loader does, in chromium: serve the *installed* extension folder at /lab/extensions/<name>/, load the
 * remoteEntry named by `jupyterlab._build.load`, `init` the container with a share scope providing the
 * real @lumino/widgets, `get` the style and mimeExtension modules, and render the run view and the ledger
 * through the extension's renderer factory, under JupyterLab's light and dark theme variables.
 */
import { execFileSync } from 'node:child_process';
import { promises as fs, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installLabExtension, LAB_EXTENSION_NAME } from '../../kernel/src/server/zmq/index.js';
import { NighthawkMime } from '../../shared/mime.js';
import { FEDERATED_LOADER, type FederatedExtension, type Rendered } from './labextension-loader.js';
import { smallLedger, smallRun } from './run-ledger-fixture.js';
import { launchChromium, repoRoot } from './web-harness.js';

const prebuilt = path.join(repoRoot, 'labextension', 'prebuilt');
const luminoVersion = (JSON.parse(readFileSync(path.join(repoRoot, 'node_modules', '@lumino', 'widgets', 'package.json'), 'utf8')) as { version: string }).version;

let tmp = '';
let installed = '';
let federated: FederatedExtension;
let server: http.Server;
let base = '';
let browser: Browser;

/** What jupyterlab_server puts in the page config for a federated extension (from its package.json). */
function federatedEntry(dir: string): FederatedExtension {
  const meta = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name: string; jupyterlab: { _build: { load: string; mimeExtension?: string; style?: string } } };
  const { load, mimeExtension, style } = meta.jupyterlab._build;
  return { name: meta.name, load, mimeExtension, style };
}

async function files(dir: string, prefix = ''): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((e) => (e.isDirectory() ? files(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`])));
  return nested.flat().sort();
}

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'nh-labext-'));
  await fs.mkdir(path.join(repoRoot, 'artifacts', 'web'), { recursive: true });
  installed = installLabExtension({ kind: 'prefix', prefix: tmp });
  federated = federatedEntry(installed);
  const { build } = await import('esbuild');
  // The page's own @lumino/widgets, as JupyterLab's page would share it.
  const lumino = await build({ stdin: { contents: "export * from '@lumino/widgets';", resolveDir: repoRoot }, bundle: true, format: 'esm', write: false, logLevel: 'silent' });
  const luminoJs = lumino.outputFiles[0]!.text;
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const prefix = `/lab/extensions/${LAB_EXTENSION_NAME}/`;
    if (url.pathname.startsWith(prefix)) {
      const file = path.resolve(installed, decodeURIComponent(url.pathname.slice(prefix.length)));
      if (!file.startsWith(installed + path.sep)) return void res.writeHead(403).end();
      void fs.readFile(file).then(
        (body) => res.writeHead(200, { 'content-type': file.endsWith('.js') ? 'text/javascript' : 'application/octet-stream' }).end(body),
        () => res.writeHead(404).end(),
      );
      return;
    }
    if (url.pathname === '/lumino-widgets.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(luminoJs);
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html><head><style id="jp-theme"></style></head><body><div id="host"></div></body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  if (tmp) await fs.rm(tmp, { recursive: true, force: true });
});

/** Opens the test page and runs JupyterLab's loader steps; `shareLumino` false gives an empty share scope. */
async function loadExtension(page: Page, shareLumino: boolean): Promise<void> {
  await page.goto(`${base}/`);
  await page.addScriptTag({ content: FEDERATED_LOADER });
  await page.evaluate(`window.nhLoadFederated(${JSON.stringify({ ext: federated, extensionsUrl: '/lab/extensions', luminoUrl: '/lumino-widgets.js', luminoVersion, shareLumino })})`);
}

async function render(page: Page, mimeType: string, data: Record<string, unknown>): Promise<Rendered> {
  return (await page.evaluate(`window.nhRender(${JSON.stringify({ mimeExtension: federated.mimeExtension, style: federated.style, mimeType, data })})`)) as Rendered;
}

// JupyterLab 4's theme values for the variables the renderer maps (theme-light / theme-dark variables.css).
const JP_LIGHT = {
  '--jp-layout-color0': '#ffffff', '--jp-layout-color2': '#eeeeee', '--jp-cell-editor-background': '#f5f5f5',
  '--jp-content-font-color1': 'rgba(0, 0, 0, 0.87)', '--jp-content-font-color2': 'rgba(0, 0, 0, 0.54)', '--jp-border-color2': '#e0e0e0',
  '--jp-brand-color1': '#1976d2', '--jp-success-color1': '#388e3c', '--jp-error-color1': '#d32f2f', '--jp-warn-color1': '#f57c00', '--jp-info-color1': '#0097a7',
};
const JP_DARK = {
  '--jp-layout-color0': '#111111', '--jp-layout-color2': '#424242', '--jp-cell-editor-background': '#212121',
  '--jp-content-font-color1': 'rgba(255, 255, 255, 1)', '--jp-content-font-color2': 'rgba(255, 255, 255, 0.7)', '--jp-border-color2': '#424242',
  '--jp-brand-color1': '#2196f3', '--jp-success-color1': '#4caf50', '--jp-error-color1': '#f44336', '--jp-warn-color1': '#ff9800', '--jp-info-color1': '#00bcd4',
};

interface Colours {
  runBg: number[];
  runBorder: number[];
  text: number[];
  soft: number[];
  badge: number[];
  badgeBg: number[];
  rejectedBorder: number[];
  ledgerHeader: number[];
  expected: Record<string, number[]>;
}

/** Computed colours of the rendered views, as RGBA bytes (a canvas normalises rgb(), color(srgb …) and names). */
async function colours(page: Page, theme: Record<string, string> | undefined): Promise<Colours> {
  return (await page.evaluate(`(({ theme }) => {
    document.getElementById('jp-theme').textContent = theme ? ':root {' + Object.entries(theme).map(([k, v]) => k + ': ' + v + ';').join(' ') + '}' : '';
    const ctx = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
    const rgba = (css) => { ctx.clearRect(0, 0, 1, 1); ctx.fillStyle = '#000'; ctx.fillStyle = css; ctx.fillRect(0, 0, 1, 1); return [...ctx.getImageData(0, 0, 1, 1).data]; };
    const cs = (sel) => getComputedStyle(document.querySelector(sel));
    const expected = {};
    for (const [k, v] of Object.entries(theme ?? {})) expected[k] = rgba(v);
    return {
      runBg: rgba(cs('.nh-run').backgroundColor),
      runBorder: rgba(cs('.nh-run').borderTopColor),
      text: rgba(cs('.nh-lab-output').color),
      soft: rgba(cs('.nh-run .nh-op-kind').color),
      badge: rgba(cs('.nh-run .nh-status-completed').color),
      badgeBg: rgba(cs('.nh-run .nh-status-completed').backgroundColor),
      rejectedBorder: rgba(cs('.nh-op-rejected').borderLeftColor),
      ledgerHeader: rgba(cs('.nh-ledger-header').color),
      expected,
    };
  })(${JSON.stringify({ theme })})`)) as Colours;
}

/** WCAG contrast of `fg` (alpha-blended) over an opaque `bg`. */
function contrast(fg: number[], bg: number[]): number {
  const a = fg[3]! / 255;
  const blended = [0, 1, 2].map((i) => fg[i]! * a + bg[i]! * (1 - a));
  const lum = (c: number[]) => {
    const [r, g, b] = c.map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const [hi, lo] = [lum(blended), lum(bg)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe('JupyterLab renderer extension (labextension/)', () => {
  it('type-checks against @jupyterlab/rendermime-interfaces (and its build scripts under strict Node types)', () => {
    const tsc = path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
    for (const project of ['labextension/tsconfig.json', 'labextension/scripts/tsconfig.json']) execFileSync(process.execPath, [tsc, '-p', path.join(repoRoot, project)], { cwd: repoRoot, stdio: 'pipe' });
  }, 120_000);

  it('the committed prebuilt/ is byte for byte the build of the current sources (npm run build:labextension)', async () => {
    const out = path.join(tmp, 'fresh');
    const { buildLabExtension } = await import('../../labextension/scripts/build.js');
    await buildLabExtension(out);
    const [fresh, committed] = [await files(out), await files(prebuilt)];
    const stale = 'labextension/prebuilt is stale: run npm run build:labextension and commit it';
    expect(committed, stale).toEqual(fresh);
    for (const file of fresh) expect((await fs.readFile(path.join(out, file))).equals(await fs.readFile(path.join(prebuilt, file))), `${file}: ${stale}`).toBe(true);
  }, 180_000);

  it('is in the federated format JupyterLab 4 loads: _build metadata, a hashed remoteEntry, Lumino shared and not bundled', async () => {
    expect(federated).toEqual({ name: 'nighthawk-ts-renderer', load: expect.stringMatching(/^static\/remoteEntry\.[0-9a-f]{20}\.js$/), mimeExtension: './mimeExtension', style: './style' });
    const entry = await fs.readFile(path.join(installed, federated.load), 'utf8');
    // The container registers itself as window._JUPYTERLAB[name] (JupyterLab's library convention).
    expect(entry).toContain('_JUPYTERLAB');
    const licences = JSON.parse(await fs.readFile(path.join(installed, 'static', 'third-party-licenses.json'), 'utf8')) as { packages: Array<{ name: string }> };
    expect(licences.packages.map((p) => p.name)).not.toContain('@lumino/widgets');
    expect(licences.packages.map((p) => p.name)).toEqual(expect.arrayContaining(['marked', 'dompurify', 'zod']));
  });

  it('loads like JupyterLab loads it and renders the run view and the ledger with the page\'s @lumino/widgets', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await loadExtension(page, true);
    const meta = (await page.evaluate(`(async () => {
      const mod = await window.nhModule(${JSON.stringify(federated.mimeExtension)});
      const ext = mod.default;
      return { id: ext.id, dataType: ext.dataType, safe: ext.rendererFactory.safe, mimeTypes: ext.rendererFactory.mimeTypes, rank: ext.rendererFactory.defaultRank };
    })()`)) as { id: string; dataType: string; safe: boolean; mimeTypes: string[]; rank: number };
    expect(meta).toMatchObject({ id: 'nighthawk-ts-renderer:plugin', dataType: 'json', safe: true });
    expect(meta.mimeTypes).toEqual(expect.arrayContaining([NighthawkMime.run, NighthawkMime.ledger]));
    expect(meta.mimeTypes).not.toContain(NighthawkMime.approval);

    const run = await render(page, NighthawkMime.run, { [NighthawkMime.run]: smallRun(), 'text/plain': 'run text' });
    expect(run).toMatchObject({ isPromise: true, pageWidget: true, attached: true });
    expect(run.className).toContain('nh-lab-output');
    expect(run.text).toContain('→ 1250');
    const ops = await page.evaluate(`[...document.querySelectorAll('.nh-lab-output .nh-run [data-operation-id]')].map((e) => e.getAttribute('data-operation-id'))`);
    expect(ops).toEqual(['op_A1', 'op_A2', 'op_A3']);

    const ledger = await render(page, NighthawkMime.ledger, { [NighthawkMime.ledger]: smallLedger(), 'text/plain': 'ledger text' });
    expect(ledger).toMatchObject({ pageWidget: true, attached: true });
    expect(await page.evaluate(`document.querySelectorAll('.nh-lab-output .nh-ledger .nh-ledger-rows .nh-ledger-row').length`)).toBe(3);

    // A payload the shared schemas reject shows its text/plain, never a blank output.
    const bad = await render(page, NighthawkMime.run, { [NighthawkMime.run]: { nonsense: true }, 'text/plain': 'fallback text' });
    expect(bad.text).toBe('fallback text');
    // The style module injected the extension's stylesheet (scoped renderer rules).
    expect(await page.evaluate(`[...document.querySelectorAll('style')].some((s) => s.textContent.includes('.nh-lab-output .nh-run'))`)).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('brings no Lumino of its own: with an empty share scope the mimeExtension module cannot load', async () => {
    const page = await browser.newPage();
    await loadExtension(page, false);
    const failure = await page.evaluate(`window.nhModule(${JSON.stringify(federated.mimeExtension)}).then(() => 'loaded', (e) => String(e && e.message))`);
    expect(failure).not.toBe('loaded');
    expect(failure).toContain('@lumino/widgets');
    await page.close();
  }, 60_000);

  it('takes its colours from JupyterLab\'s theme variables: readable in light and dark, the web notebook\'s palette without them', async () => {
    const page = await browser.newPage();
    await loadExtension(page, true);
    await render(page, NighthawkMime.run, { [NighthawkMime.run]: smallRun(), 'text/plain': 'run' });
    await render(page, NighthawkMime.ledger, { [NighthawkMime.ledger]: smallLedger(), 'text/plain': 'ledger' });
    for (const [name, theme] of [['light', JP_LIGHT], ['dark', JP_DARK]] as const) {
      const c = await colours(page, theme);
      const jp = c.expected;
      expect(c.runBg, name).toEqual(jp['--jp-layout-color0']);
      expect(c.runBorder, name).toEqual(jp['--jp-border-color2']);
      expect(c.text, name).toEqual(jp['--jp-content-font-color1']);
      expect(c.soft, name).toEqual(jp['--jp-content-font-color2']);
      expect(c.ledgerHeader, name).toEqual(jp['--jp-content-font-color2']);
      expect(c.badge, name).toEqual(jp['--jp-success-color1']);
      expect(c.rejectedBorder, name).toEqual(jp['--jp-error-color1']);
      // State backgrounds are tints of the page background, so badges stay readable in both themes.
      expect(c.badgeBg, name).not.toEqual(c.runBg);
      expect(contrast(c.text, c.runBg), `${name}: body text`).toBeGreaterThan(7);
      expect(contrast(c.soft, c.runBg), `${name}: secondary text`).toBeGreaterThan(4.5);
      expect(contrast(c.badge, c.badgeBg), `${name}: status badge`).toBeGreaterThan(3);
      await page.screenshot({ path: path.join(repoRoot, 'artifacts', 'web', `labextension-${name}.png`) });
    }
    // Outside JupyterLab (no --jp-* variables) the fallbacks are the web notebook's light palette.
    const plain = await colours(page, undefined);
    expect(plain.runBg).toEqual([255, 255, 255, 255]);
    expect(plain.badge).toEqual([0x16, 0x6c, 0x2e, 255]);
    expect(plain.text).toEqual([0x1c, 0x21, 0x28, 255]);
    await page.close();
  }, 60_000);
});
