/**
 * An executed demo notebook opens in the web notebook with its inline views: operation-feedback is run
 * headless (the `npm run nb` runner), saved into the served notebooks directory, and opened in chromium
 * from the real kernel server and the built web app, without running any cell again.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser } from 'playwright-core';
import { startServer, type NighthawkServer } from '../../kernel/src/server/index.js';
import { builtHostModule } from '../../kernel/src/server/runner/nb-build.js';
import { serializeNotebook } from '../../kernel/src/server/runner/nb-format.js';
import { runNotebook } from '../../kernel/src/server/runner/nb-runner.js';
import { buildWebApp, launchChromium, openNotebook, repoRoot, screenshot } from './web-harness.js';

describe('an executed demo notebook in the web notebook', () => {
  let server: NighthawkServer;
  let browser: Browser;
  let sandbox: string;

  beforeAll(async () => {
    vi.spyOn(console, 'debug').mockImplementation(() => {});
    sandbox = mkdtempSync(path.join(os.tmpdir(), 'nighthawk-web-executed-'));
    const notebookDir = path.join(sandbox, 'notebooks');
    mkdirSync(notebookDir);
    const [executed, staticDir] = await Promise.all([
      runNotebook(path.join(repoRoot, 'notebooks', 'operation-feedback.ipynb'), { log: () => {} }),
      buildWebApp(),
    ]);
    expect(executed.failed).toBeUndefined();
    writeFileSync(path.join(notebookDir, 'operation-feedback.ipynb'), serializeNotebook(executed.notebook));
    server = await startServer({ notebookDir, port: 0, staticDir, hostModule: builtHostModule(), kernelCwd: repoRoot, spareKernels: 0, log: () => {} });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (sandbox) rmSync(sandbox, { recursive: true, force: true });
  });

  it('shows the refusal with reason and guidance, the abort, and the skipped sibling blocked by the refusal', { timeout: 90_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openNotebook(page, server.baseUrl.replace(/\/$/, ''), server.token, 'operation-feedback.ipynb');
    await expect(page.locator('.nb-title').textContent()).resolves.toBe('operation-feedback.ipynb');
    await expect(page.locator('.nh-run').count()).resolves.toBe(5);
    await expect(page.locator('.output-error').count()).resolves.toBe(0);

    const calculate = page.getByRole('region', { name: 'run calculate' });
    const refused = calculate.locator('.nh-op[data-status="rejected"]');
    await expect(refused.locator('.nh-reason').textContent()).resolves.toContain('This helper is unavailable.');
    await expect(refused.locator('.nh-guidance').textContent()).resolves.toContain('Evaluate 1 + 1 instead.');

    await expect(page.getByRole('region', { name: 'run cleanUp' }).locator('.nh-op[data-status="aborted"] .nh-abort').textContent()).resolves.toContain(
      'Wiping a disk is never part of this task.',
    );

    const tally = page.getByRole('region', { name: 'run tally' });
    const skipped = tally.locator('.nh-op[data-status="skipped"]');
    await expect(skipped.count()).resolves.toBe(1);
    const blocker = await tally.locator('.nh-op[data-status="rejected"]').getAttribute('data-operation-id');
    await expect(skipped.locator('.nh-blocked-link').textContent()).resolves.toBe(blocker);
    await expect(skipped.locator('.nh-op-kind').textContent()).resolves.toBe('evaluate');
    await expect(skipped.locator('.nh-blocked').textContent()).resolves.toContain('did not complete');
    await skipped.scrollIntoViewIfNeeded();
    expect(await skipped.isVisible()).toBe(true);
    await screenshot(page, 'executed-operation-feedback');
    await page.close();
  });
});
