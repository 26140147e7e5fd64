import { describe, expect, it } from 'vitest';
import { NighthawkMime } from '../../shared/mime.js';
import { bigLedger, LEDGER_ENTRIES } from './ledger-fixture.js';
import { fakeNotebookSuite, openNotebook, screenshot } from './web-harness.js';

const token = 'ledger-token';
const ENTRIES = LEDGER_ENTRIES;

describe('web notebook: ledger view', () => {
  const ledgerPayload = bigLedger();
  const suite = fakeNotebookSuite({
    token,
    notebooks: {
      'ledger.ipynb': [{ source: 'showLedger(run)' }],
    },
    script: (ctx) => ctx.display({ [NighthawkMime.ledger]: ledgerPayload, 'text/plain': `ledger with ${ENTRIES} entries` }),
  });

  it('keeps the DOM bounded while scrolling 10,000 entries, and filters by status, run and text', async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openNotebook(page, suite.server.url, token, 'ledger.ipynb');
    await page.getByRole('button', { name: 'Run all cells' }).click();
    const ledger = page.locator('.nh-ledger');
    const rows = ledger.locator('.nh-ledger-rows .nh-ledger-row');
    // The payload names its run, so the view opens filtered to it; "all runs" shows everything.
    await ledger.locator('.nh-ledger-count', { hasText: `${ENTRIES / 2} of ${ENTRIES} entries` }).waitFor();
    await ledger.getByLabel('run').selectOption('');
    await ledger.locator('.nh-ledger-count', { hasText: `${ENTRIES} of ${ENTRIES} entries` }).waitFor();
    const initialRows = await rows.count();
    expect(initialRows).toBeGreaterThan(5);
    expect(initialRows).toBeLessThan(50);

    const viewport = ledger.locator('.nh-ledger-viewport');
    await viewport.hover();
    const maxRows: number[] = [];
    for (let i = 0; i < 20; i++) {
      await page.mouse.wheel(0, 9000);
      maxRows.push(await rows.count());
    }
    // Scrolled far down: rows near the end exist, the first ones do not, and the DOM stayed small.
    await page.waitForFunction(`Number(document.querySelector('.nh-ledger-rows .nh-ledger-row')?.dataset.sequence) > 5000`);
    await expect(ledger.locator('.nh-ledger-row[data-sequence="1"]').count()).resolves.toBe(0);
    expect(Math.max(...maxRows)).toBeLessThan(50);

    await ledger.getByLabel('status').selectOption('rejected');
    await ledger.locator('.nh-ledger-count', { hasText: `${ENTRIES / 4} of ${ENTRIES} entries` }).waitFor();
    await expect(rows.locator('span:nth-child(4)').allTextContents()).resolves.toSatisfy((s: string[]) => s.every((t) => t === 'rejected'));
    await ledger.getByLabel('run').selectOption('run-b');
    await ledger.locator('.nh-ledger-count', { hasText: `${ENTRIES / 8} of ${ENTRIES} entries` }).waitFor();
    await ledger.getByLabel('status').selectOption('');
    await ledger.getByLabel('run').selectOption('');
    await ledger.getByLabel('filter ledger text').fill('needle');
    await ledger.locator('.nh-ledger-count', { hasText: `1 of ${ENTRIES} entries` }).waitFor();
    await expect(rows.count()).resolves.toBe(1);
    await expect(rows.first().textContent()).resolves.toContain('refund above limit refused');
    await ledger.getByLabel('filter ledger text').fill('');
    await ledger.locator('.nh-ledger-count', { hasText: `${ENTRIES} of ${ENTRIES} entries` }).waitFor();
    await screenshot(page, 'ledger-10k');
    await page.close();
  });
});
