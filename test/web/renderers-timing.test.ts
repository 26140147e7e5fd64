// The renderers chunk (web/src/outputs/renderers.ts) stays off a quick cell's path to its result: the result is
// drawn as plain text and painted before the chunk is even requested, then redrawn rich. A cell still running
// after a moment loads the chunk while the kernel works.
import { describe, expect, it } from 'vitest';
import { fakeNotebookSuite } from './web-harness.js';

const token = 'renderers-token';

/** In the page: when the first execute result appeared, and when the renderers chunk was requested (if it was). */
const TIMES = `(() => {
  const chunk = performance.getEntriesByType('resource').find((e) => /\\/assets\\/renderers-[\\w-]+\\.js$/.test(e.name));
  return { result: window.__resultAt ?? null, renderers: chunk ? chunk.startTime : null, sent: window.__sentAt ?? null };
})()`;
/** Records when the result appeared, and when the page sent its first WebSocket frame from now on (the execute request). */
const WATCH = `(() => {
  new MutationObserver((_, observer) => {
    if (document.querySelector('.output-execute_result')) { window.__resultAt = performance.now(); observer.disconnect(); }
  }).observe(document.body, { subtree: true, childList: true });
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) { window.__sentAt ??= performance.now(); return send.call(this, data); };
})()`;

describe('web notebook: when the renderers chunk loads', () => {
  const suite = fakeNotebookSuite({
    token,
    notebooks: { 'quick.ipynb': [{ source: 'quick' }], 'slow.ipynb': [{ source: 'slow' }] },
    script: async (ctx) => {
      if (ctx.code === 'slow') await new Promise((r) => setTimeout(r, 1000));
      ctx.result({ 'text/html': '<b class="rich">rich</b>', 'text/plain': 'plain' });
    },
  });

  async function run(notebook: string): Promise<{ result: number; renderers: number; clicked: number; sent: number }> {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${suite.server.url}/?token=${token}&path=${notebook}`);
    await page.locator('.kernel-status[data-status="idle"]').waitFor({ timeout: 20_000 });
    await page.evaluate(WATCH);
    const clicked = (await page.evaluate('performance.now()')) as number;
    await page.getByRole('button', { name: 'Run all cells' }).click();
    // Rich in the end, whichever way it came.
    await page.locator('.output-execute_result b.rich', { hasText: 'rich' }).waitFor({ timeout: 20_000 });
    const times = (await page.evaluate(TIMES)) as { result: number | null; renderers: number | null; sent: number | null };
    await page.close();
    expect(times.result).not.toBeNull();
    expect(times.renderers).not.toBeNull();
    expect(times.sent).not.toBeNull();
    return { ...(times as { result: number; renderers: number; sent: number }), clicked };
  }

  it('a quick cell: its result appears first, the chunk is requested after', { timeout: 60_000 }, async () => {
    // The page also loads the chunk in idle time a second after the kernel settled: on a loaded machine that
    // can come before the click, and such a load says nothing here.
    let t = await run('quick.ipynb');
    for (let attempt = 1; attempt < 4 && t.renderers < t.clicked; attempt++) t = await run('quick.ipynb');
    expect(t.renderers).toBeGreaterThan(t.clicked);
    // Not asked for at the send: after the result, or (on a machine so loaded that this quick cell took longer)
    // once the run had lasted 150 ms.
    if (t.result < t.sent + 150) expect(t.renderers).toBeGreaterThan(t.result);
    else expect(t.renderers).toBeGreaterThanOrEqual(t.sent + 140);
  });

  it('a slow cell: the chunk is requested while it runs', { timeout: 60_000 }, async () => {
    const t = await run('slow.ipynb');
    expect(t.renderers).toBeLessThan(t.result);
    expect(t.renderers).toBeGreaterThanOrEqual(t.sent + 140);
  });
});
