import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportLedgerHtml, exportLedgerJsonl, importLedgerJsonl, rejectOperation, step } from '../../kernel/src/index.js';
import { toolCall } from '../../kernel/src/testing.js';
import { finish, scriptedRunner, trackedCapability } from '../harness/support.js';
import { launchChromium, screenshot } from './web-harness.js';

const dir = mkdtempSync(path.join(tmpdir(), 'nh-ledger-report-'));
let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

const HOSTILE = '<img src=x onerror="window.__pwned = 1">';

/** One run: two Natural executions, a rejected operation, a skipped one, a refused capability and a trace anomaly. */
async function auditedRun() {
  const { capability } = trackedCapability('lookup');
  let turn = 0;
  const { runner } = scriptedRunner(() => {
    turn++;
    if (turn === 1) return { toolCalls: [toolCall('nh_evaluate', { expression: `refund(${JSON.stringify(HOSTILE)})` }), toolCall('lookup', { target: 'skipped' })] };
    if (turn === 3) return { toolCalls: [toolCall('nh_evaluate', { expression: 'eval("2")' }), finish()] };
    return { toolCalls: [toolCall('lookup', { target: 'order-7' }), finish()] };
  });
  const handle = runner.start(
    async (ctx) => {
      await step({ program: 'execute\nRefund the order.' });
      await step({ program: 'execute\nCheck the total.' });
      await ctx.invoke('wire_money', { amount: 1 }).catch(() => undefined);
      return 'done';
    },
    {
      grant: { capabilities: [capability] },
      label: 'refund_flow',
      oversight: { inspectOperation: (r) => (r.expression?.startsWith('refund') ? rejectOperation('refunds need approval', 'ask the operator first') : { kind: 'accept' }) },
    },
  );
  await handle.result;
  return { runner, runId: handle.runId };
}

describe('ledger export as a self-contained HTML report', () => {
  it('opened in chromium, shows the run’s call tree, its refusals and its ledger, and runs nothing from the ledger', async () => {
    const { runner, runId } = await auditedRun();
    const file = path.join(dir, 'report.html');
    writeFileSync(file, exportLedgerHtml(runner.ledger, { runId }));
    const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
    await page.goto(pathToFileURL(file).href);

    const run = page.locator('.nh-run');
    await expect(run.count()).resolves.toBe(1);
    await expect(run.locator('.nh-run-fn').textContent()).resolves.toBe('refund_flow');
    await expect(run.getAttribute('data-run-id')).resolves.toBe(runId);
    await expect(run.locator('.nh-execution').count()).resolves.toBe(2);
    const rejected = run.locator('.nh-op[data-status="rejected"]', { hasText: 'refund(' });
    await expect(run.locator('.nh-op[data-status="rejected"]').count()).resolves.toBe(2);
    await expect(rejected.locator('.nh-reason').textContent()).resolves.toBe('Rejected: refunds need approval');
    await expect(rejected.locator('.nh-guidance').textContent()).resolves.toBe('Guidance: ask the operator first');
    await expect(rejected.locator('.nh-op-label').textContent()).resolves.toBe(`refund(${JSON.stringify(HOSTILE)})`);
    await expect(run.locator('.nh-op[data-status="skipped"]').count()).resolves.toBe(2);

    const refusals = page.getByRole('region', { name: 'refusals' }).locator('tbody tr');
    const refusalText = (await refusals.allTextContents()).join('\n');
    expect(refusalText).toContain('capability wire_money');
    expect(refusalText).toContain('not-granted');
    expect(refusalText).toContain('refunds need approval');
    expect(refusalText).toContain('raw_dynamic_execution');

    const rows = page.locator('table.nh-ledger tbody tr');
    await expect(rows.count()).resolves.toBe(runner.ledger.select({ runId }).length);
    await expect(rows.first().locator('td').nth(2).textContent()).resolves.toBe('run.entry');
    await expect(rows.last().locator('td').nth(2).textContent()).resolves.toBe('run.end');

    // Model output is text in the report, never markup or script.
    await expect(page.locator('img').count()).resolves.toBe(0);
    await expect(page.evaluate('window.__pwned')).resolves.toBeUndefined();
    await screenshot(page, 'ledger-report');
    await page.close();
  });

  it('a report rebuilt from an imported JSON Lines export shows the same ledger', async () => {
    const { runner, runId } = await auditedRun();
    const imported = importLedgerJsonl(exportLedgerJsonl(runner.ledger, { runId }));
    const file = path.join(dir, 'imported.html');
    writeFileSync(file, exportLedgerHtml(imported, { runId, title: 'Imported evidence' }));
    const page = await browser.newPage();
    await page.goto(pathToFileURL(file).href);
    await expect(page.locator('h1').textContent()).resolves.toBe('Imported evidence');
    const live = runner.ledger.select({ runId }).map((e) => `${e.sequence}${e.kind}`);
    const shown = (await page.locator('table.nh-ledger tbody tr').evaluateAll((trs) => trs.map((tr) => `${tr.children[0]!.textContent}${tr.children[2]!.textContent}`)));
    expect(shown).toEqual(live);
    await expect(page.locator('.nh-execution').count()).resolves.toBe(2);
    await page.close();
  });
});
