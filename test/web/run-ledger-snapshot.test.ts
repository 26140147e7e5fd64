/**
 * Issue 19 "must show": a DOM snapshot of the run view and the ledger in the light and the dark theme
 * (structure, text and the computed colours that carry meaning), checked for readable contrast, plus
 * screenshots in artifacts/web/ for people.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { NighthawkMime } from '../../shared/mime.js';
import { smallLedger, smallRun } from './run-ledger-fixture.js';
import { fakeNotebookSuite, openNotebook, screenshot } from './web-harness.js';

const token = 'snapshot-token';

interface Node { tag: string; cls?: string; text?: string; color?: string; bg?: string; children?: Node[] }

/** A stable, readable rendering of a subtree: tags, classes, own text and, for badges and rows, colours. */
function snapshotScript(selector: string): string {
  return `(() => {
    const view = document.defaultView;
    const effectiveBg = (el) => {
      for (let e = el; e; e = e.parentElement) {
        const c = view.getComputedStyle(e).backgroundColor;
        if (c && c !== 'rgba(0, 0, 0, 0)' && c !== 'transparent') return c;
      }
      return view.getComputedStyle(document.body).backgroundColor;
    };
    const walk = (el) => {
      const own = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent.trim()).join(' ').trim();
      const node = { tag: el.tagName.toLowerCase() };
      const cls = [...el.classList].filter((c) => c !== 'nh-flash').join(' ');
      if (cls) node.cls = cls;
      if (own) {
        node.text = own;
        node.color = view.getComputedStyle(el).color;
        node.bg = effectiveBg(el);
      }
      const kids = [...el.children].map(walk);
      if (kids.length) node.children = kids;
      return node;
    };
    return [...document.querySelectorAll(${JSON.stringify(selector)})].map(walk);
  })()`;
}

function luminance(rgb: string): number {
  const [r, g, b] = (rgb.match(/[\d.]+/g) ?? ['0', '0', '0']).slice(0, 3).map(Number).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(a: string, b: string): number {
  const [l1, l2] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (l1! + 0.05) / (l2! + 0.05);
}

function textNodes(nodes: Node[]): Node[] {
  return nodes.flatMap((n) => [...(n.text ? [n] : []), ...textNodes(n.children ?? [])]);
}

async function render(page: Page, theme: 'light' | 'dark'): Promise<Node[]> {
  await page.addInitScript({ content: `localStorage.setItem('nighthawk.theme', '${theme}')` });
  await openNotebook(page, suite.server.url, token, 'views.ipynb');
  await page.getByRole('button', { name: 'Run all cells', exact: true }).click();
  await page.locator('.nh-ledger .nh-ledger-row[data-sequence="3"]').waitFor();
  await page.locator('.nh-ledger .nh-ledger-row[data-sequence="2"]').click();
  await page.mouse.move(0, 0);
  expect(await page.evaluate('document.documentElement.dataset.theme')).toBe(theme);
  await screenshot(page, `run-ledger-${theme}`);
  return (await page.evaluate(snapshotScript('.nh-run, .nh-ledger'))) as Node[];
}

const suite = fakeNotebookSuite({
  token,
  notebooks: { 'views.ipynb': [{ source: 'refund()' }, { source: 'nh.displayLedger()' }] },
  script: (ctx) => {
    if (ctx.code.includes('refund')) ctx.display({ [NighthawkMime.run]: smallRun(), 'text/plain': 'run' });
    else ctx.display({ [NighthawkMime.ledger]: smallLedger(), 'text/plain': 'ledger' });
  },
});

describe('web notebook: run view and ledger snapshots in both themes', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`matches the ${theme} snapshot and keeps text readable`, { timeout: 60_000 }, async () => {
      const page = await suite.browser.newPage({ viewport: { width: 1280, height: 1000 }, timezoneId: 'UTC' });
      const tree = await render(page, theme);
      expect(tree).toHaveLength(2);
      await expect(JSON.stringify(tree, null, 1)).toMatchFileSnapshot(`./__snapshots__/run-ledger-${theme}.json`);
      // Every piece of text is readable on what is behind it (WCAG AA for normal text, 4.5:1; 3:1 for the
      // small uppercase labels and ids that are secondary).
      const poor = textNodes(tree).filter((n) => contrast(n.color!, n.bg!) < (/nh-id|nh-op-kind|nh-ledger-header|columnheader/.test(n.cls ?? '') ? 3 : 4.5));
      expect(poor.map((n) => `${n.cls ?? n.tag} "${n.text}" ${n.color} on ${n.bg} (${contrast(n.color!, n.bg!).toFixed(2)})`)).toEqual([]);
      await page.close();
    });
  }

  it('the two themes differ in colour, not in structure', async () => {
    const strip = (nodes: Node[]): unknown => nodes.map(({ color: _c, bg: _b, children, ...rest }) => ({ ...rest, ...(children ? { children: strip(children) } : {}) }));
    const [light, dark] = await Promise.all((['light', 'dark'] as const).map(async (theme) => {
      const page = await suite.browser.newPage({ viewport: { width: 1280, height: 1000 }, timezoneId: 'UTC' });
      const tree = await render(page, theme);
      await page.close();
      return tree;
    }));
    expect(strip(dark!)).toEqual(strip(light!));
    expect(textNodes(dark!).map((n) => n.bg)).not.toEqual(textNodes(light!).map((n) => n.bg));
  }, 90_000);
});
