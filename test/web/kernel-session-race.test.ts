// The page starts its kernel session while the notebook file loads. A list of sessions or kernels that the
// server answers late, with what it held before that session existed, must not take the kernel away: the
// notebook stays connected and runs code. (Before the fix, a session manager's poll crossing the start
// disposed the new connection and the status stayed "no kernel"; it failed in about 1 of 4 CI-like runs.)
import { describe, expect, it } from 'vitest';
import { fakeNotebookSuite, openNotebook } from './web-harness.js';

const token = 'race-token';
const SLOW_MS = 700;

describe('web notebook: a late session list crossing the session start', () => {
  const suite = fakeNotebookSuite({
    token,
    notebooks: { 'race.ipynb': [{ source: '40 + 2' }] },
    script: (ctx) => ctx.result({ 'text/plain': `ran: ${ctx.code}` }),
    slowFirstListsMs: SLOW_MS,
  });

  it('keeps the started session connected after the stale lists arrive', { timeout: 60_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const statuses: string[] = [];
    await page.exposeFunction('recordStatus', (s: string) => statuses.push(s));
    await page.addInitScript(`new MutationObserver(() => {
      const s = document.querySelector('.kernel-status')?.getAttribute('data-status');
      if (s) window.recordStatus(s);
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-status'] });`);
    const started = Date.now();
    await openNotebook(page, suite.server.url, token, 'race.ipynb', { untouched: true });
    // Past the moment the stale lists are answered, with time for them to be applied.
    await page.waitForTimeout(Math.max(0, SLOW_MS + 500 - (Date.now() - started)));
    expect(await page.locator('.kernel-status').getAttribute('data-status')).toBe('idle');
    // Before the first connection the page reads "no kernel"; after it, never again.
    const connected = statuses.slice(statuses.findIndex((s) => s !== 'no kernel'));
    expect(connected.filter((s) => s === 'no kernel' || s === 'dead'), connected.join(' → ')).toEqual([]);
    await page.evaluate(`document.querySelector('button[aria-label="Run all cells"], button[title="Run all cells"]').click()`);
    await page.locator('.output-execute_result', { hasText: 'ran: 40 + 2' }).waitFor();
    await page.close();
  });

  it('still reads a kernel shut down elsewhere as dead (no manager poll needed)', { timeout: 60_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openNotebook(page, suite.server.url, token, 'race.ipynb', { untouched: true });
    const sessions = (await (await fetch(`${suite.server.url}/api/sessions?token=${token}`)).json()) as Array<{ path: string; kernel: { id: string } }>;
    const id = sessions.find((s) => s.path === 'race.ipynb')!.kernel.id;
    expect((await fetch(`${suite.server.url}/api/kernels/${id}?token=${token}`, { method: 'DELETE' })).status).toBe(204);
    await page.locator('.kernel-status[data-status="dead"]').waitFor({ timeout: 5_000 });
    await page.close();
  });
});
