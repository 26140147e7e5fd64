/**
 * Issue 19.4: the ledger view fits its rows, shows short distinct run ids with the full id on hover,
 * wraps summaries, and expands a clicked row into its event while highlighting the run view node.
 */
import { describe, expect, it } from 'vitest';
import { NighthawkMime } from '../../shared/mime.js';
import { LONG_SUMMARY, RUN_A, RUN_B, smallLedger, smallRun } from './run-ledger-fixture.js';
import { fakeNotebookSuite, openNotebook, screenshot } from './web-harness.js';

const token = 'ledger-view-token';

describe('web notebook: ledger view layout and row expansion (issue 19.4)', () => {
  const suite = fakeNotebookSuite({
    token,
    notebooks: { 'ledger.ipynb': [{ source: 'refund()' }, { source: 'nh.displayLedger()' }] },
    script: (ctx) => {
      if (ctx.code.includes('refund')) ctx.display({ [NighthawkMime.run]: smallRun(), 'text/plain': 'run' });
      else ctx.display({ [NighthawkMime.ledger]: smallLedger(), 'text/plain': 'ledger' });
    },
  });

  it('fits three rows, shows label + id tail with the full id on hover, wraps, and expands a clicked row', { timeout: 90_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openNotebook(page, suite.server.url, token, 'ledger.ipynb');
    await page.getByRole('button', { name: 'Run all cells', exact: true }).click();
    const ledger = page.locator('.nh-ledger');
    await ledger.waitFor();
    const rows = ledger.locator('.nh-ledger-rows .nh-ledger-row');
    await expect(rows.count()).resolves.toBe(3);

    const viewport = await ledger.locator('.nh-ledger-viewport').boundingBox();
    const rowsBox = await ledger.locator('.nh-ledger-rows').boundingBox();
    // No empty space below three rows (the old fixed box was 360 px tall).
    expect(Math.abs(viewport!.height - rowsBox!.height)).toBeLessThan(2);
    expect(viewport!.height).toBeLessThan(200);

    const runCells = await rows.locator('span:nth-child(2)').evaluateAll((els) => els.map((e) => [e.textContent, e.getAttribute('title')]));
    expect(runCells).toEqual([[`refund·${RUN_A.slice(-6)}`, RUN_A], [`refund·${RUN_A.slice(-6)}`, RUN_A], [`triage·${RUN_B.slice(-6)}`, RUN_B]]);
    expect(runCells[0]![0]).not.toBe(runCells[2]![0]);

    // The long summary wraps onto several lines in full instead of ending in an ellipsis.
    const summary = rows.nth(1).locator('span:nth-child(5)');
    await expect(summary.textContent()).resolves.toBe(LONG_SUMMARY);
    const fits = await summary.evaluate((el) => ({ lines: Math.round(el.getBoundingClientRect().height / parseFloat(el.ownerDocument.defaultView!.getComputedStyle(el).lineHeight)), clipped: el.scrollWidth > el.clientWidth }));
    expect(fits.clipped).toBe(false);
    expect(fits.lines).toBeGreaterThan(1);

    // Clicking the rejected operation's row shows its snapshot as pretty JSON and marks the run view node.
    await rows.nth(1).click();
    const detail = ledger.locator('.nh-ledger-detail');
    await detail.waitFor();
    const json = await detail.locator('.nh-ledger-json').textContent();
    const parsed = JSON.parse(json!) as { sequence: number; data: { request: { arguments: { amount: number } } } };
    expect(parsed.sequence).toBe(2);
    expect(parsed.data.request.arguments.amount).toBe(1250);
    expect(json).toContain('\n  "'); // indented
    await expect(page.locator('.nh-ledger-match').getAttribute('data-operation-id')).resolves.toBe('op_A2');
    // The detail sits directly under its row.
    const order = await ledger.locator('.nh-ledger-rows > *').evaluateAll((els) => els.map((e) => e.className.split(' ')[0]));
    expect(order).toEqual(['nh-ledger-row', 'nh-ledger-row', 'nh-ledger-detail', 'nh-ledger-row']);
    await screenshot(page, 'ledger-expanded');

    // Keyboard: Enter on another row moves the expansion; clicking it again collapses.
    await rows.nth(2).focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => JSON.parse((await detail.locator('.nh-ledger-json').textContent())!).sequence).toBe(3);
    // Run B has no run view on this page: nothing is highlighted (the old highlight is gone).
    await expect(page.locator('.nh-ledger-match').count()).resolves.toBe(0);
    await rows.nth(2).click();
    await expect(detail.isHidden()).resolves.toBe(true);
    await expect(page.locator('.nh-ledger-match').count()).resolves.toBe(0);
    await page.close();
  });
});
