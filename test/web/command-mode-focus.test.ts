/**
 * Issue 15.1: command-mode keys keep working after a click on a cell's gutter, a rendered markdown cell,
 * an output area or the interrupt button. Each click is followed by each shortcut; every assertion is
 * relative to the clicked cell so a dead key (nothing changes) fails.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { fakeNotebookSuite, openNotebook } from './web-harness.js';

const token = 'focus-token';

const notebook = {
  nbformat: 4,
  nbformat_minor: 5,
  metadata: {},
  cells: [
    { id: 'c0', cell_type: 'code', metadata: {}, source: "'zero'", execution_count: null, outputs: [] },
    { id: 'c1', cell_type: 'markdown', metadata: {}, source: '# One heading' },
    { id: 'c2', cell_type: 'code', metadata: {}, source: "'two'", execution_count: 1, outputs: [{ output_type: 'execute_result', execution_count: 1, metadata: {}, data: { 'text/plain': "'two'" } }] },
    { id: 'c3', cell_type: 'markdown', metadata: {}, source: '# Three' },
    { id: 'c4', cell_type: 'code', metadata: {}, source: "'four'", execution_count: null, outputs: [] },
  ],
};

type ClickKind = 'gutter' | 'markdown' | 'output' | 'interrupt';

const targetCell: Record<ClickKind, string> = { gutter: 'c2', markdown: 'c1', output: 'c2', interrupt: 'c2' };

async function clickTarget(page: Page, kind: ClickKind): Promise<void> {
  const cell = page.locator(`.cell[data-cell-id="${targetCell[kind]}"]`);
  if (kind === 'gutter') await cell.locator('.gutter').click();
  else if (kind === 'markdown') await cell.locator('.rendered').click();
  else if (kind === 'output') await cell.locator('.outputs').click();
  else {
    await cell.locator('.gutter').click();
    await page.getByRole('button', { name: /^Interrupt kernel/ }).click();
  }
}

const state = (page: Page, id: string) =>
  page.locator('.cell').evaluateAll((cells, cellId) => ({
    count: cells.length,
    active: cells.findIndex((c) => c.classList.contains('active')),
    index: cells.findIndex((c) => c.getAttribute('data-cell-id') === cellId),
    type: cells.find((c) => c.getAttribute('data-cell-id') === cellId)?.className.match(/cell-(code|markdown)/)?.[1],
    prompt: cells.find((c) => c.getAttribute('data-cell-id') === cellId)?.querySelector('.prompt')?.textContent,
  }), id);

describe('web notebook: command-mode keys after a click (issue 15.1)', () => {
  const suite = fakeNotebookSuite({ token, notebooks: {}, script: (ctx) => ctx.result({ 'text/plain': ctx.code }) });
  beforeAll(async () => {
    await fs.writeFile(path.join(suite.dir, 'focus.ipynb'), JSON.stringify(notebook));
  });

  for (const kind of ['gutter', 'markdown', 'output', 'interrupt'] as const) {
    it(`keys work after clicking ${kind === 'interrupt' ? 'the interrupt button' : `a ${kind}`}`, { timeout: 90_000 }, async () => {
      const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
      await openNotebook(page, suite.server.url, token, 'focus.ipynb');
      const id = targetCell[kind];
      const press = async (keys: string[]): Promise<{ before: Awaited<ReturnType<typeof state>>; after: Awaited<ReturnType<typeof state>> }> => {
        await clickTarget(page, kind);
        const before = await state(page, id);
        expect(before.active, `clicking the ${kind} selects its cell`).toBe(before.index);
        for (const key of keys) await page.keyboard.press(key);
        await page.waitForTimeout(50);
        return { before, after: await state(page, id) };
      };
      for (const key of ['ArrowDown', 'j']) {
        const { before, after } = await press([key]);
        expect(after.active, `${key} after ${kind}`).toBe(before.index + 1);
      }
      for (const key of ['ArrowUp', 'k']) {
        const { before, after } = await press([key]);
        expect(after.active, `${key} after ${kind}`).toBe(before.index - 1);
      }
      {
        const { before, after } = await press(['a']);
        expect(after.count, `A after ${kind}`).toBe(before.count + 1);
        expect(after.index).toBe(before.index + 1);
        expect(after.active).toBe(before.index);
      }
      {
        const { before, after } = await press(['b']);
        expect(after.count, `B after ${kind}`).toBe(before.count + 1);
        expect(after.active).toBe(before.index + 1);
      }
      if (kind === 'markdown') {
        const { after } = await press(['Shift+Enter']);
        expect(after.active, `Shift+Enter after ${kind} renders and advances`).toBe(after.index + 1);
      } else {
        const executed = (): number => suite.server.received.filter((f) => f.header.msg_type === 'execute_request').length;
        const runs = executed();
        const { before, after } = await press(['Shift+Enter']);
        expect(after.active, `Shift+Enter after ${kind}`).toBe(before.index + 1);
        await expect.poll(executed, { timeout: 5000 }).toBe(runs + 1);
        await expect.poll(async () => (await state(page, id)).prompt).toMatch(/^\[\d+\]:$/);
        const { after: typed } = await press(['m']);
        expect(typed.type, `M after ${kind}`).toBe('markdown');
        await page.keyboard.press('y');
        expect((await state(page, id)).type).toBe('code');
        // Changing to markdown dropped the output; run the cell again so the output target exists.
        await page.locator(`.cell[data-cell-id="${id}"] .cell-toolbar`).getByRole('button', { name: 'Run cell' }).click();
        await page.locator(`.cell[data-cell-id="${id}"] .output-execute_result`).waitFor();
      }
      {
        const { before, after } = await press(['d', 'd']);
        expect(after.count, `D D after ${kind}`).toBe(before.count - 1);
        expect(after.index).toBe(-1);
      }
      await page.close();
    });
  }
});
