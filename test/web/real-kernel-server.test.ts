import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import * as esbuild from 'esbuild';
import { startServer, type NighthawkServer } from '../../kernel/src/server/index.js';
import { buildWebApp, launchChromium, notebookJson, openNotebook, screenshot } from './web-harness.js';

// Kernel processes run plain Node, so the TypeScript fixture host is bundled to JavaScript first.
const hostSource = fileURLToPath(new URL('./fixtures/demo-kernel-host.ts', import.meta.url));

describe('web notebook against the real kernel server', () => {
  let server: NighthawkServer;
  let browser: Browser;
  let sandbox: string;

  beforeAll(async () => {
    const staticDir = await buildWebApp();
    sandbox = mkdtempSync(path.join(os.tmpdir(), 'nighthawk-web-real-'));
    const hostModule = path.join(sandbox, 'demo-kernel-host.mjs');
    await esbuild.build({ entryPoints: [hostSource], outfile: hostModule, bundle: true, platform: 'node', format: 'esm', logLevel: 'silent' });
    const notebookDir = path.join(sandbox, 'notebooks');
    server = await startServer({ notebookDir, port: 0, staticDir, hostModule, spareKernels: 0, log: () => {} });
    writeFileSync(path.join(notebookDir, 'getting-started.ipynb'), notebookJson([
      { type: 'markdown', source: '# Real kernel' },
      { source: 'const answer = 40;\nconsole.log("stdout line");' },
      { source: '// triageIssue\nanswer + 2' },
    ]));
    writeFileSync(path.join(notebookDir, 'approve.ipynb'), notebookJson([{ source: '// askOperator\n"ran after approval"' }]));
    writeFileSync(path.join(notebookDir, 'long.ipynb'), notebookJson([{ source: 'console.log("started");\nawait new Promise((resolve) => setTimeout(resolve, 600_000));' }]));
    writeFileSync(path.join(notebookDir, 'restart.ipynb'), notebookJson([
      { source: 'const before = 1;\nconsole.log("started");\nawait new Promise((resolve) => setTimeout(resolve, 600_000));' },
      { source: 'typeof before' },
    ]));
    // A type error fails in a few milliseconds, before the rest of a run all's requests have left the browser.
    writeFileSync(path.join(notebookDir, 'fails-fast.ipynb'), notebookJson([
      { source: 'const wrong: number = "text";' },
      ...Array.from({ length: 12 }, (_, i) => ({ source: `console.log("cell ${i + 1} ran"); ${i + 1}` })),
    ]));
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (sandbox) rmSync(sandbox, { recursive: true, force: true });
  });

  const base = (): string => server.baseUrl.replace(/\/$/, '');

  it('runs all cells of the default notebook and shows values, streams and the live call tree', { timeout: 90_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openNotebook(page, base(), server.token);
    await expect(page.locator('.nb-title').textContent()).resolves.toBe('getting-started.ipynb');
    await page.getByRole('button', { name: 'Run all cells' }).click();
    await page.locator('.cell').nth(2).locator('.output-execute_result', { hasText: '42' }).waitFor();
    await expect(page.locator('.cell').nth(1).locator('.output-stdout').textContent()).resolves.toContain('stdout line');
    const rejected = page.locator('.nh-op[data-operation-id="op-1"]');
    await expect(rejected.locator('.nh-reason').textContent()).resolves.toContain('Closing issues needs a maintainer grant');
    await expect(rejected.locator('.nh-guidance').textContent()).resolves.toContain('Label the issue needs-maintainer instead');
    await expect(page.locator('.nh-op[data-operation-id="op-2"]').getAttribute('data-status')).resolves.toBe('skipped');
    await expect(page.locator('.nh-run').count()).resolves.toBe(1);
    await screenshot(page, 'real-server-run-all');
    await page.close();
  });

  it('sends the approval answer as an input_reply the kernel host receives', { timeout: 90_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 700 } });
    await openNotebook(page, base(), server.token, 'approve.ipynb');
    await page.getByRole('button', { name: 'Run all cells' }).click();
    const form = page.getByRole('form', { name: 'operator approval' });
    await form.getByRole('button', { name: 'Accept' }).click();
    await page.locator('.output', { hasText: 'operator answer: {"kind":"accept"}' }).waitFor();
    await page.locator('.output-execute_result', { hasText: 'ran after approval' }).waitFor();
    await page.close();
  });

  it('restarts the kernel under a running cell: the cell ends, the kernel reads idle, and the next cell meets a fresh kernel', { timeout: 90_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 600 } });
    await page.addInitScript({ content: `
      window.__statuses = [];
      new MutationObserver(() => {
        const status = document.querySelector('.kernel-status')?.getAttribute('data-status');
        if (status && window.__statuses.at(-1) !== status) window.__statuses.push(status);
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-status'] });` });
    await openNotebook(page, base(), server.token, 'restart.ipynb');
    await page.getByRole('button', { name: 'Run all cells' }).click();
    await page.locator('.output-stdout', { hasText: 'started' }).waitFor();
    await page.getByRole('button', { name: 'Restart kernel (0, 0)' }).click();
    await page.getByRole('button', { name: 'Restart', exact: true }).click();
    await page.locator('.kernel-status[data-status="idle"]').waitFor();
    await expect(page.locator('.cell[data-run-state="running"], .cell[data-run-state="queued"]').count()).resolves.toBe(0);
    // The second cell, run on its own, no longer finds the first cell's declaration.
    await page.locator('.cell').nth(1).locator('.static-source, .monaco-editor').first().click();
    await page.keyboard.press('Shift+Enter');
    await page.locator('.cell').nth(1).locator('.output-error', { hasText: "Cannot find name 'before'" }).waitFor();
    const statuses = (await page.evaluate('window.__statuses')) as string[];
    expect(statuses).toContain('busy');
    expect(statuses.filter((s) => s === 'unknown' || s === 'dead' || s === 'disconnected')).toEqual([]);
    await page.close();
  });

  it('run all stops at a cell that fails fast: every cell after it is aborted unrun, none left queued', { timeout: 90_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openNotebook(page, base(), server.token, 'fails-fast.ipynb');
    await page.getByRole('button', { name: 'Run all cells' }).click();
    await page.locator('.cell').nth(0).locator('.output-error', { hasText: 'TS2322' }).waitFor();
    await page.locator('.cell[data-run-state="queued"], .cell[data-run-state="running"]').first().waitFor({ state: 'detached' });
    const cells = page.locator('.cell');
    await expect(cells.evaluateAll((all) => all.map((c) => c.querySelector('.prompt')?.textContent))).resolves.toEqual(['[1]:', ...Array.from({ length: 12 }, () => '[ ]:')]);
    await expect(page.locator('.output-stdout').count()).resolves.toBe(0);
    // No cell still says it is queued.
    await expect(cells.evaluateAll((all) => all.slice(1).map((c) => c.querySelector('.elapsed')?.textContent))).resolves.toEqual(Array.from({ length: 12 }, () => ''));
    // The aborts end with that run: running a later cell again works.
    await cells.nth(3).locator('.editor-host').click();
    await page.keyboard.press('Control+Enter');
    await cells.nth(3).locator('.output-stdout', { hasText: 'cell 3 ran' }).waitFor();
    await page.close();
  });

  it('interrupts a long-running cell', { timeout: 90_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 600 } });
    await openNotebook(page, base(), server.token, 'long.ipynb');
    await page.getByRole('button', { name: 'Run all cells' }).click();
    await page.locator('.kernel-status[data-status="busy"]').waitFor();
    await page.locator('.cell[data-run-state="running"] .elapsed', { hasText: /\d+\.\d s/ }).waitFor();
    // Interrupt once the cell body runs (an interrupt during compilation is a separate kernel concern).
    await page.locator('.output-stdout', { hasText: 'started' }).waitFor();
    await page.getByRole('button', { name: 'Interrupt kernel (I, I)' }).click();
    await page.locator('.cell[data-run-state="idle"]').waitFor();
    await page.locator('.output-error').waitFor();
    await page.locator('.kernel-status[data-status="idle"]').waitFor();
    await screenshot(page, 'real-server-interrupt');
    await page.close();
  });
});
