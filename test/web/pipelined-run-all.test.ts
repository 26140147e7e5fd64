import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ScriptedKernelError } from '../support/web-fake-jupyter-server.js';
import { fakeNotebookSuite, openNotebook } from './web-harness.js';

const token = 'pipeline-token';

const outputs = (page: Page) =>
  page.locator('.cell').evaluateAll((cells) => cells.map((c) => c.querySelector('.output-execute_result, .output-error')?.textContent?.trim() ?? ''));
const requested = (code: string): boolean => suite.server.received.some((f) => f.header.msg_type === 'execute_request' && f.content.code === code);
const ran: string[] = [];

// The scripted kernel (like ipykernel) runs requests in order and aborts the queued rest after an error.
// A cell `first:X` finishes only once the server has received the request of the cell whose source is X (the
// notebook's last): a notebook that sends one request at a time and waits for each reply never gets there.
const suite = fakeNotebookSuite({
  token,
  notebooks: {
    'wait.ipynb': [{ source: 'first:"d"' }, { source: '"b"' }, { source: '"c"' }, { source: '"d"' }],
    'fails.ipynb': [{ source: 'first:"four"' }, { source: 'fail' }, { source: '"three"' }, { source: '"four"' }],
  },
  script: async (ctx) => {
    ran.push(ctx.code);
    if (ctx.code.startsWith('first:')) {
      const last = ctx.code.slice('first:'.length);
      const deadline = Date.now() + 5000;
      while (!requested(last) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      ctx.result({ 'text/plain': requested(last) ? 'the last cell was already requested' : 'the last cell was not requested yet' });
      return;
    }
    if (ctx.code === 'fail') throw new ScriptedKernelError('Error', 'this cell fails');
    ctx.result({ 'text/plain': ctx.code });
  },
});

describe('web notebook: pipelined run all', () => {
  it('sends every cell\'s execute request at once; the kernel runs them in order', { timeout: 90_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openNotebook(page, suite.server.url, token, 'wait.ipynb');
    await page.getByRole('button', { name: 'Run all cells' }).click();
    await page.locator('.cell').nth(3).locator('.output-execute_result').waitFor();
    expect(await outputs(page)).toEqual(['the last cell was already requested', '"b"', '"c"', '"d"']);
    expect(await page.locator('.cell').evaluateAll((cells) => cells.map((c) => c.querySelector('.prompt')?.textContent))).toEqual(['[1]:', '[2]:', '[3]:', '[4]:']);
    await page.close();
  });

  it('after an error the queued cells are aborted unrun: no output, no count, not left queued', { timeout: 90_000 }, async () => {
    ran.length = 0;
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openNotebook(page, suite.server.url, token, 'fails.ipynb');
    await page.getByRole('button', { name: 'Run all cells' }).click();
    await page.locator('.cell').nth(1).locator('.output-error').waitFor();
    await page.locator('.cell[data-run-state="queued"], .cell[data-run-state="running"]').first().waitFor({ state: 'detached' });
    expect(ran).toEqual(['first:"four"', 'fail']);
    const texts = await outputs(page);
    expect(texts[0]).toBe('the last cell was already requested');
    expect(texts[1]).toContain('this cell fails');
    expect(texts.slice(2)).toEqual(['', '']);
    expect(await page.locator('.cell').evaluateAll((cells) => cells.map((c) => c.querySelector('.prompt')?.textContent))).toEqual(['[1]:', '[2]:', '[ ]:', '[ ]:']);
    // The aborts do not stick: running a later cell again works.
    await page.locator('.cell').nth(3).locator('.editor-host').click();
    await page.keyboard.press('Control+Enter');
    await page.locator('.cell').nth(3).locator('.output-execute_result').waitFor();
    expect((await outputs(page))[3]).toBe('"four"');
    await page.close();
  });
});
