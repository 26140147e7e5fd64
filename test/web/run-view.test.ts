/** Issue 19.5 (web side): the run view shows EVALUATE values, output outcomes and printed text in time order. */
import { describe, expect, it } from 'vitest';
import { NighthawkMime } from '../../shared/mime.js';
import { smallRun } from './run-ledger-fixture.js';
import { fakeNotebookSuite, openNotebook } from './web-harness.js';

const token = 'run-view-token';

describe('web notebook: run view rows (issue 19.5)', () => {
  const long = 'x'.repeat(190);
  const suite = fakeNotebookSuite({
    token,
    notebooks: { 'run.ipynb': [{ source: 'refund()' }] },
    script: (ctx) => {
      const run = smallRun();
      (run.executions[0]!.operations[0] as Record<string, unknown>).valuePreview = `"${long}"`;
      ctx.display({ [NighthawkMime.run]: smallRun(), 'text/plain': 'run' });
      ctx.display({ [NighthawkMime.run]: { ...run, runId: 'run_long' }, 'text/plain': 'run' });
    },
  });

  it('shows values, outcomes and interleaved stdout', { timeout: 90_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openNotebook(page, suite.server.url, token, 'run.ipynb');
    await page.getByRole('button', { name: 'Run all cells', exact: true }).click();
    const run = page.locator('.nh-run').first();
    await run.waitFor();
    const evaluate = run.locator('[data-operation-id="op_A1"]');
    await expect(evaluate.locator('.nh-op-value').textContent()).resolves.toBe('→ 1250');
    const output = run.locator('[data-operation-id="op_A3"]');
    await expect(output.locator('.nh-op-label').textContent()).resolves.toBe("return 'escalated'");
    const rowsText = await run.locator('.nh-op-head').allInnerTexts();
    expect(rowsText.join('\n').toLowerCase()).not.toContain('output output');

    // DOM order is time order: print, op 1, op 2, print, op 3, then the run-level print after the step.
    const order = await run.locator('.nh-stream, .nh-op').evaluateAll((els) => els.map((e) => e.classList.contains('nh-stream') ? `print:${e.textContent}` : `op:${e.getAttribute('data-operation-id')}`));
    expect(order).toEqual(['print:looking up order 88231', 'op:op_A1', 'op:op_A2', 'print:refund refused, escalating', 'op:op_A3', 'print:done']);

    // A long value is bounded on the row; the whole preview is on hover.
    const bounded = page.locator('.nh-run[data-run-id="run_long"] [data-operation-id="op_A1"] .nh-op-value');
    const shown = (await bounded.textContent())!;
    expect(shown.length).toBeLessThanOrEqual(122);
    expect(shown.endsWith('…')).toBe(true);
    await expect(bounded.getAttribute('title')).resolves.toBe(`"${long}"`);
    await page.close();
  });
});
