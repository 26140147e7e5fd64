/** Issue 19.1 (file browser): new folder, walk into it, upload a notebook there, delete files and folders. */
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeNotebookSuite, notebookJson, openNotebook } from './web-harness.js';

const token = 'files-token';

describe('web notebook: file browser operations', () => {
  const suite = fakeNotebookSuite({ token, notebooks: { 'main.ipynb': [{ source: '1' }], 'old.ipynb': [{ source: '2' }] } });

  it('makes a folder, uploads into it, deletes a notebook and the emptied folder', { timeout: 60_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1100, height: 700 } });
    await openNotebook(page, suite.server.url, token, 'main.ipynb');
    const files = page.locator('.file-list');

    await page.getByRole('button', { name: 'New folder' }).click();
    await page.locator('#dialog-input').fill('drafts');
    await page.getByRole('button', { name: 'OK', exact: true }).click();
    await files.getByRole('button', { name: 'Open folder drafts' }).click();
    expect((await fs.stat(path.join(suite.dir, 'drafts'))).isDirectory()).toBe(true);
    await expect.poll(() => page.locator('.file-crumbs').innerText()).toContain('drafts');

    const upload = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'nh-upload-')), 'uploaded.ipynb');
    await fs.writeFile(upload, notebookJson([{ source: 'const uploaded = true;' }]));
    await page.locator('input[type="file"]').setInputFiles(upload);
    await files.locator('.file', { hasText: 'uploaded.ipynb' }).waitFor();
    expect(JSON.parse(await fs.readFile(path.join(suite.dir, 'drafts', 'uploaded.ipynb'), 'utf8')).cells[0].source).toContain('const uploaded = true;');

    // A file that is not a notebook is refused with a message; nothing is written.
    const bad = path.join(path.dirname(upload), 'notes.txt');
    await fs.writeFile(bad, 'hello');
    await page.locator('input[type="file"]').setInputFiles(bad);
    await page.locator('.toast', { hasText: 'Cannot upload notes.txt' }).waitFor();
    expect(existsSync(path.join(suite.dir, 'drafts', 'notes.txt'))).toBe(false);

    // A non-empty folder is not deleted.
    await page.locator('.file-crumbs').getByRole('button', { name: 'Notebooks folder' }).click();
    await files.getByRole('button', { name: 'Delete drafts' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.locator('.toast', { hasText: 'Cannot delete drafts' }).waitFor();
    expect(existsSync(path.join(suite.dir, 'drafts'))).toBe(true);

    await files.getByRole('button', { name: 'Open folder drafts' }).click();
    await files.getByRole('button', { name: 'Delete uploaded.ipynb' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => existsSync(path.join(suite.dir, 'drafts', 'uploaded.ipynb'))).toBe(false);
    await page.locator('.file-crumbs').getByRole('button', { name: 'Notebooks folder' }).click();
    await files.getByRole('button', { name: 'Delete drafts' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => existsSync(path.join(suite.dir, 'drafts'))).toBe(false);

    // Cancel keeps the file; Delete removes it.
    await files.getByRole('button', { name: 'Delete old.ipynb' }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(existsSync(path.join(suite.dir, 'old.ipynb'))).toBe(true);
    await files.getByRole('button', { name: 'Delete old.ipynb' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => files.locator('.file').allTextContents()).toEqual(['main.ipynb']);
    expect(existsSync(path.join(suite.dir, 'old.ipynb'))).toBe(false);

    // Deleting the open notebook closes it: the controls that act on a notebook are disabled, the palette is not.
    await expect(page.getByRole('button', { name: 'Run all cells' }).isEnabled()).resolves.toBe(true);
    await files.getByRole('button', { name: 'Delete main.ipynb' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.locator('.empty', { hasText: 'The notebook was deleted' }).waitFor();
    for (const name of ['Run all cells', 'Save notebook (Ctrl-S)', 'Insert cell below (B)', 'Rename notebook']) {
      expect(await page.getByRole('button', { name, exact: true }).isDisabled(), name).toBe(true);
    }
    expect(await page.getByRole('combobox', { name: 'cell type' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Command palette (Ctrl-Shift-C)' }).isEnabled()).toBe(true);
    await page.close();
  });
});
