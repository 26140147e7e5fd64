import { describe, expect, it } from 'vitest';
import { NighthawkMime } from '../../shared/mime.js';
import { ScriptedKernelError } from '../support/web-fake-jupyter-server.js';
import { fakeNotebookSuite, openNotebook, screenshot } from './web-harness.js';

const token = 'rich-token';
// A 1×1 PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('web notebook: output rendering', () => {
  const suite = fakeNotebookSuite({
    token,
    notebooks: {
      'rich.ipynb': [{ source: 'showEverything()' }, { source: 'fail()' }],
    },
    script: (ctx) => {
        if (ctx.code.includes('fail')) throw new ScriptedKernelError('TypeError', 'x is not a function', ['\x1b[31mTypeError\x1b[0m: x is not a function', '    at <cell>:1:1']);
        ctx.stream('stdout', 'first ');
        ctx.stream('stdout', 'second\n');
        ctx.stream('stderr', '\x1b[1;33mwarning\x1b[0m: careful\n');
        ctx.display({ 'text/html': '<b class="safe">bold</b><script>window.pwned = 1</script><img src="x" onerror="window.pwned = 2">', 'text/plain': 'html' });
        ctx.display({ 'image/png': PNG, 'text/plain': 'png' });
        ctx.display({ 'image/svg+xml': '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>' });
        ctx.display({ 'text/markdown': '## Heading\n\n- item' });
        ctx.display({ 'application/json': { a: [1, 2] } });
        ctx.display({ [NighthawkMime.traceAnomaly]: { anomalyKind: 'missing-finish', message: 'operation op-7 never finished', runId: 'run-9' }, 'text/plain': 'anomaly' });
        // As the kernel shows repeats of one kind under one parent: one display, updated with the count.
        ctx.display({ [NighthawkMime.traceAnomaly]: { anomalyKind: 'frozen_value_write', message: 'Cannot assign', runId: 'run-9' }, 'text/plain': 'anomaly' }, 'nh-anomaly-run-9-4');
        ctx.updateDisplay({ [NighthawkMime.traceAnomaly]: { anomalyKind: 'frozen_value_write', message: 'Cannot assign again', runId: 'run-9', count: 250 }, 'text/plain': 'anomaly' }, 'nh-anomaly-run-9-4');
        ctx.display({ [NighthawkMime.allocationExhausted]: { resource: 'model-tokens', runId: 'run-9' }, 'text/plain': 'exhausted' });
        ctx.display({ [NighthawkMime.run]: { runId: 'broken' }, 'text/plain': 'fallback for a malformed run payload' });
        ctx.display({ 'application/x-unknown': 'whatever', 'text/plain': 'plain fallback' });
      },
  });

  it('renders streams merged, sanitized HTML, images, markdown, JSON, project types and text fallbacks', async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1100, height: 1000 } });
    await openNotebook(page, suite.server.url, token, 'rich.ipynb');
    await page.getByRole('button', { name: 'Run all cells' }).click();
    const cell = page.locator('.cell').nth(0);
    await cell.locator('.output', { hasText: 'plain fallback' }).waitFor();
    await expect(cell.locator('.output-stdout').count()).resolves.toBe(1);
    await expect(cell.locator('.output-stdout').textContent()).resolves.toBe('first second\n');
    await expect(cell.locator('.output-stderr .ansi-fg-3.ansi-bold').textContent()).resolves.toBe('warning');
    await expect(cell.locator('.output-html b.safe').textContent()).resolves.toBe('bold');
    await expect(cell.locator('.output-html script').count()).resolves.toBe(0);
    await expect(cell.locator('.output-html img').getAttribute('onerror')).resolves.toBeNull();
    await expect(page.evaluate('window.pwned')).resolves.toBeUndefined();
    await expect(cell.locator('img[data-mime="image/png"]').getAttribute('src')).resolves.toContain('data:image/png;base64,');
    await expect(cell.locator('img[data-mime="image/svg+xml"]').count()).resolves.toBe(1);
    await expect(cell.locator('.output-markdown h2').textContent()).resolves.toBe('Heading');
    await expect(cell.locator('.output-json').textContent()).resolves.toContain('"a"');
    await expect(cell.locator('.nh-anomaly').first().textContent()).resolves.toContain('operation op-7 never finished');
    await expect(cell.locator('.nh-anomaly').count()).resolves.toBe(2);
    await expect(cell.locator('.nh-anomaly').nth(1).textContent()).resolves.toMatch(/frozen_value_write ×250: Cannot assign again/);
    await expect(cell.locator('.nh-exhausted').textContent()).resolves.toContain('model-tokens');
    await expect(cell.locator('[data-mime="text/plain"]', { hasText: 'fallback for a malformed run payload' }).count()).resolves.toBe(1);
    const error = page.locator('.cell').nth(1).locator('.output-error');
    await error.waitFor();
    await expect(error.locator('.traceback .ansi-fg-1').textContent()).resolves.toBe('TypeError');
    await expect(error.textContent()).resolves.not.toContain('\x1b');
    await screenshot(page, 'rich-outputs');
    await page.close();
  });

  it('creates and renames notebooks from the file list', async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1100, height: 700 } });
    await openNotebook(page, suite.server.url, token, 'rich.ipynb');
    await page.getByRole('button', { name: 'New notebook' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('File name').fill('fresh');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await page.locator('.nb-title', { hasText: 'fresh.ipynb' }).waitFor();
    await page.getByRole('button', { name: 'Rename notebook' }).click();
    await page.getByRole('dialog').getByLabel('New file name').fill('renamed.ipynb');
    await page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();
    await page.locator('.nb-title', { hasText: 'renamed.ipynb' }).waitFor();
    await page.locator('.file-list .file.current', { hasText: 'renamed.ipynb' }).waitFor();
    await expect(page.locator('.file-list .file').allTextContents()).resolves.toEqual(['renamed.ipynb', 'rich.ipynb']);
    expect(new URL(page.url()).searchParams.get('path')).toBe('renamed.ipynb');
    await page.close();
  });
});
