/**
 * Attack: model code drives its own step through the executor's members of the step context it can reach
 * (`nh.currentStepContext()`):
 * - `runOperation` with a tool request and a body of its own: the inspector accepted "send", the record said the tool
 *   completed, and no capability ran (a false record);
 * - `endStep` with a look-alike AllocationExhaustedError: the operator was told the allocation ran out;
 * - `evaluateBody` with text it built: code compiled outside any inspected operation, past the textual checks;
 * - `assignValue`, `skipOperation`, `failBeforeInspection`, `markFinished`.
 * Each refuses model code with a StepControlRefusedError and a `step_control_from_model_code` anomaly.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';
import { STEP_PLACES, modelCodeIn, placeName, runStepWith, type StepPlace } from './model-code.js';

const finish = () => toolCall('nh_output', { result: { kind: 'pass' } });

const CALLS: Record<string, string> = {
  runOperation: `c.runOperation(c.newRequest('tool', { toolName: 'send', arguments: { to: 'boss' } }), () => 'pretend')`,
  endStep: `c.endStep(new nh.AllocationExhaustedError({ resource: 'cost', limit: 1, used: 2 }))`,
  evaluateBody: `c.evaluateBody('1 + ' + '1')`,
  assignValue: `c.assignValue('answer', ['answer'], 41)`,
  skipOperation: `c.skipOperation(c.newRequest('tool', { toolName: 'send' }), 'op_x')`,
  failBeforeInspection: `c.failBeforeInspection(c.newRequest('tool', { toolName: 'send' }), new Error('x'))`,
  markFinished: `c.markFinished()`,
};

async function callFrom(place: StepPlace, call: string) {
  const code = modelCodeIn(place, `const c = nh.currentStepContext(); try { await ${call}; return 'called'; } catch (e) { return e.name; }`);
  const sent: unknown[] = [];
  const send = nh.defineCapability({ name: 'send', description: 'sends', request: z.object({ to: z.string() }), run: (r) => void sent.push(r) });
  const { outcome, events, previews } = await runStepWith(
    code,
    [
      () => ({ toolCalls: [toolCall('nh_evaluate', { expression: code.expression })] }),
      () => ({ toolCalls: [toolCall('nh_assign', { target_path: 'answer', expression: '42' }), finish()] }),
    ],
    { program: 'execute\nSet <:answer>.', writes: { answer: z.number() }, capabilities: [send] },
  );
  return { outcome, events, sent, said: previews[0] };
}

describe("attack: model code calling its step context's executor members", () => {
  for (const place of STEP_PLACES) {
    for (const [member, call] of Object.entries(CALLS)) {
      it(`${member}, from ${placeName(place)}: refused and recorded; the step goes on`, async () => {
        const { outcome, events, sent, said } = await callFrom(place, call);
        expect(said).toBe('"StepControlRefusedError"');
        expect(outcome).toBe('returned:{"answer":42}');
        expect(sent).toEqual([]);
        const anomalies = events.filter((e) => e.kind === 'trace.anomaly');
        expect(anomalies.map((e) => [e.status, (e.data as unknown as { member: string }).member])).toEqual([['step_control_from_model_code', member]]);
        // The only operation records are the ones the model proposed through its executor.
        expect(events.filter((e) => e.kind === 'operation').map((e) => (e.data as { request: { kind: string } }).request.kind)).toEqual(['evaluate', 'assign', 'output']);
        expect(events.filter((e) => e.kind === 'allocation.exhausted')).toEqual([]);
      });
    }
  }

  for (const place of STEP_PLACES) {
    it(`the host executor called with a step context the model built, from ${placeName(place)}: refused before any execution starts`, async () => {
      const body = `const s = nh.currentState(); const p = nh.parseProgram('execute\\nInner.');
        try {
          const c = new nh.StepContext({ stepId: 'forged', runId: s.runId, program: p, locals: {}, references: {}, inputBindings: {}, bindingSchemas: {}, allowedOutcomes: ['pass'], oversight: s.oversight, errorTypes: {}, signal: new AbortController().signal });
          await s.executor.runStep({ stepContext: c, program: p, allowedOutcomes: ['pass'], signal: c.signal });
          return 'ran';
        } catch (e) { return e.name; }`;
      const code = modelCodeIn(place, body);
      const { outcome, events, previews } = await runStepWith(code, [() => ({ toolCalls: [toolCall('nh_evaluate', { expression: code.expression }), finish()] }), () => ({ toolCalls: [finish()] })]);
      expect(outcome).toBe('returned:{}');
      expect(previews).toEqual(['"HostIntegrityError"']);
      expect(events.filter((e) => e.kind === 'execution.start')).toHaveLength(1);
      expect(events.filter((e) => e.kind === 'trace.anomaly').map((e) => e.status)).toEqual(['foreign_step_context']);
    });
  }

  it('a nested step a model expression starts still runs its own operations (the executor is not model code)', async () => {
    const model = new ScriptedModel([
      () => ({ toolCalls: [toolCall('nh_evaluate', { expression: 'inner()' })] }),
      () => ({ toolCalls: [toolCall('nh_evaluate', { expression: '20 + 1' }), finish()] }),
      () => ({ toolCalls: [finish()] }),
    ]);
    const inner = () => nh.step({ program: 'execute\nAdd.' });
    const outcome = await nh.run(new nh.AgentExecutor({ model }), () => nh.scope({ taskReferences: { inner } }, () => nh.step({ program: 'execute\nGo.' })));
    expect(outcome.kind).toBe('pass');
    expect(model.requestCount).toBe(3);
  });
});
