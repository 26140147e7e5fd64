import { describe, expect, it } from 'vitest';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fakeNotebookSuite, openNotebook, screenshot } from './web-harness.js';

const token = 'save-token';

describe('web notebook: editing and saving', () => {
  const suite = fakeNotebookSuite({
    token,
    notebooks: {
      'edit-me.ipynb': [{ source: 'const a = 1;' }, { source: 'const b = 2;' }],
      'other.ipynb': [{ source: 'other' }],
    },
  });

  it('saves an edit with Ctrl-S as nbformat 4.5 and shows it again after a reload', async () => {
    const context = await suite.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await openNotebook(page, suite.server.url, token, 'edit-me.ipynb');
    await expect(page.locator('.file-list .file').allTextContents()).resolves.toEqual(['edit-me.ipynb', 'other.ipynb']);
    // The token left the address bar once stored.
    expect(page.url()).not.toContain('token=');
    await page.locator('.cell').nth(1).locator('.editor-host').click();
    await page.locator('.cell').nth(1).locator('.monaco-editor.focused').waitFor();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\nconst edited = 42;');
    await page.keyboard.press('Control+s');
    await page.locator('body[data-draft-state="clean"]').waitFor();
    await page.locator('.dirty-mark[hidden]').waitFor({ state: 'attached' });

    const saved = JSON.parse(await fs.readFile(path.join(suite.dir, 'edit-me.ipynb'), 'utf8')) as { nbformat: number; nbformat_minor: number; cells: Array<{ id: string; source: string[] }> };
    expect(saved.nbformat).toBe(4);
    expect(saved.nbformat_minor).toBe(5);
    expect(saved.cells[1]!.id).toBe('cell-1');
    expect(saved.cells[1]!.source.join('')).toBe('const b = 2;\nconst edited = 42;');

    await page.reload();
    await page.locator('body[data-ready="true"]').waitFor();
    // The cell may show its editor before Monaco has drawn its lines (a loaded machine): wait for the text, not a frame.
    const source = page.locator('.cell').nth(1).locator('.view-lines, .static-source').first();
    await expect.poll(async () => (await source.innerText()).replace(/\u00a0/g, ' '), { timeout: 10_000 }).toContain('const edited = 42;');
    await screenshot(page, 'edit-save-reload');
    await context.close();
  });

  it('uses command-mode shortcuts: B inserts below, M makes markdown, Shift-Enter renders and advances, D D deletes', async () => {
    const context = await suite.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await openNotebook(page, suite.server.url, token, 'other.ipynb');
    await expect(page.locator('.cell').count()).resolves.toBe(1);
    await page.locator('.cells').focus();
    await page.keyboard.press('b');
    await expect(page.locator('.cell').count()).resolves.toBe(2);
    await page.keyboard.press('Enter');
    await page.locator('.cell').nth(1).locator('.monaco-editor.focused').waitFor();
    await page.keyboard.type('# Heading from keys');
    await page.keyboard.press('Escape');
    await page.locator('body[data-mode="command"]').waitFor();
    await page.keyboard.press('m');
    await page.keyboard.press('Shift+Enter');
    await page.locator('.cell.cell-markdown .rendered h1', { hasText: 'Heading from keys' }).waitFor();
    // Shift-Enter on the last cell adds a fresh cell in edit mode, as in Jupyter.
    await expect(page.locator('.cell').count()).resolves.toBe(3);
    await page.locator('.cell').nth(2).locator('.monaco-editor.focused').waitFor();
    await page.keyboard.press('Escape');
    await page.locator('body[data-mode="command"]').waitFor();
    await page.keyboard.press('d');
    await page.keyboard.press('d');
    await expect(page.locator('.cell').count()).resolves.toBe(2);
    await expect(page.locator('.cell.active').getAttribute('class')).resolves.toContain('cell-markdown');
    await screenshot(page, 'command-mode-shortcuts');
    await context.close();
  });
});
