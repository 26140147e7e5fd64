// @jupyterlab/services is a chunk of its own (web/src/services.ts), preloaded by index.html: the notebook is drawn
// from the early response and the IndexedDB draft while that chunk is still on its way.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildWebApp, fakeNotebookSuite } from './web-harness.js';

const token = 'split-token';
const SERVICES_CHUNK = /\/assets\/services-[\w-]+\.js$/;

describe('web notebook: the services chunk', () => {
  const suite = fakeNotebookSuite({
    token,
    notebooks: { 'split.ipynb': [{ source: '1 + 1' }, { source: '2 + 2' }] },
    script: (ctx) => ctx.result({ 'text/plain': `ran: ${ctx.code}` }),
  });

  it('the entry chunk holds none of @jupyterlab/services; index.html preloads its chunk', async () => {
    const dir = await buildWebApp();
    const html = await fs.readFile(path.join(dir, 'index.html'), 'utf8');
    const entry = /<script type="module" crossorigin src="\.\/(assets\/index-[\w-]+\.js)">/.exec(html)?.[1];
    const preloaded = /<link rel="modulepreload" crossorigin href="\.\/(assets\/services-[\w-]+\.js)">/.exec(html)?.[1];
    expect(entry).toBeDefined();
    expect(preloaded).toBeDefined();
    // makeSettings: ServerConnection's, which every services call goes through.
    expect(await fs.readFile(path.join(dir, entry!), 'utf8')).not.toContain('makeSettings');
    const services = await fs.readFile(path.join(dir, preloaded!), 'utf8');
    expect(services).toContain('makeSettings');
    // Only the parts of the package the page uses (vite.config.ts, slimServicesIndex): the REST APIs for
    // kernels, sessions and contents, none of terminals, workspaces, settings, or the managers' polling.
    for (const used of ['api/kernels', 'api/sessions', 'api/contents']) expect(services, used).toContain(used);
    for (const unused of ['api/terminals', 'api/workspaces', 'api/settings', 'api/nbconvert', 'TerminalManager']) expect(services, unused).not.toContain(unused);
  });

  it('draws the notebook before the services chunk arrives, then gets its kernel and runs', { timeout: 60_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let served = false;
    await page.route(SERVICES_CHUNK, async (route) => {
      await held;
      served = true;
      await route.continue();
    });
    await page.goto(`${suite.server.url}/?token=${token}&path=split.ipynb`);
    // Waited for, not read at once: the cells may be drawn a moment after the page's first paint.
    await page.locator('.cell').nth(1).locator('.static-source', { hasText: '2 + 2' }).waitFor({ timeout: 20_000 });
    await expect(page.locator('.toolbar button[aria-label="Run all cells"]').count()).resolves.toBe(1);
    expect(served).toBe(false);
    await expect(page.locator('body').getAttribute('data-ready')).resolves.toBe('false');
    release();
    await page.locator('body[data-ready="true"]').waitFor();
    await page.locator('.kernel-status[data-status="idle"]').waitFor();
    await page.getByRole('button', { name: 'Run all cells' }).click();
    await page.locator('.cell').nth(1).locator('.output-execute_result', { hasText: 'ran: 2 + 2' }).waitFor();
    await page.close();
  });
});
