import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { fakeNotebookSuite, openNotebook, screenshot } from './web-harness.js';

const token = 'cells-token';

const outputs = (page: Page) =>
  page.locator('.cell').evaluateAll((cells) => cells.map((c) => c.querySelector('.output-execute_result')?.textContent?.trim() ?? ''));

describe('web notebook: run above/below, merge, split and restart', () => {
  // The scripted kernel answers every cell with its own source as the result.
  const suite = fakeNotebookSuite({
    token,
    notebooks: {
      'cells.ipynb': [{ source: '"a1"' }, { source: '"b2"' }, { source: '"c3"' }],
    },
    script: (ctx) => ctx.result({ 'text/plain': ctx.code }),
  });

  it('runs the cells above, then this cell and below, then merges, splits and restarts', { timeout: 90_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openNotebook(page, suite.server.url, token, 'cells.ipynb');
    await page.locator('.cell').nth(1).locator('.editor-host').click();
    await page.getByRole('button', { name: 'Run cells above' }).click();
    await page.locator('.cell').nth(0).locator('.output-execute_result').waitFor();
    expect(await outputs(page)).toEqual(['"a1"', '', '']);

    await page.getByRole('button', { name: 'Run this cell and below' }).click();
    await page.locator('.cell').nth(2).locator('.output-execute_result').waitFor();
    expect(await outputs(page)).toEqual(['"a1"', '"b2"', '"c3"']);

    await page.locator('.cell').nth(0).locator('.editor-host').click();
    await page.getByRole('button', { name: 'Merge with cell below (Shift-M)' }).click();
    await expect(page.locator('.cell').count()).resolves.toBe(2);
    const merged = await page.locator('.cell').nth(0).locator('.view-lines, .static-source').first().innerText();
    expect(merged.replace(/\u00a0/g, ' ')).toContain('"a1"');
    expect(merged.replace(/\u00a0/g, ' ')).toContain('"b2"');

    await page.locator('.cell').nth(0).locator('.editor-host').click();
    await page.locator('.cell').nth(0).locator('.monaco-editor.focused').waitFor();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('End');
    await page.getByRole('button', { name: 'Split cell at cursor (Ctrl-Shift-Minus)' }).click();
    await expect(page.locator('.cell').count()).resolves.toBe(3);

    await page.getByRole('button', { name: 'Restart kernel (0, 0)' }).click();
    await page.getByRole('button', { name: 'Restart', exact: true }).click();
    await page.locator('.kernel-status[data-status="idle"]').waitFor();
    await page.getByRole('button', { name: 'Run all cells' }).click();
    await page.locator('.cell').nth(2).locator('.output-execute_result').waitFor();
    await screenshot(page, 'cell-operations');
  });
});
