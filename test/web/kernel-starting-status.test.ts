// A notebook on a cold kernel (no spare): the status reads "starting" from the first kernel_info reply until
// the kernel can run code, never "idle" before (the issue: "Kernel: idle" while the compiler still loaded).
import { describe, expect, it } from 'vitest';
import { realNotebookSuite } from './web-harness.js';

describe('web notebook: kernel status on a cold kernel', () => {
  const suite = realNotebookSuite({ notebooks: { 'cold.ipynb': [{ source: '1 + 1' }] } });

  it('reads "starting", not "idle", until the kernel can run code; then idle once', { timeout: 120_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    // Every value the status element takes, from the first render on.
    await page.addInitScript(`window.__statuses = [];
      new MutationObserver(() => {
        const s = document.querySelector('.kernel-status');
        const seen = window.__statuses;
        if (s && seen[seen.length - 1] !== s.dataset.status) seen.push(s.dataset.status);
      }).observe(document, { subtree: true, attributes: true, childList: true });`);
    await page.goto(`${suite.base}/?token=${suite.server.token}&path=cold.ipynb`);
    await page.locator('.kernel-status[data-status="idle"]').waitFor({ timeout: 90_000 });
    const statuses = (await page.evaluate('window.__statuses')) as string[];
    expect(statuses).toContain('starting');
    // Idle appears once, at the end: the kernel_info reply's idle never showed.
    expect(statuses.filter((s) => s === 'idle')).toEqual(['idle']);
    expect(statuses[statuses.length - 1]).toBe('idle');
    await page.close();
  });
});
