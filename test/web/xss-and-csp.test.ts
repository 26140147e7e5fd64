import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startServer, type NighthawkServer } from '../../kernel/src/server/index.js';
import { buildWebApp, launchChromium, notebookJson, openNotebook, screenshot } from './web-harness.js';

// Untrusted notebook content: every vector tries to call xss(n) (or alert, or navigate). Rendered by the
// built app, served by the real server (with its Content-Security-Policy), in chromium.
const HTML_VECTORS: string[] = [
  '<img src=x onerror="xss(1)">',
  '<svg><a><animate attributeName="href" values="javascript:xss(2)"/><text x="10" y="20">animate-href</text></a></svg>',
  '<svg><a><set attributeName="href" to="javascript:xss(3)"/><text x="10" y="20">set-href</text></a></svg>',
  '<svg><a xlink:href="javascript:xss(4)"><text x="10" y="20">xlink-href</text></a></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror="xss(5)"></style></mglyph></table></mtext></math>',
  '<form><math><mtext></form><form><mglyph><style></math><img src onerror=xss(6)>',
  '<math><mtext><h1><a><h6></a></h6><mglyph><svg><mtext><style><a title="</style><img src onerror=xss(7)>"></style></svg></mglyph></h1></mtext></math>',
  '<noscript><p title="</noscript><img src=x onerror=xss(8)>"></noscript>',
  '<a href="javascript:xss(9)">js-link</a>',
  '<a href="  jav&#x09;ascript:xss(10)">js-link-tab</a>',
  '<a href="JaVaScRiPt&colon;xss(11)">js-link-entity</a>',
  '<a href="data:text/html,<script>xss(12)</script>">data-link</a>',
  '<iframe srcdoc="<script>parent.xss(13)</script>"></iframe>',
  '<div srcdoc="<script>parent.xss(14)</script>">srcdoc-attr</div>',
  '<base href="javascript:xss(15)//"><a href="relative">after-base</a>',
  '<object data="javascript:xss(16)"></object><embed src="javascript:xss(17)">',
  '<form action="javascript:xss(18)"><button>form</button></form><button formaction="javascript:xss(19)">fa</button>',
  '<svg><script>xss(20)</script></svg><svg onload="xss(21)"></svg>',
  '<details open ontoggle="xss(22)"><summary>d</summary></details>',
  '<meta http-equiv="refresh" content="0;url=javascript:xss(23)">',
  '<video><source onerror="xss(24)"></video><audio src=x onerror="xss(25)"></audio>',
  '<input autofocus onfocus="xss(26)">',
  '<img srcset="javascript:xss(27) 1x"><map><area href="javascript:xss(28)" shape="default"></map>',
  '<svg><use href="data:image/svg+xml;base64,PHN2ZyBpZD0neCcgeG1sbnM9J2h0dHA6Ly93d3cudzMub3JnLzIwMDAvc3ZnJz48aW1hZ2UgaHJlZj0neCcgb25lcnJvcj0neHNzKDI5KScvPjwvc3ZnPg==#x"/></svg>',
  '<math href="javascript:xss(30)"><mi>math-href</mi></math>',
  '<svg><foreignObject><iframe srcdoc="&lt;script&gt;parent.xss(31)&lt;/script&gt;"></iframe></foreignObject></svg>',
  '<template><script>xss(32)</script></template><script>xss(33)</script>',
  '<style>@import "javascript:xss(34)"; body{background:url("javascript:xss(35)")}</style>',
  '<svg><animate onbegin="xss(36)" attributeName="x" dur="1s"/></svg>',
  '<a href="vbscript:xss(37)">vb</a><img src="data:image/svg+xml,<svg onload=xss(38)>">',
  '<svg><a><animate attributeName="xlink:href" begin="0" values="javascript:xss(39)"/><text x="10" y="20">animate-xlink</text></a></svg>',
  '<link rel="import" href="javascript:xss(40)"><link rel=stylesheet href="javascript:xss(41)">',
  '<object data="data:text/html,<script>parent.xss(42)</script>"></object>',
  '<body onload="xss(43)"><img src="x" onerror="xss(44)"//',
];

const SVG_OUTPUT = '<svg xmlns="http://www.w3.org/2000/svg" onload="xss(50)"><script>xss(51)</script><a href="javascript:xss(52)"><text y="20">svg-output</text></a></svg>';
const MARKDOWN = '[md-link](javascript:xss(60)) <img src=x onerror="xss(61)"> <a href="javascript:xss(62)">raw</a>\n\n<iframe srcdoc="<script>parent.xss(63)</script>"></iframe>';

/**
 * Model HTML that does not run script but tries to deceive: a fixed, full-viewport box painted over
 * everything (over an approval card below, say) and taking its clicks, elements named like the app's own
 * (`toast`, `app`), and links that would navigate the notebook tab itself (SVG <a>, image-map <area>).
 */
const OVERLAY = '<div id="toast" style="position:fixed;top:0;left:0;width:100vw;height:100vh;z-index:2147483647;background:rgb(255,0,0)">Approve: read the order status</div>';
const CLOBBER = '<a id="app" name="app" href="#x">app</a><p id="notebook">notebook</p>';
const NAVIGATING = '<svg width="120" height="30"><a href="https://example.invalid/svg-link"><text x="5" y="20">svg-link</text></a></svg>' +
  '<map name="m"><area href="https://example.invalid/area-link" shape="default"></map><img usemap="#m" alt="area-link" width="80" height="20" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">';

const htmlOutput = (v: string) => ({ output_type: 'display_data', data: { 'text/html': v }, metadata: {} });
const notebookOf = (cells: unknown[]): string =>
  JSON.stringify({ nbformat: 4, nbformat_minor: 5, metadata: { kernelspec: { name: 'nighthawk', display_name: 'Nighthawk TS', language: 'typescript' } }, cells });

function deceivingNotebook(): string {
  return notebookOf([
    { id: 'model', cell_type: 'code', metadata: {}, source: '// model output', execution_count: 1, outputs: [htmlOutput(OVERLAY), htmlOutput(CLOBBER), htmlOutput(NAVIGATING)] },
    { id: 'md', cell_type: 'markdown', metadata: {}, source: `<div style="position:fixed;bottom:0;left:0;width:100vw;height:50vh;background:rgb(0,0,255)">markdown overlay</div>` },
    { id: 'below', cell_type: 'code', metadata: {}, source: '// the real card would be here', execution_count: 2, outputs: [{ output_type: 'stream', name: 'stdout', text: 'REAL OUTPUT BELOW\n' }] },
  ]);
}

function notebookWithOutputs(): string {
  const cell = (i: number, outputs: unknown[]) => ({ id: `x${i}`, cell_type: 'code', metadata: {}, source: `// vector ${i}`, execution_count: i + 1, outputs });
  return notebookOf([
    { id: 'md', cell_type: 'markdown', metadata: {}, source: MARKDOWN },
    cell(0, HTML_VECTORS.map(htmlOutput)),
    cell(1, [{ output_type: 'display_data', data: { 'image/svg+xml': SVG_OUTPUT }, metadata: {} }]),
    cell(2, [{ output_type: 'execute_result', execution_count: 3, data: { 'text/markdown': MARKDOWN, 'text/plain': 'md' }, metadata: {} }]),
    { id: 'run', cell_type: 'code', metadata: {}, source: '1 + 1', execution_count: null, outputs: [] },
  ]);
}

describe('untrusted HTML/SVG outputs under the Content-Security-Policy', () => {
  let server: NighthawkServer;
  let browser: Browser;
  let sandbox: string;

  beforeAll(async () => {
    const staticDir = await buildWebApp();
    sandbox = mkdtempSync(path.join(os.tmpdir(), 'nighthawk-xss-'));
    const notebookDir = path.join(sandbox, 'notebooks');
    server = await startServer({ notebookDir, port: 0, staticDir, spareKernels: 0, log: () => {} });
    writeFileSync(path.join(notebookDir, 'xss.ipynb'), notebookWithOutputs());
    writeFileSync(path.join(notebookDir, 'deceive.ipynb'), deceivingNotebook());
    writeFileSync(path.join(notebookDir, 'clean.ipynb'), notebookJson([{ type: 'markdown', source: '# Clean *markdown*' }, { source: 'const shown = "<b>html</b>";\n1 + 1' }]));
    browser = await launchChromium();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (sandbox) rmSync(sandbox, { recursive: true, force: true });
  });

  async function instrumented(): Promise<{ page: Page; dialogs: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    // Strings run in the page (this file is type-checked without the DOM library).
    await page.addInitScript(`
      window.__xss = [];
      window.__violations = [];
      window.xss = (n) => window.__xss.push(n);
      document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.effectiveDirective + ' ' + e.blockedURI));
    `);
    return { page, dialogs };
  }

  it('serves the app with a strict CSP, and the app (Monaco and its worker, the kernel WebSocket) works under it', { timeout: 120_000 }, async () => {
    const { page } = await instrumented();
    const response = await page.goto(`${server.baseUrl}?token=${server.token}`);
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(csp).not.toMatch(/'unsafe-eval'/);
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    // One inline script is allowed, by its hash: the page's first requests, inlined by the build.
    const scriptSrc = csp.split(';').map((d) => d.trim()).find((d) => d.startsWith('script-src')) ?? '';
    const inline = [...(await response!.text()).matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(inline).toHaveLength(1);
    expect(scriptSrc).toBe(`script-src 'self' 'sha256-${createHash('sha256').update(inline[0]!).digest('base64')}'`);
    await page.close();

    const run = await instrumented();
    await openNotebook(run.page, server.baseUrl.replace(/\/$/, ''), server.token, 'clean.ipynb');
    await run.page.locator('.monaco-editor').first().waitFor();
    await run.page.getByRole('button', { name: 'Run all cells' }).click();
    await run.page.locator('.cell').last().locator('.output-execute_result', { hasText: '2' }).waitFor();
    // Monaco's editor worker (a separate same-origin script, see the Vite build) starts and runs under the CSP.
    const workerStarted = run.page.waitForEvent('worker', { timeout: 20_000 });
    await run.page.evaluate(`self.MonacoEnvironment.getWorker('csp-check', 'editorWorkerService')`);
    const worker = await workerStarted;
    expect(worker.url()).toMatch(/\/assets\/editor\.worker-[\w-]+\.js$/);
    expect(await worker.evaluate('typeof self.postMessage')).toBe('function');
    await screenshot(run.page, 'csp-app-works');
    const violations = (await run.page.evaluate('window.__violations')) as string[];
    // Nothing the app itself does is blocked (inline output scripts are removed before the CSP sees them).
    expect(violations).toEqual([]);
    await run.page.close();
  });

  it('renders the XSS corpus inert: no script runs, nothing dangerous reaches the DOM, clicking every link does nothing', { timeout: 120_000 }, async () => {
    const { page, dialogs } = await instrumented();
    await openNotebook(page, server.baseUrl.replace(/\/$/, ''), server.token, 'xss.ipynb');
    await page.locator('.output-html').nth(HTML_VECTORS.length - 1).waitFor({ state: 'attached' });
    await page.waitForTimeout(1500); // SVG animations and media errors fire asynchronously
    const outputs = page.locator('.output-html, .output-markdown, .markdown-body, [data-mime="image/svg+xml"]');
    const dom = await outputs.evaluateAll((els) => {
      const found: string[] = [];
      for (const root of els) {
        for (const el of [root, ...root.querySelectorAll('*')]) {
          const tag = el.tagName.toLowerCase();
          if (['script', 'iframe', 'object', 'embed', 'base', 'meta', 'link', 'style', 'form', 'frame', 'template'].includes(tag)) found.push(`<${tag}>`);
          for (const attr of el.attributes) {
            const name = attr.name.toLowerCase();
            const value = attr.value.replace(/[\s\u0000-\u001f]/g, '').toLowerCase();
            if (name.startsWith('on')) found.push(`${tag}[${name}]`);
            if (name === 'srcdoc' || name === 'formaction' || name === 'action') found.push(`${tag}[${name}]`);
            if (/^(javascript|vbscript):|^data:text\/html/.test(value)) found.push(`${tag}[${name}=${attr.value}]`);
            if (name === 'attributename' && /href|^on/.test(value)) found.push(`${tag}[attributeName=${attr.value}]`);
            if (name === 'src' && /^data:image\/svg/.test(value) && tag !== 'img') found.push(`${tag}[src=svg]`);
          }
        }
      }
      return found;
    });
    expect(dom).toEqual([]);
    // Activate every link the outputs kept (javascript: hrefs would run here if any had survived).
    const links = page.locator('.output-html a, .markdown-body a, .output-markdown a');
    const count = await links.count();
    for (let i = 0; i < count; i++) {
      const popup = page.waitForEvent('popup', { timeout: 1000 }).catch(() => undefined);
      await links.nth(i).click({ force: true, modifiers: [] }).catch(() => undefined);
      const opened = await popup;
      if (opened) {
        expect(opened.url()).not.toMatch(/^javascript:/);
        await opened.close();
      }
    }
    await page.waitForTimeout(500);
    const state = (await page.evaluate('({ xss: window.__xss, violations: window.__violations })')) as { xss: number[]; violations: string[] };
    expect(state.xss).toEqual([]);
    expect(dialogs).toEqual([]);
    // (Chromium reports CSP violations for handlers seen while the sanitizer parses the input in an inert
    // document; what matters is above: nothing ran, and the DOM holds no handler, script or script URL.)
    expect(state.violations.filter((v) => v.startsWith('script-src-elem'))).toEqual([]);
    expect(page.url()).toContain('xss.ipynb');
    await screenshot(page, 'xss-corpus-inert');
    await page.close();
  });

  it('model HTML paints and takes clicks only inside its own output box, cannot take the app\'s element ids, and its links open a new tab', { timeout: 120_000 }, async () => {
    const { page } = await instrumented();
    await openNotebook(page, server.baseUrl.replace(/\/$/, ''), server.token, 'deceive.ipynb');
    const real = page.locator('.cell').last().locator('.output-stream');
    await real.waitFor();
    await real.scrollIntoViewIfNeeded();
    // What is painted, and what a click hits, at the real output below, in the header, and at the page's corners.
    const hits = (await page.evaluate(`(() => {
      const box = document.querySelector('.cell:last-child .output-stream').getBoundingClientRect();
      const at = (x, y) => { const el = document.elementFromPoint(x, y); return el ? (el.closest('.output-html, .markdown-body') ? 'MODEL' : el.closest('.output-stream') ? 'REAL' : 'APP') : 'none'; };
      return { real: at(box.left + 20, box.top + box.height / 2), header: at(5, 5), corner: at(innerWidth - 5, innerHeight - 5) };
    })()`)) as Record<string, string>;
    expect(hits).toEqual({ real: 'REAL', header: 'APP', corner: 'APP' });
    await real.click();
    // Element ids written by the model are prefixed, so the app's own lookups find the app's elements.
    const ids = (await page.evaluate(`[...document.querySelectorAll('.output-html [id], .output-html [name], .markdown-body [id]')].map((e) => e.id || e.getAttribute('name'))`)) as string[];
    expect(ids.every((id) => id.startsWith('user-content-'))).toBe(true);
    expect(await page.evaluate(`document.getElementById('app').tagName + ' ' + document.getElementById('app').className`)).toBe('DIV app');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+s');
    const toast = page.locator('body > .toast');
    await toast.filter({ hasText: 'Saved' }).waitFor();
    expect(await toast.isVisible()).toBe(true);
    // SVG and image-map links open a new browsing context; the notebook tab stays where it is.
    for (const name of ['svg-link', 'area-link']) {
      const link = name === 'svg-link' ? page.locator('.output-html svg a') : page.locator('.output-html area');
      expect(await link.getAttribute('target'), name).toBe('_blank');
      const popup = page.waitForEvent('popup', { timeout: 3000 }).catch(() => undefined);
      if (name === 'svg-link') await page.locator('.output-html svg text').click();
      else await page.getByAltText('area-link').click();
      (await popup)?.close().catch(() => undefined);
      expect(page.url(), name).toContain('deceive.ipynb');
    }
    await screenshot(page, 'deceiving-html-contained');
    await page.close();
  });
});
