import { describe, expect, it } from 'vitest';
import { fakeNotebookSuite, openNotebook, screenshot } from './web-harness.js';

const token = 'interrupt-token';

describe('web notebook: interrupting a long cell', () => {
  const suite = fakeNotebookSuite({
    token,
    notebooks: {
      'long.ipynb': [{ source: 'await waitForever();' }, { source: 'console.log("after");' }],
    },
    script: async (ctx) => {
        if (ctx.code.includes('after')) return ctx.stream('stdout', 'after ran\n');
        ctx.stream('stdout', 'working…\n');
        // Runs until the kernel is interrupted through the REST API.
        await new Promise<void>((resolve) => ctx.interrupted.addEventListener('abort', () => resolve()));
      },
  });

  it('shows the running cell with elapsed time, interrupts it, and drops the queued cells', async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1100, height: 600 } });
    await openNotebook(page, suite.server.url, token, 'long.ipynb');
    await page.getByRole('button', { name: 'Run all cells' }).click();
    const first = page.locator('.cell').nth(0);
    await first.locator('.output-stdout', { hasText: 'working' }).waitFor();
    await expect(first.getAttribute('data-run-state')).resolves.toBe('running');
    await expect(page.locator('.cell').nth(1).getAttribute('data-run-state')).resolves.toBe('queued');
    await expect(first.locator('.prompt').textContent()).resolves.toBe('[*]:');
    await first.locator('.elapsed', { hasText: /\d+\.\d s/ }).waitFor();
    await page.locator('.kernel-status[data-status="busy"]').waitFor();
    await screenshot(page, 'interrupt-running');
    await page.getByRole('button', { name: 'Interrupt kernel (I, I)' }).click();
    await first.locator('.output-error', { hasText: 'KeyboardInterrupt' }).waitFor();
    await page.locator('.cell[data-run-state="running"], .cell[data-run-state="queued"]').first().waitFor({ state: 'detached' });
    await expect(first.locator('.prompt').textContent()).resolves.toBe('[1]:');
    await expect(page.locator('.cell').nth(1).locator('.outputs').textContent()).resolves.toBe('');
    expect(suite.server.interruptCount()).toBe(1);
    await screenshot(page, 'interrupt-done');
    await page.close();
  });
});
