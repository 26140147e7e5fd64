/**
 * Issue 19.2 (web side): type errors are marked while typing, before the cell runs, checked by the real
 * kernel against the declarations of the cells that ran (a name from an earlier cell is not an error).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type NighthawkServer } from '../../kernel/src/server/index.js';
import { buildWebApp, launchChromium, notebookJson, openNotebook, screenshot } from './web-harness.js';

const hostSource = fileURLToPath(new URL('./fixtures/demo-kernel-host.ts', import.meta.url));

describe('web notebook: live diagnostics from the kernel', () => {
  let server: NighthawkServer;
  let browser: Browser;
  let sandbox: string;

  beforeAll(async () => {
    const staticDir = await buildWebApp();
    sandbox = mkdtempSync(path.join(os.tmpdir(), 'nighthawk-web-diag-'));
    const hostModule = path.join(sandbox, 'demo-kernel-host.mjs');
    await esbuild.build({ entryPoints: [hostSource], outfile: hostModule, bundle: true, platform: 'node', format: 'esm', logLevel: 'silent' });
    const notebookDir = path.join(sandbox, 'notebooks');
    server = await startServer({ notebookDir, port: 0, staticDir, hostModule, spareKernels: 0, log: () => {} });
    writeFileSync(path.join(notebookDir, 'diag.ipynb'), notebookJson([{ source: 'const limit: number = 3;' }, { source: '' }]));
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (sandbox) rmSync(sandbox, { recursive: true, force: true });
  });

  it('marks a type error as you type and clears it when fixed', { timeout: 90_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 700 } });
    await page.addInitScript({ content: "localStorage.setItem('nighthawk.autosaveSeconds', '0')" });
    await openNotebook(page, server.baseUrl.replace(/\/$/, ''), server.token, 'diag.ipynb');
    await page.locator('.cell').nth(0).locator('.gutter').click();
    await page.keyboard.press('Shift+Enter');
    await page.locator('.cell').nth(0).locator('.prompt', { hasText: '[1]:' }).waitFor();
    const cell = page.locator('.cell').nth(1);
    await cell.locator('.editor-host').click();
    await cell.locator('.monaco-editor.focused').waitFor();
    // Every kernel status the page shows from here on: checks while typing are not "my code is running".
    await page.locator('.kernel-status[data-status="idle"]').waitFor();
    await page.evaluate(`(() => {
      const el = document.querySelector('.kernel-status');
      window.shownStatuses = [];
      new MutationObserver(() => window.shownStatuses.push(el.dataset.status)).observe(el, { attributes: true, attributeFilter: ['data-status'] });
    })()`);
    await page.keyboard.type('limit.toUpperCase()');
    // Monaco draws a squiggle decoration over the marked range; the hover text is the kernel's message.
    const squiggle = cell.locator('.squiggly-error');
    await squiggle.first().waitFor({ timeout: 20_000 });
    await screenshot(page, 'live-diagnostics');
    await cell.locator('.view-line span', { hasText: 'toUpperCase' }).last().hover();
    await page.locator('.monaco-hover', { hasText: "Property 'toUpperCase' does not exist on type 'number'" }).waitFor();
    await expect(page.locator('.cell').nth(1).locator('.output').count()).resolves.toBe(0);

    await page.keyboard.press('End');
    for (let i = 0; i < 'toUpperCase()'.length; i++) await page.keyboard.press('Backspace');
    await page.keyboard.type('toFixed(1)');
    await expect.poll(() => cell.locator('.squiggly-error').count(), { timeout: 20_000 }).toBe(0);
    expect(Number(await page.locator('body').getAttribute('data-diagnostics-seq'))).toBeGreaterThanOrEqual(2);
    expect(await page.evaluate('window.shownStatuses')).not.toContain('busy');
    // Running a cell does show busy (the observer works).
    await page.keyboard.press('Shift+Enter');
    await cell.locator('.prompt', { hasText: '[2]:' }).waitFor();
    expect(await page.evaluate('window.shownStatuses')).toContain('busy');
    await page.close();
  });
});
