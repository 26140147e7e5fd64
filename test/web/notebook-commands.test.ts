/**
 * Issue 19.1: the commands JupyterLab users reach for, with JupyterLab's keys, and the command palette
 * (Ctrl+Shift+C) listing every command with its key; long outputs scroll with a "show all" button.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { fakeNotebookSuite, openNotebook } from './web-harness.js';

const token = 'commands-token';

const sources = (page: Page): Promise<string[]> =>
  page.locator('.cell').evaluateAll((cells) => cells.map((c) => (c.querySelector('.view-lines, .static-source, .rendered') as { innerText: string } | null)?.innerText.replace(/\u00a0/g, ' ').trim() ?? ''));
const activeIndex = (page: Page) => page.locator('.cell').evaluateAll((cells) => cells.findIndex((c) => c.classList.contains('active')));
const outputTexts = (page: Page) => page.locator('.cell').evaluateAll((cells) => cells.map((c) => c.querySelector('.outputs')?.textContent?.trim() ?? ''));

async function palette(page: Page, query: string): Promise<void> {
  await page.keyboard.press('Control+Shift+C');
  await page.locator('.palette-input').fill(query);
  await page.keyboard.press('Enter');
  await page.locator('.palette').waitFor({ state: 'detached' });
}

async function selectCell(page: Page, index: number): Promise<void> {
  await page.locator('.cell').nth(index).locator('.gutter').click();
  expect(await activeIndex(page)).toBe(index);
}

describe('web notebook: JupyterLab commands and the command palette (issue 19.1)', () => {
  const suite = fakeNotebookSuite({
    token,
    notebooks: {
      'cmds.ipynb': [{ source: "'one'" }, { source: "'two'" }, { source: "'three'" }],
      'long.ipynb': [{ source: 'for (let i = 0; i < 400; i++) console.log(i)' }, { source: `const long = '${'x'.repeat(400)}';` }],
    },
    script: (ctx) => {
      if (ctx.code.includes('console.log(i)')) ctx.stream('stdout', Array.from({ length: 400 }, (_, i) => `line ${i}\n`).join(''));
      else ctx.result({ 'text/plain': ctx.code });
    },
  });

  it('Z undoes a delete; C/V/Shift+V/X copy, paste and cut cells', { timeout: 90_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openNotebook(page, suite.server.url, token, 'cmds.ipynb');
    await selectCell(page, 1);
    await page.keyboard.press('d');
    await page.keyboard.press('d');
    await expect.poll(() => sources(page)).toEqual(["'one'", "'three'"]);
    await page.keyboard.press('z');
    await expect.poll(() => sources(page)).toEqual(["'one'", "'two'", "'three'"]);
    expect(await activeIndex(page)).toBe(1);
    // Nothing left to undo: Z changes nothing.
    await page.keyboard.press('z');
    await expect.poll(() => sources(page)).toEqual(["'one'", "'two'", "'three'"]);

    await selectCell(page, 0);
    await page.keyboard.press('c');
    await selectCell(page, 2);
    await page.keyboard.press('v');
    await expect.poll(() => sources(page)).toEqual(["'one'", "'two'", "'three'", "'one'"]);
    expect(await activeIndex(page)).toBe(3);
    await page.keyboard.press('Shift+V');
    await expect.poll(() => sources(page)).toEqual(["'one'", "'two'", "'three'", "'one'", "'one'"]);
    const ids = await page.locator('.cell').evaluateAll((cells) => cells.map((c) => c.getAttribute('data-cell-id')));
    expect(new Set(ids).size).toBe(ids.length);

    await selectCell(page, 1);
    await page.keyboard.press('x');
    await expect.poll(() => sources(page)).toEqual(["'one'", "'three'", "'one'", "'one'"]);
    await selectCell(page, 0);
    await page.keyboard.press('Shift+V');
    await expect.poll(() => sources(page)).toEqual(["'two'", "'one'", "'three'", "'one'", "'one'"]);
    await page.close();
  });

  it('L toggles line numbers for the cell, Shift+L for all; the palette toggles long-line wrapping', { timeout: 90_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openNotebook(page, suite.server.url, token, 'long.ipynb');
    const lineNumbers = () => page.locator('.cell').evaluateAll((cells) => cells.map((c) => c.querySelectorAll('.line-numbers').length > 0));
    await page.locator('.cell').nth(1).locator('.monaco-editor').waitFor();
    await page.locator('.cell').nth(0).locator('.monaco-editor').waitFor();
    expect(await lineNumbers()).toEqual([false, false]);
    await selectCell(page, 0);
    await page.keyboard.press('l');
    await expect.poll(lineNumbers).toEqual([true, false]);
    await page.keyboard.press('Shift+L');
    await expect.poll(lineNumbers).toEqual([true, true]);
    await page.keyboard.press('Shift+L');
    await expect.poll(lineNumbers).toEqual([false, false]);

    const longCell = page.locator('.cell').nth(1);
    const viewLines = () => longCell.locator('.view-line').count();
    expect(await viewLines()).toBe(1);
    await palette(page, 'wrapping');
    await expect.poll(viewLines).toBeGreaterThan(1);
    await expect(longCell.getAttribute('data-word-wrap')).resolves.toBe('true');
    await palette(page, 'wrapping');
    await expect.poll(viewLines).toBe(1);
    await page.close();
  });

  it('a 400-line print scrolls in a bounded box with "show all", and expands on request', { timeout: 90_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openNotebook(page, suite.server.url, token, 'long.ipynb');
    await selectCell(page, 0);
    await page.keyboard.press('Control+Enter');
    const output = page.locator('.cell').nth(0).locator('.output-stream');
    await output.waitFor();
    await expect.poll(() => output.textContent()).toContain('line 399');
    const box = await output.boundingBox();
    expect(box!.height).toBeLessThan(600);
    const more = page.getByRole('button', { name: 'Show all 400 lines' });
    await more.click();
    expect((await output.boundingBox())!.height).toBeGreaterThan(5000);
    await page.getByRole('button', { name: 'Show less' }).click();
    expect((await output.boundingBox())!.height).toBeLessThan(600);
    await page.close();
  });

  it('clears outputs, restarts and runs all, restarts and clears, from the palette', { timeout: 90_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openNotebook(page, suite.server.url, token, 'cmds.ipynb');
    await page.getByRole('button', { name: 'Run all cells', exact: true }).click();
    await page.locator('.cell').nth(2).locator('.output-execute_result').waitFor();
    expect(await outputTexts(page)).toEqual(["'one'", "'two'", "'three'"]);

    await selectCell(page, 1);
    await palette(page, 'clear cell output');
    expect(await outputTexts(page)).toEqual(["'one'", '', "'three'"]);
    expect(await page.locator('.cell').nth(1).locator('.prompt').textContent()).toBe('[ ]:');

    await palette(page, 'clear outputs of all');
    expect(await outputTexts(page)).toEqual(['', '', '']);

    const executed = (): number => suite.server.received.filter((f) => f.header.msg_type === 'execute_request').length;
    const before = executed();
    await palette(page, 'restart run all');
    await page.getByRole('button', { name: 'Restart', exact: true }).click();
    await page.locator('.cell').nth(2).locator('.output-execute_result').waitFor();
    expect(await outputTexts(page)).toEqual(["'one'", "'two'", "'three'"]);
    expect(executed()).toBe(before + 3);

    await palette(page, 'restart clear');
    await page.getByRole('button', { name: 'Restart', exact: true }).click();
    await expect.poll(() => outputTexts(page)).toEqual(['', '', '']);
    // Keys still work after the dialog and the palette closed.
    await page.keyboard.press('b');
    expect(await page.locator('.cell').count()).toBe(4);
    await page.close();
  });

  it('the command palette lists every command with its JupyterLab key and filters as you type', { timeout: 90_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openNotebook(page, suite.server.url, token, 'cmds.ipynb');
    await page.keyboard.press('Control+Shift+C');
    const items = await page.locator('.palette-item').evaluateAll((els) => els.map((e) => [e.querySelector('.palette-label')?.textContent, e.querySelector('.palette-keys')?.textContent ?? '']));
    const byLabel = new Map(items as Array<[string, string]>);
    const expected: Record<string, string> = {
      'Run cell and select below': 'Shift+Enter', 'Run cell': 'Ctrl+Enter', 'Run cell and insert below': 'Alt+Enter',
      'Insert cell above': 'A', 'Insert cell below': 'B', 'Delete cell': 'D D', 'Undo cell delete': 'Z',
      'Copy cell': 'C', 'Cut cell': 'X', 'Paste cell below': 'V', 'Paste cell above': 'Shift+V',
      'Change cell to markdown': 'M', 'Change cell to code': 'Y', 'Merge with cell below': 'Shift+M',
      'Select cell above': 'K or ArrowUp', 'Select cell below': 'J or ArrowDown',
      'Toggle line numbers (this cell)': 'L', 'Toggle line numbers (all cells)': 'Shift+L',
      'Interrupt kernel': 'I I', 'Restart kernel': '0 0', 'Save notebook': 'Ctrl+S', 'Command palette': 'Ctrl+Shift+C',
      'Clear cell output': '', 'Clear outputs of all cells': '', 'Restart kernel and run all cells': '',
      'Restart kernel and clear all outputs': '', 'Toggle long-line wrapping': '', 'Download notebook (.ipynb)': '',
    };
    for (const [label, key] of Object.entries(expected)) expect(byLabel.get(label), label).toBe(key);
    await page.locator('.palette-input').fill('undo');
    await expect(page.locator('.palette-item').allTextContents()).resolves.toEqual(['Undo cell deleteZ']);
    await page.keyboard.press('Escape');
    await page.locator('.palette').waitFor({ state: 'detached' });
    // The palette also opens from edit mode and hands focus back to the editor.
    await page.locator('.cell').nth(0).locator('.editor-host').click();
    await page.locator('.cell').nth(0).locator('.monaco-editor.focused').waitFor();
    await page.keyboard.press('Control+Shift+C');
    await page.locator('.palette').waitFor();
    await page.keyboard.press('Escape');
    await page.locator('.cell').nth(0).locator('.monaco-editor.focused').waitFor();
    await page.close();
  });
});
