/**
 * Web notebook in headless chromium:
 * - load: navigation start → a 50-cell notebook is rendered (cells as highlighted static code, editable on a
 *   click: the caret lands where clicked and typing starts at once) and its kernel session exists; baseline: a
 *   static page with 50 plain <textarea>s. Monaco is not part of it: it loads at the first sign of use
 *   (web/src/monaco-loader.ts), see the scroll lines. "interactive": the same until the kernel also reads idle.
 *   "repeat-visit": the same loads in one browser context after a first one (HTTP and compiled-code caches warm),
 *   against the baseline loaded the same way. A comment line after each pair gives the median time of each step
 *   of the load (the page's load marks, web/src/load-marks.ts), so a slower load shows which step grew.
 *   "first-frame": the same first-visit loads, each page timed to the end of the first frame after its mark
 *   (the baseline's mark is set while parsing, before any layout; the notebook's after the layout its focus forced).
 * - scroll-to-last-cell: scrollIntoView of the last cell → its Monaco editor is in the DOM, against one
 *   frame of the same page; on a page in use (the pointer moved, Monaco loaded, editors mounted ahead in
 *   idle time: body[data-editors="mounted"]), and "monaco-cold": on a page nobody touched yet, where the
 *   scroll itself starts loading Monaco.
 * - ledger-scroll: requestAnimationFrame deltas while scrolling the 10,000-entry ledger view;
 *   baseline: the same rows as a plain, non-virtualized list.
 * - ledger-filter: text filter applied → rows updated; baseline: hiding non-matching rows of the plain list.
 * The server (the suite's fake Jupyter server) runs in a process of its own, as a deployed one does, and serves
 * the baseline pages as static files beside the notebook's.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { LOAD_MARK_PREFIX, LOAD_MARKS } from '../web/src/load-marks.js';
import { bigLedger } from '../test/web/ledger-fixture.js';
import { buildWebApp, launchChromium, notebookJson, tempNotebooksDir } from '../test/web/web-harness.js';
import { percentile, report } from './stats.js';
import { startFakeServerProcess } from './support/server-process.js';

const token = 'bench-token';
const LOADS = 8;
const FRAMES = 120;
const cellSource = (i: number): string => `// cell ${i}\nconst value${i} = await compute(${i});\nconsole.log(value${i});`;

const baselineHtml = `<!doctype html><html><body><main>${Array.from({ length: 50 }, (_, i) =>
  `<textarea rows="3" cols="80">${cellSource(i)}</textarea>`).join('')}</main>
<script>document.body.dataset.readyAt = String(performance.now());</script></body></html>`;

const ledger = bigLedger();
const plainListHtml = `<!doctype html><html><body><div id="list" style="height:360px;overflow-y:auto;font:12.5px sans-serif">${ledger.entries.map((e) =>
  `<div class="row" style="display:grid;grid-template-columns:70px 110px 110px 90px 1fr 100px;height:28px;line-height:28px"><span>${e.sequence}</span><span>${e.runId}</span><span>${e.kind}</span><span>${e.status}</span><span>${e.summary}</span><span>${e.at}</span></div>`).join('')}</div></body></html>`;

/** In-page: scrolls `selector` a fixed distance per frame and returns the rAF deltas. */
const scrollScript = (selector: string): string => `new Promise((resolve) => {
  const el = document.querySelector(${JSON.stringify(selector)});
  const deltas = []; let last = performance.now(); let n = 0;
  const step = (now) => {
    deltas.push(now - last); last = now; el.scrollTop += 700;
    if (++n < ${FRAMES}) requestAnimationFrame(step); else resolve(deltas.slice(2));
  };
  requestAnimationFrame((now) => { last = now; requestAnimationFrame(step); });
})`;

/** In-page: time from a filter change to the next frame after the DOM settled. */
const filterScript = (apply: string): string => `new Promise((resolve) => {
  const t0 = performance.now(); ${apply};
  requestAnimationFrame(() => resolve(performance.now() - t0));
})`;

/**
 * In-page: resolves once `body.dataset[key]` is set. A MutationObserver, not a locator: Playwright polls a
 * locator with its injected script on the page's main thread, and that work landed inside the measured
 * load of the notebook (whose mark comes after script work), not the baseline's (set while parsing).
 */
const bodyAttributeSet = (key: 'readyAt' | 'interactiveAt'): string => `new Promise((resolve, reject) => {
  const set = () => document.body.dataset.${key} !== undefined;
  if (set()) return resolve();
  const observer = new MutationObserver(() => { if (set()) { observer.disconnect(); clearTimeout(timer); resolve(); } });
  const timer = setTimeout(() => { observer.disconnect(); reject(new Error('body[data-${key}] not set within 30 s')); }, 30000);
  observer.observe(document.body, { attributes: true });
})`;

/**
 * Installed before any script of the page: once `body.dataset[key]` is set, the end of the next frame (a task
 * queued from its animation callback, after that frame's style, layout and paint) goes to `body[data-painted-at]`.
 * The marks themselves are set before the browser's first layout of the page (the baseline's while parsing) or
 * after one the page forced; this times both pages to their first frame.
 */
const paintedAfter = (key: 'readyAt' | 'interactiveAt'): string => `(() => {
  const attribute = ${JSON.stringify(key === 'readyAt' ? 'data-ready-at' : 'data-interactive-at')};
  const observer = new MutationObserver(() => {
    if (!document.body?.hasAttribute(attribute)) return;
    observer.disconnect();
    requestAnimationFrame(() => setTimeout(() => { document.body.dataset.paintedAt = String(performance.now()); }, 0));
  });
  observer.observe(document, { attributes: true, subtree: true, attributeFilter: [attribute] });
})()`;

/** Per load, when each of the page's load marks (web/src/load-marks.ts) was set, in ms from navigation. */
type LoadSteps = Map<string, number[]>;

/**
 * Load times read from `body[data-ready-at]`, and `body[data-interactive-at]` when the page sets one. Each load
 * in a new browser context (a first visit), or with `repeat` all in one context after an unmeasured first load
 * (a visit with the browser's cache and compiled-code cache warm, as for someone who opened the notebook before).
 * `steps` collects the page's load marks of each measured load.
 */
async function loadSamples(browser: Browser, url: string, interactive = false, repeat = false, steps?: LoadSteps, painted?: number[]): Promise<[number[], number[]]> {
  const ready: number[] = [];
  const usable: number[] = [];
  const shared = repeat ? await browser.newContext({ viewport: { width: 1280, height: 900 } }) : undefined;
  for (let i = repeat ? -1 : 0; i < LOADS; i++) {
    const context = shared ?? (await browser.newContext({ viewport: { width: 1280, height: 900 } }));
    const page = await context.newPage();
    if (painted) await page.addInitScript(paintedAfter(interactive ? 'interactiveAt' : 'readyAt'));
    await page.goto(url);
    await page.evaluate(bodyAttributeSet(interactive ? 'interactiveAt' : 'readyAt'));
    const readyAt = Number(await page.locator('body').getAttribute('data-ready-at'));
    const usableAt = interactive ? Number(await page.locator('body').getAttribute('data-interactive-at')) : 0;
    if (i >= 0) {
      ready.push(readyAt);
      if (interactive) usable.push(usableAt);
      if (painted) {
        await page.locator('body[data-painted-at]').waitFor({ state: 'attached', timeout: 30_000 });
        painted.push(Number(await page.locator('body').getAttribute('data-painted-at')));
      }
      const marks = (await page.evaluate(`performance.getEntriesByType('mark').filter((m) => m.name.startsWith(${JSON.stringify(LOAD_MARK_PREFIX)})).map((m) => [m.name.slice(${LOAD_MARK_PREFIX.length}), m.startTime])`)) as Array<[string, number]>;
      for (const [name, at] of marks) steps?.set(name, [...(steps.get(name) ?? []), at]);
    }
    if (shared) await page.close();
    else await context.close();
  }
  await shared?.close();
  return [ready, usable];
}

/** One comment line: the median time of each load step, in the order the steps happen on this page. */
function printSteps(visit: string, steps: LoadSteps, ready: number[], interactive: number[]): void {
  const medians: Array<[string, number]> = [...LOAD_MARKS.flatMap((name) => {
    const at = steps.get(name);
    return at ? [[name, percentile(at, 50)] as [string, number]] : [];
  }), ['ready', percentile(ready, 50)], ['interactive', percentile(interactive, 50)]];
  medians.sort((a, b) => a[1] - b[1]);
  console.log(`# 50-cell notebook, ${visit}, median ms from navigation: ${medians.map(([name, at]) => `${name} ${at.toFixed(0)}`).join(' · ')}`);
}

async function main(): Promise<void> {
  const [built, dir, staticDir] = await Promise.all([buildWebApp(), tempNotebooksDir(), tempNotebooksDir()]);
  await fs.writeFile(path.join(dir, 'fifty.ipynb'), notebookJson(Array.from({ length: 50 }, (_, i) => ({ source: cellSource(i) }))));
  await fs.writeFile(path.join(dir, 'ledger.ipynb'), notebookJson([{ source: 'showLedger()' }]));
  // The built notebook with the baseline pages beside it, so both come from the same server the same way.
  await fs.cp(built, staticDir, { recursive: true });
  await fs.writeFile(path.join(staticDir, 'baseline.html'), baselineHtml);
  await fs.writeFile(path.join(staticDir, 'plain-list.html'), plainListHtml);
  const server = await startFakeServerProcess({ token, notebooksDir: dir, staticDir });
  const browser = await launchChromium();
  try {
    const basePainted: number[] = [];
    const [baseLoad] = await loadSamples(browser, `${server.url}/baseline.html`, false, false, undefined, basePainted);
    const steps: LoadSteps = new Map();
    const painted: number[] = [];
    const [load, interactive] = await loadSamples(browser, `${server.url}/?token=${token}&path=fifty.ipynb`, true, false, steps, painted);
    report('web-load-50-cells', load, baseLoad);
    report('web-interactive-50-cells', interactive, baseLoad);
    // The same loads to the end of the first frame after each page's mark (see paintedAfter).
    report('web-interactive-50-cells-first-frame', painted, basePainted);
    printSteps('first visit', steps, load, interactive);
    const [baseRepeat] = await loadSamples(browser, `${server.url}/baseline.html`, false, true);
    const repeatSteps: LoadSteps = new Map();
    const [loadRepeat, interactiveRepeat] = await loadSamples(browser, `${server.url}/?token=${token}&path=fifty.ipynb`, true, true, repeatSteps);
    report('web-load-50-cells-repeat-visit', loadRepeat, baseRepeat);
    report('web-interactive-50-cells-repeat-visit', interactiveRepeat, baseRepeat);
    printSteps('repeat visit', repeatSteps, loadRepeat, interactiveRepeat);

    // Scrolling to the last cell: scrollIntoView → its Monaco editor is in the DOM; the baseline is one frame of
    // the same page (so ratio 1 = mounted within the frame budget of the scroll).
    const scrollMount = async (inUse: boolean): Promise<[number[], number[]]> => {
      const mounts: number[] = [];
      const frames1: number[] = [];
      for (let i = 0; i < 5; i++) {
        const p = await browser.newPage({ viewport: { width: 1280, height: 900 } });
        await p.goto(`${server.url}/?token=${token}&path=fifty.ipynb`);
        await p.locator('body[data-ready-at]').waitFor({ state: 'attached', timeout: 30_000 });
        if (inUse) {
          await p.mouse.move(640, 450);
          await p.locator('body[data-editors="mounted"]').waitFor({ state: 'attached', timeout: 30_000 });
        } else await p.waitForTimeout(500);
        const [mount, frame] = (await p.evaluate(`new Promise((resolve) => {
          const cells = document.querySelectorAll('.cell'); const last = cells[cells.length - 1];
          requestAnimationFrame((a) => requestAnimationFrame((b) => {
            const t0 = performance.now(); last.scrollIntoView();
            const poll = () => last.querySelector('.monaco-editor') ? resolve([performance.now() - t0, b - a]) : requestAnimationFrame(poll);
            poll();
          }));
        })`)) as [number, number];
        mounts.push(mount);
        frames1.push(frame);
        await p.close();
      }
      return [mounts, frames1];
    };
    report('web-scroll-to-last-cell-editor-mounted', ...(await scrollMount(true)));
    report('web-scroll-to-last-cell-editor-mounted-monaco-cold', ...(await scrollMount(false)));

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${server.url}/?token=${token}&path=ledger.ipynb`);
    await page.locator('body[data-ready="true"]').waitFor();
    await page.getByRole('button', { name: 'Run all cells' }).click();
    await page.locator('.nh-ledger-count', { hasText: '10000 of 10000' }).waitFor();
    const frames = (await page.evaluate(scrollScript('.nh-ledger-viewport'))) as number[];
    const filters: number[] = [];
    for (const word of ['needle', 'entry 99', 'run-b', '', 'rejected', '']) {
      filters.push((await page.evaluate(filterScript(`const f = document.querySelector('.nh-ledger-search'); f.value = ${JSON.stringify(word)}; f.dispatchEvent(new Event('input'))`))) as number);
    }

    const plain = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await plain.goto(`${server.url}/plain-list.html`);
    const baseFrames = (await plain.evaluate(scrollScript('#list'))) as number[];
    const baseFilters: number[] = [];
    for (const word of ['needle', 'entry 99', 'run-b', '', 'rejected', '']) {
      baseFilters.push((await plain.evaluate(filterScript(`for (const r of document.querySelectorAll('#list .row')) r.style.display = r.textContent.toLowerCase().includes(${JSON.stringify(word)}) ? '' : 'none'`))) as number);
    }
    report('web-ledger-scroll-frame-10k', frames, baseFrames);
    report('web-ledger-filter-10k', filters, baseFilters);
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
