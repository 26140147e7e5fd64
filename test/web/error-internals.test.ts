import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { openNotebook, realNotebookSuite } from './web-harness.js';

// Issue 15.8 in the web notebook: an error shows the operator's cell frames; the library's frames are one
// click away ("show internals") and are never written into the saved notebook.
describe('web notebook: errors with user frames and internals behind a toggle', () => {
  const suite = realNotebookSuite({ notebooks: {
    'errors.ipynb': [
      { source: 'function inner() {\n  throw new Error("boom inside");\n}\nfunction outer() { return inner(); }' },
      { source: 'outer()' },
    ],
  } });

  it('shows Cell [N] frames, folds library frames, and saves only what Jupyter frontends print', { timeout: 90_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1100, height: 800 } });
    await openNotebook(page, suite.base, suite.server.token, 'errors.ipynb');
    await page.getByRole('button', { name: 'Run all cells' }).click();
    const error = page.locator('.cell').nth(1).locator('.output-error');
    await error.waitFor();
    const shown = await error.locator('.traceback').first().innerText();
    expect(shown).toMatch(/^Error: boom inside/);
    expect(shown).toMatch(/at inner \(Cell \[1\], line 2\)/);
    expect(shown).not.toMatch(/file:\/\/|\.js:\d+/);
    const internals = error.locator('.traceback-internals');
    await expect(internals.isVisible()).resolves.toBe(false);
    const toggle = error.getByRole('button', { name: /Show internals \(\d+ library frames?\)/ });
    await toggle.click();
    await expect(internals.isVisible()).resolves.toBe(true);
    await expect(internals.innerText()).resolves.toMatch(/session\.js/);
    await expect(error.getByRole('button', { name: /Hide internals/ }).getAttribute('aria-expanded')).resolves.toBe('true');

    await page.keyboard.press('Control+s');
    await page.locator('body[data-draft-state="clean"]').waitFor();
    const saved = readFileSync(path.join(suite.notebookDir, 'errors.ipynb'), 'utf8');
    const output = (JSON.parse(saved) as { cells: Array<{ outputs: Array<Record<string, unknown>> }> }).cells[1]!.outputs.find((o) => o.output_type === 'error');
    expect(Object.keys(output!).sort()).toEqual(['ename', 'evalue', 'output_type', 'traceback']);
    expect(saved).not.toMatch(/file:\/\/|session\.js/);
    await page.close();
  });
});
