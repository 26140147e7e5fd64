/**
 * Issue 19.3: autosave to disk a few seconds after a change, conflict detection by mtime when the file
 * changed on disk, a beforeunload warning only while something is unsaved, and one save-state label.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { fakeNotebookSuite, notebookJson, openNotebook, screenshot } from './web-harness.js';

const token = 'autosave-token';

async function context(suite: { browser: { newContext(o: object): Promise<BrowserContext> } }, seconds: number): Promise<BrowserContext> {
  const ctx = await suite.browser.newContext({ viewport: { width: 1100, height: 700 } });
  await ctx.addInitScript({ content: `localStorage.setItem('nighthawk.autosaveSeconds', '${seconds}')` });
  return ctx;
}

async function typeInCell(page: Page, text: string): Promise<void> {
  await page.locator('.cell').nth(0).locator('.editor-host').click();
  await page.locator('.cell').nth(0).locator('.monaco-editor.focused').waitFor();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(text);
}

const label = (page: Page) => page.locator('.draft-status').innerText();
const disk = (dir: string, name: string) => fs.readFile(path.join(dir, name), 'utf8');

describe('web notebook: autosave to disk (issue 19.3)', () => {
  const suite = fakeNotebookSuite({
    token,
    notebooks: {
      'auto.ipynb': [{ source: 'const a = 1;' }],
      'mine.ipynb': [{ source: 'const b = 1;' }],
      'theirs.ipynb': [{ source: 'const c = 1;' }],
      'leave.ipynb': [{ source: 'const d = 1;' }],
    },
  });

  it('saves a change to disk without Ctrl+S and says so in one label', { timeout: 60_000 }, async () => {
    const ctx = await context(suite, 1);
    const page = await ctx.newPage();
    await openNotebook(page, suite.server.url, token, 'auto.ipynb');
    await expect(label(page)).resolves.toBe('Saved');
    await typeInCell(page, '\nconst typed = 2;');
    await expect.poll(() => label(page)).toBe('Unsaved — autosaving');
    await expect.poll(() => disk(suite.dir, 'auto.ipynb'), { timeout: 10_000 }).toContain('const typed = 2;');
    await expect.poll(() => label(page)).toBe('Saved');
    await page.locator('.dirty-mark[hidden]').waitFor({ state: 'attached' });
    await ctx.close();
  });

  it('asks before overwriting a file that changed on disk; "Keep mine" writes, "Take disk" loads', { timeout: 60_000 }, async () => {
    for (const [file, choice] of [['mine.ipynb', 'Keep mine'], ['theirs.ipynb', 'Take disk']] as const) {
      const ctx = await context(suite, 1);
      const page = await ctx.newPage();
      await openNotebook(page, suite.server.url, token, file);
      // Someone else saves the file: new content, newer mtime.
      await fs.writeFile(path.join(suite.dir, file), notebookJson([{ source: 'const other = "disk";' }]));
      const later = new Date(Date.now() + 5000);
      await fs.utimes(path.join(suite.dir, file), later, later);
      await typeInCell(page, '\nconst mine = "browser";');
      const dialog = page.getByRole('dialog', { name: 'The file changed on disk' });
      await dialog.waitFor({ timeout: 10_000 });
      // Autosave did not write while the question is open.
      expect(await disk(suite.dir, file)).not.toContain('browser');
      if (choice === 'Keep mine') await screenshot(page, 'autosave-conflict');
      await dialog.getByRole('button', { name: choice }).click();
      if (choice === 'Keep mine') {
        await expect.poll(() => disk(suite.dir, file), { timeout: 10_000 }).toContain('const mine = \\"browser\\";');
        await expect.poll(() => label(page)).toBe('Saved');
      } else {
        await expect.poll(async () => (await page.locator('.cell').nth(0).locator('.view-lines, .static-source').first().innerText()).replace(/\u00a0/g, ' ')).toContain('const other');
        expect(await disk(suite.dir, file)).not.toContain('browser');
        await expect.poll(() => label(page)).toBe('Saved');
      }
      await ctx.close();
    }
  });

  it('warns on leaving only while something is unsaved', { timeout: 60_000 }, async () => {
    const ctx = await context(suite, 0);
    const page = await ctx.newPage();
    await openNotebook(page, suite.server.url, token, 'leave.ipynb');
    await typeInCell(page, '\nconst pending = 1;');
    await expect.poll(() => label(page)).toBe('Unsaved');
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.type());
      void d.dismiss();
    });
    await page.close({ runBeforeUnload: true });
    await expect.poll(() => dialogs).toEqual(['beforeunload']);
    expect(page.isClosed()).toBe(false);

    await page.keyboard.press('Control+s');
    await expect.poll(() => label(page)).toBe('Saved');
    await page.close({ runBeforeUnload: true });
    await expect.poll(() => page.isClosed()).toBe(true);
    expect(dialogs).toEqual(['beforeunload']);
    await ctx.close();
  });
});
