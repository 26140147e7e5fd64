/**
 * Attack: in the notebook kernel, model code calls an approval function (`nh.operatorApproval()(request)`, one it made
 * or the operator's): a card asking "The model wants to call the tool refund_customer. Allow it?" appeared in front of
 * the operator with no operation of the run behind it, and the model's code took the kernel's input request. From a
 * model expression or generated code it called, the call is refused with an OperatorControlError and an
 * `operator_approval_from_model_code` anomaly; no card is shown and no input is asked. The operator's inspector,
 * which the host calls, still asks.
 */
import { afterEach, describe, expect, it } from 'vitest';
import * as nh from '../../kernel/src/index.js';
import { setNotebookChannel } from '../../kernel/src/server/display/notebook-bridge.js';
import type { KernelChannel } from '../../kernel/src/server/kernel/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';
import { STEP_PLACES, evaluateInStep, modelCodeIn, placeName } from './model-code.js';

const finish = () => toolCall('nh_output', { result: { kind: 'pass' } });

function channel() {
  const shown: unknown[] = [];
  const prompts: string[] = [];
  const ch: KernelChannel = {
    display: (bundle) => void shown.push(bundle),
    requestInput: async (prompt) => {
      prompts.push(prompt);
      return JSON.stringify({ kind: 'accept' });
    },
  };
  setNotebookChannel(ch);
  return { shown, prompts };
}

afterEach(() => setNotebookChannel(undefined));

const FAKE = `{ operationId: 'op_fake', kind: 'tool', toolName: 'refund_customer', stepId: 's', executionId: 'e', runId: 'r' }`;

describe('attack: model code putting an approval card in front of the operator', () => {
  for (const place of STEP_PLACES) {
    it(`from ${placeName(place)}: refused and recorded; no card, no input request`, async () => {
      const { shown, prompts } = channel();
      const code = modelCodeIn(place, `try { const d = await nh.operatorApproval()(${FAKE}); return 'asked:' + d.kind; } catch (e) { return e.name; }`);
      const { events, previews } = await evaluateInStep(code);
      expect(previews).toEqual(['"OperatorControlError"']);
      expect(shown).toEqual([]);
      expect(prompts).toEqual([]);
      expect(events.filter((e) => e.kind === 'trace.anomaly').map((e) => e.status)).toEqual(['operator_approval_from_model_code']);
    });
  }

  it("the operator's inspector still asks, and its answer decides the operation", async () => {
    const { shown, prompts } = channel();
    const model = new ScriptedModel([() => ({ toolCalls: [toolCall('nh_evaluate', { expression: '1 + 1' }), finish()] })]);
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
    await runner.run(() => nh.step({ program: 'execute\nGo.' }), { oversight: { inspectOperation: nh.operatorApproval({ kinds: ['evaluate'] }) } });
    expect(prompts).toHaveLength(1);
    expect(shown).toHaveLength(2);
    expect(runner.ledger.select({ kind: 'operation' }).map((e) => e.status)).toEqual(['completed', 'completed']);
  });
});
