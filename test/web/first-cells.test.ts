// What a newcomer writes first, in the web notebook against the real Session kernel (the built library):
// a Natural function defined and called in one cell, and a throwing cell whose earlier declarations stay.
import { describe, expect, it } from 'vitest';
import { openNotebook, realNotebookSuite, screenshot } from './web-harness.js';

const DEFINE_AND_CALL = `import * as nh from "nighthawk-ts";
import { ScriptedModel, toolCall } from "nighthawk-ts/testing";
const model = new ScriptedModel([
  () => ({ toolCalls: [toolCall("nh_assign", { target_path: "greeting", expression: '"Hello, Ada"' }), toolCall("nh_output", { result: { kind: "pass" } })] }),
]);
nh.activeSession()!.configure({ executor: new nh.AgentExecutor({ model }), oversight: {} });
const greet = nh.function(async function greet(name: string): Promise<string> {
  let greeting = "";
  \`execute
  Greet <name> warmly into <:greeting>.\`;
  return greeting;
});
await greet("Ada")`;

describe('web notebook: the first cells a newcomer writes', () => {
  const suite = realNotebookSuite({ notebooks: {
    'define-and-call.ipynb': [{ source: DEFINE_AND_CALL }],
    'throwing.ipynb': [{ source: 'const keepMe = 41;\nthrow new Error("boom after keepMe");' }, { source: 'keepMe + 1' }],
  } });

  it('a Natural function defined and called in one cell shows the run view', { timeout: 120_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openNotebook(page, suite.base, suite.server.token, 'define-and-call.ipynb');
    await page.getByRole('button', { name: 'Run all cells' }).click();
    const cell = page.locator('.cell').nth(0);
    await cell.locator('.output-execute_result', { hasText: 'Hello, Ada' }).waitFor({ timeout: 90_000 });
    const run = cell.locator('.nh-run');
    await expect(run.count()).resolves.toBe(1);
    await expect(run.getAttribute('class')).resolves.toContain('nh-run-completed');
    await expect(run.locator('.nh-run-fn').textContent()).resolves.toBe('greet');
    await expect(cell.locator('.output-error').count()).resolves.toBe(0);
    await screenshot(page, 'first-cells-define-and-call');
    await page.close();
  });

  it("a throwing cell's earlier declarations are usable in the next cell", { timeout: 120_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openNotebook(page, suite.base, suite.server.token, 'throwing.ipynb');
    const cells = page.locator('.cell');
    await cells.nth(0).hover();
    await cells.nth(0).getByRole('button', { name: 'Run cell', exact: true }).click();
    await cells.nth(0).locator('.output-error', { hasText: 'boom after keepMe' }).waitFor({ timeout: 90_000 });
    await page.locator('.kernel-status[data-status="idle"]').waitFor();
    await cells.nth(1).hover();
    await cells.nth(1).getByRole('button', { name: 'Run cell', exact: true }).click();
    await cells.nth(1).locator('.output-execute_result', { hasText: '42' }).waitFor({ timeout: 30_000 });
    await expect(cells.nth(1).locator('.output-error').count()).resolves.toBe(0);
    await screenshot(page, 'first-cells-throw-keeps-declarations');
    await page.close();
  });
  it('the kernel list shows running kernels and shuts one down', { timeout: 120_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openNotebook(page, suite.base, suite.server.token, 'throwing.ipynb');
    const extra = await fetch(`${suite.base}/api/kernels`, { method: 'POST', headers: { Authorization: `token ${suite.server.token}`, 'Content-Type': 'application/json' }, body: '{}' });
    const { id } = (await extra.json()) as { id: string };
    const panel = page.getByRole('region', { name: 'kernels' });
    await panel.getByRole('button', { name: 'Refresh kernel list' }).click();
    await panel.locator(`.kernel-item[data-kernel-id="${id}"]`).waitFor();
    await expect(panel.locator('.kernel-item.current').count()).resolves.toBe(1);
    // Each row's shut-down button sits beside its description, inside the sidebar, never over the text.
    for (const row of await panel.locator('.kernel-item').all()) {
      const desc = (await row.locator('.kernel-desc').boundingBox())!;
      const shut = (await row.getByRole('button').boundingBox())!;
      const sidebar = (await page.locator('.sidebar').boundingBox())!;
      expect(shut.x).toBeGreaterThanOrEqual(desc.x + desc.width);
      expect(shut.x + shut.width).toBeLessThanOrEqual(sidebar.x + sidebar.width);
    }
    await panel.getByRole('button', { name: `Shut down kernel ${id.slice(0, 8)}` }).click();
    await panel.locator(`.kernel-item[data-kernel-id="${id}"]`).waitFor({ state: 'detached' });
    expect(suite.server.kernels.get(id)).toBeUndefined();
    await expect(panel.locator('.kernel-item.current').count()).resolves.toBe(1);
    await screenshot(page, 'first-cells-kernel-list');
    await page.close();
  });
});
