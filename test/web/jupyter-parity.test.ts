/**
 * Issue 19 (smaller items): text/plain as Jupyter frontends show it, bordered markdown tables, a kernel
 * pill that never reads "unknown" after a restart, and downloading the notebook from the UI.
 */
import { promises as fs } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fakeNotebookSuite, openNotebook } from './web-harness.js';

const token = 'parity-token';

describe('web notebook: Jupyter parity details', () => {
  const suite = fakeNotebookSuite({
    token,
    notebooks: {
      'parity.ipynb': [
        { source: "'x'" },
        { type: 'markdown', source: '| name | value |\n| --- | --- |\n| a | 1 |\n' },
      ],
    },
    // As the kernel sends a string value: util.inspect text plus its JSON.
    script: (ctx) => ctx.result({ 'text/plain': "'x'", 'application/json': 'x' }),
  });

  it("shows a string result as 'x' like JupyterLab, and markdown tables with borders", { timeout: 60_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1100, height: 700 } });
    await openNotebook(page, suite.server.url, token, 'parity.ipynb');
    await page.getByRole('button', { name: 'Run all cells', exact: true }).click();
    const result = page.locator('.cell').nth(0).locator('.output-execute_result');
    await result.waitFor();
    await expect(result.innerText()).resolves.toBe("'x'");
    const border = await page.locator('.markdown-body td').first().evaluate((td) => td.ownerDocument.defaultView!.getComputedStyle(td).borderTopStyle + ' ' + td.ownerDocument.defaultView!.getComputedStyle(td).borderTopWidth);
    expect(border).toBe('solid 1px');
    await page.close();
  });

  it('never shows "unknown" in the kernel pill across a restart', { timeout: 60_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1100, height: 700 } });
    await page.addInitScript({ content: `
      window.__statuses = [];
      new MutationObserver(() => {
        const el = document.querySelector('.kernel-status');
        if (el) window.__statuses.push(el.textContent);
      }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });` });
    await openNotebook(page, suite.server.url, token, 'parity.ipynb');
    await page.getByRole('button', { name: 'Restart kernel (0, 0)' }).click();
    await page.getByRole('button', { name: 'Restart', exact: true }).click();
    await page.waitForFunction('window.__statuses.some((s) => /restarting|starting/.test(s))');
    await page.locator('.kernel-status[data-status="idle"]').waitFor();
    await page.waitForTimeout(300);
    const seen = await page.evaluate('window.__statuses') as string[];
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((s) => /unknown/.test(s))).toEqual([]);
    await page.close();
  });

  it('downloads the notebook as .ipynb, unsaved edits included', { timeout: 60_000 }, async () => {
    const context = await suite.browser.newContext({ viewport: { width: 1100, height: 700 }, acceptDownloads: true });
    await context.addInitScript({ content: "localStorage.setItem('nighthawk.autosaveSeconds', '0')" });
    const page = await context.newPage();
    await openNotebook(page, suite.server.url, token, 'parity.ipynb');
    await page.locator('.cell').nth(0).locator('.editor-host').click();
    await page.locator('.cell').nth(0).locator('.monaco-editor.focused').waitFor();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' + "edited"');
    await page.keyboard.press('Escape');
    const download = page.waitForEvent('download');
    await page.keyboard.press('Control+Shift+C');
    await page.locator('.palette-input').fill('download');
    await page.keyboard.press('Enter');
    const file = await download;
    expect(file.suggestedFilename()).toBe('parity.ipynb');
    const saved = JSON.parse(await fs.readFile((await file.path())!, 'utf8')) as { nbformat: number; cells: Array<{ source: string[] }> };
    expect(saved.nbformat).toBe(4);
    expect(saved.cells[0]!.source.join('')).toBe(`'x' + "edited"`);
    await context.close();
  });
});
