// A notebook opens without Monaco (cells as highlighted static code); Monaco loads at the first sign of use,
// a cell edited before it arrives keeps every keystroke, editors then mount ahead of need in idle time, and a
// cell scrolled into view without one has its editor in the first frame that shows it.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { fakeNotebookSuite, openNotebook } from './web-harness.js';

const token = 'lazy-token';

/** Holds back every request for a chunk matching `pattern` until the returned function is called. */
async function holdChunk(page: Page, pattern: RegExp): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(pattern, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}
const many = Array.from({ length: 40 }, (_, i) => ({ source: `// cell ${i}\nconst v${i} = ${i};\nv${i} + 1` }));

describe('web notebook: Monaco on demand', () => {
  const suite = fakeNotebookSuite({
    token,
    notebooks: {
      'small.ipynb': [{ source: 'const a = "x";' }, { source: 'a' }],
      'many.ipynb': many,
      'huge.ipynb': Array.from({ length: 130 }, (_, i) => ({ source: `const w${i} = ${i};` })),
      'rich.ipynb': [{ type: 'markdown', source: '# Title here' }, { source: 'html()' }],
      'wide.ipynb': [{ source: `const wide = [${Array.from({ length: 60 }, (_, i) => `"item-${i}"`).join(', ')}, "last-item"];\nwide.length` }],
      // Code of 1 to 7 lines, and a saved output of 0 to 3 lines.
      'tall.ipynb': Array.from({ length: 40 }, (_, i) => ({
        source: Array.from({ length: 1 + (i % 7) }, (_, l) => `const t${i}_${l} = ${l};`).join('\n'),
        outputs: i % 4 === 0 ? [] : [{ output_type: 'stream', name: 'stdout', text: Array.from({ length: i % 4 }, (_, l) => `out ${i}.${l}\n`).join('') }],
      })),
    },
    script: (ctx) => ctx.result(ctx.code === 'html()' ? { 'text/html': '<b class="rich">bold</b>', 'text/plain': 'plain text' } : { 'text/plain': `ran: ${ctx.code}` }),
  });

  it('a cell off screen is skipped by style, layout and paint yet holds its size: the page does not change height as it scrolls', { timeout: 60_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    // Scrolling is a sign of use (Monaco starts loading): held back, so every cell keeps its static code.
    await holdChunk(page, /monaco-setup-[\w-]+\.js$/);
    await openNotebook(page, suite.server.url, token, 'tall.ipynb', { untouched: true });
    const heights = (): Promise<number[]> => page.evaluate(`[...document.querySelectorAll('.cell')].map((c) => c.getBoundingClientRect().height)`) as Promise<number[]>;
    const shown = (selector: string): Promise<boolean> => page.evaluate(`document.querySelectorAll('.cell')[39].querySelector(${JSON.stringify(selector)}).checkVisibility({ contentVisibilityAuto: true })`) as Promise<boolean>;
    const frames = (): Promise<unknown> => page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
    const before = await heights();
    // Off screen at first: the browser skipped the cell (content-visibility), its code and its output, and sized
    // it from its code's line count and its output's text.
    expect(await shown('.static-source > *')).toBe(false);
    expect(await shown('.output pre')).toBe(false);
    // Every cell drawn once (the browser then keeps its real size): none moved.
    for (let i = 0; i < 40; i += 4) {
      await page.evaluate(`document.querySelectorAll('.cell')[${i}].scrollIntoView()`);
      await frames();
    }
    await page.evaluate(`document.querySelectorAll('.cell')[39].scrollIntoView()`);
    await frames();
    expect(await shown('.static-source > *')).toBe(true);
    expect(await shown('.output pre')).toBe(true);
    const after = await heights();
    expect(after.map((h, i) => Math.abs(h - before[i]!)).filter((d) => d >= 1)).toEqual([]);
    expect(await page.evaluate(`document.querySelectorAll('.static-source')[6].getBoundingClientRect().height`)).toBe(7 * 20 + 12);
    await page.close();
  });

  it('an untouched page shows static highlighted code and never fetches Monaco', { timeout: 60_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const fetched: string[] = [];
    page.on('request', (r) => fetched.push(r.url()));
    await openNotebook(page, suite.server.url, token, 'many.ipynb', { untouched: true });
    await page.waitForTimeout(1500);
    expect(await page.locator('.monaco-editor').count()).toBe(0);
    expect(fetched.filter((u) => /monaco-setup|editor\.worker/.test(u))).toEqual([]);
    expect(await page.evaluate('document.body.dataset.monaco')).toBeUndefined();
    const first = page.locator('.cell').nth(0).locator('.static-source');
    await expect(first.locator('.tok-keyword').first().textContent()).resolves.toBe('const');
    await expect(first.innerText()).resolves.toBe('// cell 0\nconst v0 = 0;\nv0 + 1');
    // Running needs no editor either (a programmatic click: a real one moves the pointer, a sign of use).
    await page.evaluate(`document.querySelector('button[aria-label="Run all cells"], button[title="Run all cells"]').click()`);
    await page.locator('.cell').nth(39).locator('.output-execute_result', { hasText: 'ran: // cell 39' }).waitFor();
    expect(await page.locator('.monaco-editor').count()).toBe(0);
    await page.close();
  });

  it('a line wider than its cell scrolls sideways in the static code, as in the editor, instead of being cut off', { timeout: 60_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    // The wheel is a sign of use: Monaco is held back, so the cell keeps its static code.
    await holdChunk(page, /monaco-setup-[\w-]+\.js$/);
    await openNotebook(page, suite.server.url, token, 'wide.ipynb', { untouched: true });
    const code = page.locator('.cell').nth(0).locator('.static-source');
    const box = (await code.boundingBox())!;
    const scrolled = (): Promise<number> => code.evaluate((el) => el.scrollLeft);
    expect(await code.evaluate((el) => el.scrollWidth > el.clientWidth + 200)).toBe(true);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(600, 0);
    // Up to 10 s: a wheel scroll is animated, and on a loaded machine (CI beside other suites) it took over 1 s.
    await expect.poll(scrolled, { timeout: 10_000 }).toBeGreaterThan(0);
    // The end of the line can be brought into view, and the cell is still static code (no editor took its place).
    await page.mouse.wheel(100_000, 0);
    await expect.poll(() => code.evaluate((el) => el.scrollLeft + el.clientWidth >= el.scrollWidth - 1), { timeout: 10_000 }).toBe(true);
    expect(await page.locator('.monaco-editor').count()).toBe(0);
    await page.close();
  });

  it('keystrokes typed before Monaco arrives are kept, run, and handed to the editor with the cursor', { timeout: 60_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    // Monaco's chunk is held back until the test lets it through, so the edit happens before it loads.
    const release = await holdChunk(page, /monaco-setup-[\w-]+\.js$/);
    await openNotebook(page, suite.server.url, token, 'small.ipynb', { untouched: true });
    // At the start of the line (a click right of the text would put the caret at its end).
    await page.locator('.cell').nth(1).locator('.static-source').click({ position: { x: 3, y: 10 } });
    const interim = page.locator('.cell').nth(1).locator('textarea.interim-source');
    await expect(page.evaluate(`document.activeElement?.classList.contains('interim-source') && document.activeElement.closest('.cell') === document.querySelectorAll('.cell')[1]`)).resolves.toBe(true);
    await page.keyboard.type('a + ');
    await expect(interim.inputValue()).resolves.toBe('a + a');
    await page.keyboard.press('Shift+Enter');
    await page.locator('.cell').nth(1).locator('.output-execute_result', { hasText: 'ran: a + a' }).waitFor();
    // Back to the cell, one more keystroke, then Monaco arrives and takes over text and cursor.
    await page.locator('.cell').nth(1).locator('textarea.interim-source').click();
    await page.keyboard.press('End');
    await page.keyboard.type('!');
    release();
    const editor = page.locator('.cell').nth(1).locator('.monaco-editor.focused');
    await editor.waitFor();
    expect(await page.locator('textarea.interim-source').count()).toBe(0);
    await page.keyboard.type('?');
    // Monaco draws spaces as no-break spaces.
    await expect.poll(async () => (await page.locator('.cell').nth(1).locator('.view-lines').innerText()).replace(/\u00a0/g, ' ')).toBe('a + a!?');
    await page.close();
  });

  it('a click on the static code edits at once where it landed; what is typed before and after Monaco arrives is kept', { timeout: 60_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const release = await holdChunk(page, /monaco-setup-[\w-]+\.js$/);
    await openNotebook(page, suite.server.url, token, 'many.ipynb', { untouched: true });
    // The screen point of source offset `at` in cell 0's static code: the left edge of that character.
    const pointOf = (at: number): Promise<{ x: number; y: number }> => page.evaluate(`(() => {
      const pre = document.querySelectorAll('.cell')[0].querySelector('.static-source');
      const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
      let left = ${at};
      for (let t = walker.nextNode(); t; t = walker.nextNode()) {
        if (left < t.data.length) {
          const r = document.createRange(); r.setStart(t, left); r.setEnd(t, left + 1);
          const box = r.getBoundingClientRect();
          return { x: box.left + 1, y: box.top + box.height / 2 };
        }
        left -= t.data.length;
      }
      throw new Error('offset beyond the source');
    })()`);
    const source = '// cell 0\nconst v0 = 0;\nv0 + 1';
    const third = source.lastIndexOf('v0'); // line 3, column 1
    const { x, y } = await pointOf(third + 1); // between "v" and "0"
    await page.mouse.click(x, y);
    await page.keyboard.type('_');
    const interim = page.locator('.cell').nth(0).locator('textarea.interim-source');
    await expect(interim.inputValue()).resolves.toBe('// cell 0\nconst v0 = 0;\nv_0 + 1');
    release();
    await page.locator('.cell').nth(0).locator('.monaco-editor.focused').waitFor();
    await page.keyboard.type('!');
    await expect.poll(async () => (await page.locator('.cell').nth(0).locator('.view-lines').innerText()).replace(/\u00a0/g, ' '))
      .toBe('// cell 0\nconst v0 = 0;\nv_!0 + 1');
    await page.close();
  });

  it('outputs and markdown drawn before the renderers chunk arrives show text, then their rendering', { timeout: 60_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const release = await holdChunk(page, /renderers-[\w-]+\.js$/);
    await openNotebook(page, suite.server.url, token, 'rich.ipynb', { untouched: true });
    const cells = page.locator('.cell');
    await expect(cells.nth(0).locator('.markdown-pending').textContent()).resolves.toBe('# Title here');
    await page.evaluate(`document.querySelector('button[aria-label="Run all cells"]').click()`);
    await cells.nth(1).locator('.output-execute_result pre', { hasText: 'plain text' }).waitFor();
    expect(await cells.nth(1).locator('b.rich').count()).toBe(0);
    release();
    await cells.nth(0).locator('h1', { hasText: 'Title here' }).waitFor();
    await cells.nth(1).locator('.output-execute_result b.rich', { hasText: 'bold' }).waitFor();
    expect(await cells.nth(1).locator('.output-execute_result pre', { hasText: 'plain text' }).count()).toBe(0);
    await page.close();
  });

  it('editors mount ahead in idle time (up to 100); a cell beyond them has its editor in the first frame after a scroll to it', { timeout: 120_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openNotebook(page, suite.server.url, token, 'huge.ipynb');
    await page.locator('body[data-editors="mounted"]').waitFor({ state: 'attached', timeout: 90_000 });
    // The 100 nearest the top have editors; the last 30 still show static code.
    await expect(page.locator('.cell').evaluateAll((cells) => cells.map((c) => c.querySelector('.monaco-editor') !== null))).resolves
      .toEqual(Array.from({ length: 130 }, (_, i) => i < 100));
    // A cell with an editor is never contained (Monaco's widgets overflow it); the others are skipped off screen.
    await expect(page.evaluate(`[...document.querySelectorAll('.cell')].map((c) => getComputedStyle(c).contentVisibility)`)).resolves
      .toEqual(Array.from({ length: 130 }, (_, i) => (i < 100 ? 'visible' : 'auto')));
    const mountedInFirstFrame = await page.evaluate(`new Promise((resolve) => {
      const cells = document.querySelectorAll('.cell'); const last = cells[cells.length - 1];
      last.scrollIntoView();
      requestAnimationFrame(() => resolve(last.querySelector('.monaco-editor') !== null));
    })`);
    expect(mountedInFirstFrame).toBe(true);
    await page.close();
  });
});
