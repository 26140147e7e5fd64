// A page opened on a notebook sends its first REST requests before its main script has evaluated, and the app
// uses those responses: the notebook file, the session list and the kernelspecs are each asked for once.
import { describe, expect, it } from 'vitest';
import { fakeNotebookSuite, openNotebook } from './web-harness.js';

const token = 'early-token';

describe('web notebook: early requests', () => {
  const suite = fakeNotebookSuite({
    token,
    notebooks: { 'early nb.ipynb': [{ source: '1 + 1' }] },
    script: (ctx) => ctx.result({ 'text/plain': `ran: ${ctx.code}` }),
  });

  it('asks for the notebook, the sessions and the kernelspecs once each, and the notebook opens and runs', { timeout: 60_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const gets: string[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (r.method() === 'GET' && url.pathname.startsWith('/api/')) gets.push(decodeURIComponent(url.pathname));
    });
    await openNotebook(page, suite.server.url, token, 'early nb.ipynb', { untouched: true });
    const count = (path: string): number => gets.filter((p) => p === path).length;
    expect(count('/api/contents/early nb.ipynb')).toBe(1);
    expect(count('/api/sessions')).toBe(1);
    expect(count('/api/kernelspecs')).toBe(1);
    await expect(page.locator('.cell').first().locator('.static-source').innerText()).resolves.toBe('1 + 1');
    await page.evaluate(`document.querySelector('button[aria-label="Run all cells"]').click()`);
    await page.locator('.cell').first().locator('.output-execute_result', { hasText: 'ran: 1 + 1' }).waitFor();
    await page.close();
  });
});
