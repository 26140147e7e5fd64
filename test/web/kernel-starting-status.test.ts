// A notebook on a cold kernel (no spare): the status reads "starting" from the first kernel_info reply until
// the kernel can run code, never "idle" before (the issue: "Kernel: idle" while the compiler still loaded).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { startServer, type NighthawkServer } from '../../kernel/src/server/index.js';
import { buildWebApp, launchChromium, notebookJson, repoRoot } from './web-harness.js';

const hostModule = path.join(repoRoot, 'dist', 'kernel', 'src', 'server', 'display', 'session-host.js');

describe('web notebook: kernel status on a cold kernel', () => {
  let server: NighthawkServer;
  let browser: Browser;
  let sandbox: string;

  beforeAll(async () => {
    if (!existsSync(hostModule)) execFileSync(process.execPath, [path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: repoRoot, stdio: 'ignore' });
    const staticDir = await buildWebApp();
    sandbox = mkdtempSync(path.join(os.tmpdir(), 'nighthawk-starting-'));
    const notebookDir = path.join(sandbox, 'notebooks');
    server = await startServer({ notebookDir, port: 0, staticDir, hostModule, kernelCwd: repoRoot, spareKernels: 0, log: () => {} });
    writeFileSync(path.join(notebookDir, 'cold.ipynb'), notebookJson([{ source: '1 + 1' }]));
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (sandbox) rmSync(sandbox, { recursive: true, force: true });
  });

  it('reads "starting", not "idle", until the kernel can run code; then idle once', { timeout: 120_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // Every value the status element takes, from the first render on.
    await page.addInitScript(`window.__statuses = [];
      new MutationObserver(() => {
        const s = document.querySelector('.kernel-status');
        const seen = window.__statuses;
        if (s && seen[seen.length - 1] !== s.dataset.status) seen.push(s.dataset.status);
      }).observe(document, { subtree: true, attributes: true, childList: true });`);
    await page.goto(`${server.baseUrl.replace(/\/$/, '')}/?token=${server.token}&path=cold.ipynb`);
    await page.locator('.kernel-status[data-status="idle"]').waitFor({ timeout: 90_000 });
    const statuses = (await page.evaluate('window.__statuses')) as string[];
    expect(statuses).toContain('starting');
    // Idle appears once, at the end: the kernel_info reply's idle never showed.
    expect(statuses.filter((s) => s === 'idle')).toEqual(['idle']);
    expect(statuses[statuses.length - 1]).toBe('idle');
    await page.close();
  });
});
