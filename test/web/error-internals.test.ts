import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { startServer, type NighthawkServer } from '../../kernel/src/server/index.js';
import { buildWebApp, launchChromium, notebookJson, openNotebook } from './web-harness.js';

// Issue 15.8 in the web notebook: an error shows the operator's cell frames; the library's frames are one
// click away ("show internals") and are never written into the saved notebook.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const hostModule = path.join(root, 'dist', 'kernel', 'src', 'server', 'display', 'session-host.js');

describe('web notebook: errors with user frames and internals behind a toggle', () => {
  let server: NighthawkServer;
  let browser: Browser;
  let sandbox: string;
  let notebookDir: string;

  beforeAll(async () => {
    const staticDir = await buildWebApp();
    sandbox = mkdtempSync(path.join(os.tmpdir(), 'nighthawk-web-errors-'));
    notebookDir = path.join(sandbox, 'notebooks');
    server = await startServer({ notebookDir, port: 0, staticDir, hostModule, kernelCwd: root, spareKernels: 0, log: () => {} });
    writeFileSync(path.join(notebookDir, 'errors.ipynb'), notebookJson([
      { source: 'function inner() {\n  throw new Error("boom inside");\n}\nfunction outer() { return inner(); }' },
      { source: 'outer()' },
    ]));
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (sandbox) rmSync(sandbox, { recursive: true, force: true });
  });

  it('shows Cell [N] frames, folds library frames, and saves only what Jupyter frontends print', { timeout: 90_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
    await openNotebook(page, server.baseUrl.replace(/\/$/, ''), server.token, 'errors.ipynb');
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
    const saved = readFileSync(path.join(notebookDir, 'errors.ipynb'), 'utf8');
    const output = (JSON.parse(saved) as { cells: Array<{ outputs: Array<Record<string, unknown>> }> }).cells[1]!.outputs.find((o) => o.output_type === 'error');
    expect(Object.keys(output!).sort()).toEqual(['ename', 'evalue', 'output_type', 'traceback']);
    expect(saved).not.toMatch(/file:\/\/|session\.js/);
    await page.close();
  });
});
