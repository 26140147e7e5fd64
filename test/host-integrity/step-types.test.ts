/**
 * Attack: model code edits the types its step commits by. The step context's configuration was writable:
 * `nh.currentStepContext().bindingSchemas = {}` (or an added outcome, a deleted write-binding name) let the commit
 * take `answer: "not a number"` for a `z.number()` binding. The schemas themselves were handed out, and a zod
 * schema's `safeParse` is an own, writable property: replacing it changed this step's commit and every later step
 * of the same Natural function, in any run. The context is frozen now, its name sets cannot change, and its types
 * are executor-only (`step_control_from_model_code`).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolCall } from '../../kernel/src/testing.js';
import { STEP_PLACES, modelCodeIn, placeName, runStepWith, type StepPlace } from './model-code.js';

const finish = () => toolCall('nh_output', { result: { kind: 'pass' } });

const EDITS: Record<string, string> = {
  'an emptied schema record': `c.bindingSchemas = {}`,
  'a replaced safeParse on the schema': `c.bindingSchemas.answer.safeParse = (v) => ({ success: true, data: v })`,
  'a deleted write-binding name': `c.writeBindingNames.delete('answer')`,
  'an added outcome': `c.allowedOutcomes.push('return')`,
};

async function editFrom(place: StepPlace, edit: string, answer: z.ZodType) {
  const code = modelCodeIn(place, `const c = nh.currentStepContext(); try { ${edit}; } catch (e) { return e.name; } return 'edited';`);
  return runStepWith(
    code,
    [
      () => ({ toolCalls: [toolCall('nh_evaluate', { expression: code.expression }), toolCall('nh_assign', { target_path: 'answer', expression: '"not a number"' }), finish()] }),
      () => ({ toolCalls: [toolCall('nh_assign', { target_path: 'answer', expression: '42' }), finish()] }),
    ],
    { program: 'execute\nSet <:answer>.', writes: { answer } },
  );
}

describe('attack: model code editing the types its step commits by', () => {
  for (const place of STEP_PLACES) {
    for (const [name, edit] of Object.entries(EDITS)) {
      it(`${name}, from ${placeName(place)}: the commit still refuses an ill-typed value`, async () => {
        const answer = z.number();
        const { outcome, events } = await editFrom(place, edit, answer);
        // The ill-typed assignment fails (the model sees it) and the second response commits a number.
        expect(outcome).toBe('returned:{"answer":42}');
        expect(events.filter((e) => e.kind === 'execution.end').map((e) => (e.data as { committed: unknown }).committed)).toEqual([{ answer: 42 }]);
        // The operator's schema is untouched for later steps and runs.
        expect(answer.safeParse('not a number').success).toBe(false);
      });
    }
  }

  it('reading the types from model code is refused and recorded', async () => {
    const { events } = await editFrom('expression', 'void c.returnSchema', z.number());
    expect(events.filter((e) => e.kind === 'trace.anomaly').map((e) => [e.status, (e.data as unknown as { member: string }).member])).toEqual([['step_control_from_model_code', 'returnSchema']]);
  });
});
