import { describe, expect, it } from 'vitest';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { LOAD_MARK_PREFIX } from '../../web/src/load-marks.js';
import { fakeNotebookSuite, notebookJson, openNotebook, screenshot } from './web-harness.js';

const token = 'draft-token';

async function cellText(page: Page, index: number): Promise<string> {
  const text = await page.locator('.cell').nth(index).locator('.view-lines, .static-source').first().innerText();
  return text.replace(/\u00a0/g, ' ');
}

async function typeInCell(page: Page, index: number, text: string): Promise<void> {
  await page.locator('.cell').nth(index).locator('.editor-host').click();
  await page.locator('.cell').nth(index).locator('.monaco-editor.focused').waitFor();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(text);
  // The debounced draft write (~300 ms after the last key) has reached IndexedDB.
  await page.locator('body[data-draft-state="draft-saved"]').waitFor();
}

describe('web notebook: drafts in IndexedDB', () => {
  const suite = fakeNotebookSuite({
    token,
    notebooks: {
      'draft.ipynb': [{ source: 'const x = 1;' }],
      'conflict.ipynb': [{ source: 'const y = 1;' }],
    },
  });

  it('restores unsaved typing after the page is killed without saving', async () => {
    const context = await suite.browser.newContext({ viewport: { width: 1100, height: 700 } });
    // These tests are about the browser draft of unsaved edits: autosave off.
    await context.addInitScript({ content: "localStorage.setItem('nighthawk.autosaveSeconds', '0')" });
    const first = await context.newPage();
    await openNotebook(first, suite.server.url, token, 'draft.ipynb');
    await typeInCell(first, 0, '\nconst unsaved = "kept";');
    await first.close({ runBeforeUnload: false });

    const second = await context.newPage();
    // The token is per tab (sessionStorage), so the new tab gets it in the URL again.
    await openNotebook(second, suite.server.url, token, 'draft.ipynb');
    await expect(cellText(second, 0)).resolves.toContain('const unsaved = "kept";');
    await second.locator('.dirty-mark:not([hidden])').waitFor();
    await second.locator('.toast', { hasText: 'Restored unsaved edits' }).waitFor();
    const disk = await fs.readFile(path.join(suite.dir, 'draft.ipynb'), 'utf8');
    expect(disk).not.toContain('unsaved');
    await screenshot(second, 'draft-restored');
    await context.close();
  });

  it('asks keep mine / take disk when the file changed on disk under a draft', async () => {
    const context = await suite.browser.newContext({ viewport: { width: 1100, height: 700 } });
    // These tests are about the browser draft of unsaved edits: autosave off.
    await context.addInitScript({ content: "localStorage.setItem('nighthawk.autosaveSeconds', '0')" });
    const first = await context.newPage();
    await openNotebook(first, suite.server.url, token, 'conflict.ipynb');
    await typeInCell(first, 0, '\nconst mine = 2;');
    await first.close({ runBeforeUnload: false });
    await fs.writeFile(path.join(suite.dir, 'conflict.ipynb'), notebookJson([{ source: 'const fromDisk = 3;' }]));

    const second = await context.newPage();
    await second.goto(`${suite.server.url}/?token=${token}&path=conflict.ipynb`);
    const dialog = second.getByRole('dialog');
    await dialog.waitFor();
    await expect(dialog.textContent()).resolves.toContain('changed on disk');
    await screenshot(second, 'draft-conflict-prompt');
    await dialog.getByRole('button', { name: 'Keep mine' }).click();
    await second.locator('body[data-ready="true"]').waitFor();
    await expect(cellText(second, 0)).resolves.toContain('const mine = 2;');

    await second.close({ runBeforeUnload: false });

    await fs.writeFile(path.join(suite.dir, 'conflict.ipynb'), notebookJson([{ source: 'const fromDiskAgain = 4;' }]));
    const third = await context.newPage();
    await third.goto(`${suite.server.url}/?token=${token}&path=conflict.ipynb`);
    await third.getByRole('dialog').getByRole('button', { name: 'Take disk' }).click();
    await third.locator('body[data-ready="true"]').waitFor();
    await expect(cellText(third, 0)).resolves.toContain('const fromDiskAgain = 4;');
    await third.locator('.dirty-mark[hidden]').waitFor({ state: 'attached' });
    await context.close();
  });

  it('a browser with no drafts database yet draws the notebook without waiting for IndexedDB to open', async () => {
    const context = await suite.browser.newContext({ viewport: { width: 1100, height: 700 } });
    // Every open's answer held back 5 s: opening IndexedDB in a fresh profile is slow, and nothing is in it.
    await context.addInitScript({
      content: `(() => {
        const open = IDBFactory.prototype.open;
        IDBFactory.prototype.open = function (...args) {
          const request = open.apply(this, args);
          const add = request.addEventListener.bind(request);
          request.addEventListener = (type, listener, options) =>
            add(type, type === 'success' ? (event) => setTimeout(() => { window.__openAnsweredAt ??= performance.now(); listener(event); }, 5000) : listener, options);
          return request;
        };
      })()`,
    });
    const page = await context.newPage();
    await page.goto(`${suite.server.url}/?token=${token}&path=draft.ipynb`);
    await page.locator('.cell .static-source', { hasText: 'const x = 1;' }).waitFor({ timeout: 10_000 });
    const drawnAt = (await page.evaluate(`performance.getEntriesByName(${JSON.stringify(LOAD_MARK_PREFIX + 'notebook-drawn')})[0]?.startTime`)) as number;
    const answeredAt = (await page.evaluate('window.__openAnsweredAt')) as number | undefined;
    expect(drawnAt).toBeGreaterThan(0);
    // Drawn before any open was answered (or before one answered at all).
    if (answeredAt !== undefined) expect(drawnAt).toBeLessThan(answeredAt);
    // The draft store still works once the database is there: an edit reaches it.
    await typeInCell(page, 0, '\nconst later = 3;');
    await context.close();
  });
});
