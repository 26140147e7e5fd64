/** Issue 19.6 (kernel side): plain-language cards, one-line answered state, and the default policy. */
import { afterEach, describe, expect, it } from 'vitest';
import type { OperationRequest } from '../../kernel/src/core/index.js';
import { operatorApproval, setNotebookChannel } from '../../kernel/src/server/display/notebook-bridge.js';
import type { DisplayOptions, KernelChannel } from '../../kernel/src/server/kernel/index.js';
import { NighthawkMime } from '../../shared/mime.js';

const request = (kind: OperationRequest['kind'], extra: Partial<OperationRequest> = {}): OperationRequest =>
  ({ operationId: `op_${kind}`, kind, stepId: 's', executionId: 'e', runId: 'r', ...extra }) as OperationRequest;

function channel(answer: string | Error) {
  const shown: Array<{ bundle: Record<string, unknown>; options?: DisplayOptions }> = [];
  const prompts: string[] = [];
  const ch: KernelChannel = {
    display: (bundle, options) => { shown.push({ bundle: bundle as Record<string, unknown>, ...(options ? { options } : {}) }); },
    requestInput: async (prompt) => {
      prompts.push(prompt);
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
  setNotebookChannel(ch);
  return { shown, prompts };
}

afterEach(() => setNotebookChannel(undefined));

describe('operatorApproval cards', () => {
  it('asks in words on the card, keeps the console syntax on stdin, and updates the card once answered', async () => {
    const { shown, prompts } = channel(JSON.stringify({ kind: 'reject-operation', reason: 'too much', guidance: 'ask finance' }));
    const decision = await operatorApproval()(request('tool', { toolName: 'refund_customer' }));
    expect(decision).toMatchObject({ kind: 'reject-operation', reason: 'too much' });
    expect(prompts[0]).toContain('accept / reject <reason> / abort <reason>');
    const [first, second] = shown;
    const card = first!.bundle[NighthawkMime.approval] as { prompt: string; answered?: unknown };
    expect(card.prompt).toBe('The model wants to call the tool refund_customer. Allow it?');
    expect(card.answered).toBeUndefined();
    expect(second!.options).toEqual({ displayId: first!.options!.displayId, update: true });
    const answered = (second!.bundle[NighthawkMime.approval] as { answered: { kind: string; by: string; at: number; summary: string; guidance: string } }).answered;
    expect(answered).toMatchObject({ kind: 'reject-operation', by: 'operator', guidance: 'ask finance' });
    expect(answered.summary).toMatch(/^rejected by operator, \d\d:\d\d:\d\d: too much$/);
    expect(String(second!.bundle['text/plain'])).toContain('rejected by operator');
  });

  it('by default accepts the step output without asking; kinds: [..., "output"] asks for it too', async () => {
    const { shown, prompts } = channel(JSON.stringify({ kind: 'accept' }));
    await expect(operatorApproval()(request('output', { outcomeKind: 'pass' }))).resolves.toEqual({ kind: 'accept' });
    expect(prompts).toHaveLength(0);
    expect(shown).toHaveLength(0);
    await operatorApproval({ kinds: ['evaluate', 'output'] })(request('output', { outcomeKind: 'return', expression: 'x' }));
    expect(prompts).toHaveLength(1);
    expect((shown[0]!.bundle[NighthawkMime.approval] as { prompt: string }).prompt).toBe('The model wants to finish the step with return x. Allow it?');
  });

  it('fails closed when no answer comes, and the card says the step was aborted', async () => {
    const { shown } = channel(new Error('timed out'));
    const decision = await operatorApproval()(request('evaluate', { expression: '1 + 1' }));
    expect(decision.kind).toBe('abort-step');
    expect((shown[1]!.bundle[NighthawkMime.approval] as { answered: { kind: string } }).answered.kind).toBe('abort-step');
  });
});
