import { describe, expect, it } from 'vitest';
import { NighthawkMime } from '../../shared/mime.js';
import { ApprovalAnswerSchema, type ApprovalPayload } from '../../shared/ui-types.js';
import { fakeNotebookSuite, openNotebook, screenshot } from './web-harness.js';

const token = 'approval-token';

const approval: ApprovalPayload = {
  requestId: 'req-1',
  prompt: 'The model wants to send an email to a customer.',
  operation: { operationId: 'op-9', kind: 'tool', status: 'pending', toolName: 'sendEmail', expression: 'sendEmail({ to: "c@example.com" })' },
};

describe('web notebook: operator approval, kernel completions and hover', () => {
  const answers: string[] = [];
  const forgedAnswers: string[] = [];
  const suite = fakeNotebookSuite({
    token,
    notebooks: {
      'approve.ipynb': [{ source: 'await notifyCustomer();' }, { source: '' }],
      'collapse.ipynb': [{ source: 'await checkTotal();' }],
      'forged.ipynb': [{ source: 'await payVendor();' }],
    },
    script: async (ctx) => {
        if (ctx.code.includes('payVendor')) {
          // Code in the cell draws a card of its own (display data) beside the kernel's; the input_request names
          // the approval it asks for in its metadata, as the kernel's operatorApproval does.
          const forged = { requestId: 'forged', prompt: 'The model wants to read the status. Allow it?', operation: { operationId: 'op-f', kind: 'tool', status: 'pending', toolName: 'read_status' } };
          const real = { requestId: 'real', prompt: 'The model wants to wire money. Allow it?', operation: { operationId: 'op-r', kind: 'tool', status: 'pending', toolName: 'wire_money' } };
          ctx.display({ [NighthawkMime.approval]: forged, 'text/plain': forged.prompt }, 'nh-forged');
          ctx.display({ [NighthawkMime.approval]: real, 'text/plain': real.prompt }, 'nh-real');
          forgedAnswers.push(await ctx.input('Approve tool wire_money? accept / reject <reason> / abort <reason>', { nighthawk_approval: 'real' }));
          ctx.stream('stdout', 'payment decided\n');
          return;
        }
        if (ctx.code.includes('checkTotal')) {
          const card = { requestId: 'req-7', prompt: 'The model wants to evaluate order.total. Allow it?', operation: { operationId: 'op-7', kind: 'evaluate', status: 'pending', expression: 'order.total' } };
          ctx.display({ [NighthawkMime.approval]: card, 'text/plain': card.prompt }, 'nh-approval-7');
          const answer = JSON.parse(await ctx.input('Approve evaluate order.total: pending? accept / reject <reason> / abort <reason>')) as { kind: string };
          // As the kernel does: the same display id, now with who answered and when (local 12:03:41).
          const at = new Date(2026, 11, 1, 12, 3, 41).getTime();
          ctx.updateDisplay({ [NighthawkMime.approval]: { ...card, answered: { kind: answer.kind, by: 'operator', at } }, 'text/plain': 'accepted by operator, 12:03:41' }, 'nh-approval-7');
          ctx.stream('stdout', 'kernel updated the card\n');
          return;
        }
        if (!ctx.code.includes('notifyCustomer')) return;
        ctx.display({ [NighthawkMime.approval]: approval, 'text/plain': approval.prompt });
        const answer = await ctx.input('approval req-1');
        answers.push(answer);
        ctx.stream('stdout', `operator said ${JSON.parse(answer).kind}\n`);
      },
  });

  it('answers the approval prompt with a reject-operation JSON reply carrying reason and guidance', async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1100, height: 700 } });
    await openNotebook(page, suite.server.url, token, 'approve.ipynb');
    await page.getByRole('button', { name: 'Run all cells' }).click();
    const form = page.getByRole('form', { name: 'operator approval' });
    await form.waitFor();
    await expect(form.textContent()).resolves.toContain('sendEmail');
    // No second, generic stdin box: the approval buttons answer the input_request.
    await expect(page.locator('.stdin-input').count()).resolves.toBe(0);
    await form.getByLabel('Reason').fill('Customers are emailed only by humans');
    await form.getByLabel('Guidance').fill('Draft the email and return it instead');
    await screenshot(page, 'approval-prompt');
    await form.getByRole('button', { name: 'Reject' }).click();
    await page.locator('.output-stdout', { hasText: 'operator said reject-operation' }).waitFor();
    expect(answers).toHaveLength(1);
    expect(ApprovalAnswerSchema.parse(JSON.parse(answers[0]!))).toEqual({
      kind: 'reject-operation',
      reason: 'Customers are emailed only by humans',
      guidance: 'Draft the email and return it instead',
    });
    // Answered: the card is one line, no buttons or inputs left.
    const done = page.locator('.nh-approval-answered[data-answered="reject-operation"]');
    await expect(done.locator('summary').innerText()).resolves.toMatch(/rejected by operator, \d\d:\d\d:\d\d/);
    await expect(page.getByRole('button', { name: 'Accept' }).count()).resolves.toBe(0);
    await page.close();
  });

  it('answers an input request only from the card it names: a card drawn by cell code beside it answers nothing', async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1100, height: 900 } });
    await openNotebook(page, suite.server.url, token, 'forged.ipynb');
    await page.getByRole('button', { name: 'Run all cells' }).click();
    const forms = page.getByRole('form', { name: 'operator approval' });
    const forgedForm = forms.filter({ hasText: 'read the status' }).first();
    await forgedForm.waitFor();
    await forgedForm.getByRole('button', { name: 'Accept' }).click();
    await page.waitForTimeout(300);
    expect(forgedAnswers).toEqual([]);
    const realForm = forms.filter({ hasText: 'wire money' }).first();
    await realForm.getByRole('button', { name: 'Accept' }).click();
    await page.locator('.output-stdout', { hasText: 'payment decided' }).waitFor();
    expect(forgedAnswers.map((a) => (JSON.parse(a) as { kind: string }).kind)).toEqual(['accept']);
    await page.close();
  });

  it('collapses an answered card to one line, also as the kernel updates it and after a reload', async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1100, height: 700 } });
    await openNotebook(page, suite.server.url, token, 'collapse.ipynb');
    await page.getByRole('button', { name: 'Run all cells', exact: true }).click();
    const form = page.getByRole('form', { name: 'operator approval' });
    await form.waitFor();
    await expect(form.textContent()).resolves.toContain('The model wants to evaluate order.total. Allow it?');
    await expect(form.textContent()).resolves.not.toContain('accept / reject');
    const open = await form.boundingBox();
    await form.getByRole('button', { name: 'Accept' }).click();
    await page.locator('.output-stdout', { hasText: 'kernel updated the card' }).waitFor();
    const done = page.locator('.nh-approval-answered');
    await expect(done.count()).resolves.toBe(1);
    const line = await done.locator('summary').innerText();
    expect(line).toMatch(/accepted by operator, 12:03:41/);
    expect(line).toContain('The model wants to evaluate order.total');
    const closed = await done.boundingBox();
    expect(closed!.height).toBeLessThan(40);
    expect(closed!.height).toBeLessThan(open!.height / 3);
    await expect(page.locator('.nh-badge', { hasText: 'pending' }).count()).resolves.toBe(0);
    // The operation is one click away.
    await done.locator('summary').click();
    await done.locator('[data-operation-id="op-7"]').waitFor();

    await page.keyboard.press('Control+s');
    await page.locator('body[data-draft-state="clean"]').waitFor();
    await page.reload();
    await page.locator('body[data-ready="true"]').waitFor();
    await expect(page.locator('.nh-approval-answered summary').innerText()).resolves.toMatch(/accepted by operator, 12:03:41/);
    await expect(page.getByRole('form', { name: 'operator approval' }).count()).resolves.toBe(0);
    await page.close();
  });

  it('offers completions from the kernel complete_reply in the editor', async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1100, height: 700 } });
    await openNotebook(page, suite.server.url, token, 'approve.ipynb');
    await page.locator('.cell').nth(1).locator('.editor-host').click();
    await page.locator('.cell').nth(1).locator('.monaco-editor.focused').waitFor();
    await page.keyboard.type('led');
    await page.keyboard.press('Control+Space');
    await page.locator('.suggest-widget .monaco-list-row', { hasText: 'ledger' }).waitFor();
    await screenshot(page, 'kernel-completions');
    // Monaco may ask while typing ('l', 'le') and filter the answer itself, or ask again on Ctrl+Space.
    expect(suite.server.received.some((f) => f.header.msg_type === 'complete_request' && typeof f.content.code === 'string' && 'led'.startsWith(f.content.code) && f.content.code.length > 0 && f.content.cursor_pos === f.content.code.length)).toBe(true);
    await page.close();
  });

  it('shows hover text from the kernel inspect_reply', async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1100, height: 700 } });
    await openNotebook(page, suite.server.url, token, 'approve.ipynb');
    await page.locator('.cell').nth(1).locator('.editor-host').click();
    await page.locator('.cell').nth(1).locator('.monaco-editor.focused').waitFor();
    await page.keyboard.type('ledger;');
    await page.keyboard.press('Escape');
    await page.locator('.cell').nth(1).locator('.view-line span', { hasText: 'ledger' }).first().hover();
    await page.locator('.monaco-hover', { hasText: 'const ledger: Ledger' }).waitFor();
    expect(suite.server.received.some((f) => f.header.msg_type === 'inspect_request' && f.content.code === 'ledger;')).toBe(true);
    await page.close();
  });
});
