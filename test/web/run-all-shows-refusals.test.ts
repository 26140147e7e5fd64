import { describe, expect, it } from 'vitest';
import { NighthawkMime } from '../../shared/mime.js';
import type { RunPayload } from '../../shared/ui-types.js';
import { fakeNotebookSuite, openNotebook, screenshot } from './web-harness.js';

const token = 'run-all-token';

function run(status: RunPayload['status'], withSkipped: boolean): RunPayload {
  return {
    runId: 'run-1',
    functionName: 'triageIssue',
    status,
    executions: [{
      executionId: 'exec-1',
      stepId: 'step-1',
      status: withSkipped ? 'completed' : 'running',
      operations: [
        { operationId: 'op-1', kind: 'evaluate', status: 'completed', expression: 'issue.title' },
        { operationId: 'op-2', kind: 'tool', status: 'rejected', toolName: 'deleteRepository', rejection: { reason: 'Deleting repositories is outside this run\'s grant', guidance: 'Close the issue with a comment instead' } },
        ...(withSkipped ? [{ operationId: 'op-3', kind: 'assign', status: 'skipped' as const, targetPath: 'result.closed', expression: 'true', blockedByOperationId: 'op-2' }] : []),
      ],
      ...(withSkipped ? { commit: { proposed: { label: 'wontfix' }, committed: { label: 'needs-triage' }, rewritten: true } } : {}),
    }],
  };
}

describe('web notebook: run all', () => {
  const suite = fakeNotebookSuite({
    token,
    notebooks: {
      'getting-started.ipynb': [
      { type: 'markdown', source: '# Triage demo\nRuns an agent whose **delete** is refused.' },
      { source: 'const issue = { title: "Crash on save" };' },
      { source: 'await triageIssue(issue);' },
    ],
    },
    script: async (ctx) => {
        if (!ctx.code.includes('triageIssue')) return;
        const bundle = (p: RunPayload) => ({ [NighthawkMime.run]: p, 'text/plain': `run ${p.runId} ${p.status}` });
        ctx.display(bundle(run('running', false)), 'run-1');
        ctx.updateDisplay(bundle(run('completed', true)), 'run-1');
        ctx.stream('stdout', 'done\n');
      },
  });

  it('shows a rejected operation with reason and guidance, and the skipped sibling linked to it', async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openNotebook(page, suite.server.url, token);
    await expect(page.locator('.nb-title').textContent()).resolves.toBe('getting-started.ipynb');
    await page.getByRole('button', { name: 'Run all cells' }).click();
    const rejected = page.locator('.nh-op[data-operation-id="op-2"]');
    await rejected.waitFor();
    const skipped = page.locator('.nh-op[data-operation-id="op-3"]');
    await skipped.waitFor();
    await expect(rejected.getAttribute('data-status')).resolves.toBe('rejected');
    await expect(rejected.locator('.nh-reason').textContent()).resolves.toContain("outside this run's grant");
    await expect(rejected.locator('.nh-guidance').textContent()).resolves.toContain('Close the issue with a comment instead');
    await expect(skipped.getAttribute('data-status')).resolves.toBe('skipped');
    // The display grew in place: one run tree, now completed, not two.
    await expect(page.locator('.nh-run').count()).resolves.toBe(1);
    await expect(page.locator('.nh-run .nh-badge').first().textContent()).resolves.toBe('completed');
    await expect(page.locator('.nh-commit .nh-changed ins').textContent()).resolves.toBe('"needs-triage"');
    await page.locator('.cell[data-run-state="idle"] .prompt', { hasText: '[2]:' }).waitFor();
    await skipped.locator('.nh-blocked-link').click();
    await page.locator('.nh-op.nh-flash[data-operation-id="op-2"]').waitFor();
    await screenshot(page, 'run-all-refusal');
    const toggle = page.getByRole('button', { name: 'Toggle dark theme' });
    const dark = (await toggle.getAttribute('aria-pressed')) === 'true';
    await toggle.click();
    await page.locator(`html[data-theme="${dark ? 'light' : 'dark'}"]`).waitFor({ state: 'attached' });
    await screenshot(page, 'run-all-refusal-other-theme');
    await page.close();
  });
});
