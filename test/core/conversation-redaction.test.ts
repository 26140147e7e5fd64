/**
 * The conversation sent to the provider carries no registered secret. Each message is redacted once
 * as the conversation grows (not the whole history on every request); a secret registered in the
 * middle of a step is redacted from the messages already sent on every later request.
 */
import { describe, expect, it } from 'vitest';
import { AgentExecutor, registerSecret, run, scope, step, type ModelMessage } from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

const EARLY = 'early-secret-0123456789abcdef';
const LATE = 'late-secret-fedcba9876543210';

describe('the conversation sent to the model', () => {
  it('is redacted per message, and again for a secret registered mid-step', async () => {
    registerSecret('EARLY_TOKEN', EARLY);
    const sent: string[] = [];
    const model = new ScriptedModel((messages: readonly ModelMessage[], info) => {
      sent.push(JSON.stringify(messages));
      if (info.requestNumber === 1) return { toolCalls: [toolCall('nh_evaluate', { expression: 'reveal()' })] };
      // The late value reached the model before anyone registered it; from now on it is a secret.
      if (info.requestNumber === 2) {
        registerSecret('LATE_TOKEN', LATE);
        return { toolCalls: [toolCall('nh_evaluate', { expression: '1 + 1' })] };
      }
      return { toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] };
    });
    const reveal = () => `${EARLY} and ${LATE}`;
    const outcome = await run(new AgentExecutor({ model, maxRequestsPerStep: 5 }), () => scope({ taskReferences: { reveal } }, () => step({ program: 'execute\nRead it.' })));
    expect(outcome.kind).toBe('pass');
    expect(sent).toHaveLength(3);
    for (const request of sent) expect(request).not.toContain(EARLY);
    // Request 2 was built before the registration: the unregistered value was still ordinary text.
    expect(sent[1]).toContain(LATE);
    expect(sent[2]).not.toContain(LATE);
    expect(sent[2]).toContain('[redacted:LATE_TOKEN]');
    expect(sent[2]).toContain('[redacted:EARLY_TOKEN]');
  });
});
