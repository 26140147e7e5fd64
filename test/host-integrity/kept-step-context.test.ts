/**
 * Attack: a model expression keeps its step's context (`nh.currentStepContext()`) and, in a later step of the same
 * run, proposes an operation on it. Seed 000: a step that has ended runs nothing more. Model code may not run operations
 * on a step context at all, so the attempt is refused before that check: the body never runs, nothing is recorded
 * under the ended execution, and the attempt leaves a trace.anomaly. (An operator's executor proposing on an ended
 * step is recorded aborted: terminal-delivery-and-ended-steps.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

const pass = () => toolCall('nh_output', { result: { kind: 'pass' } });

describe('attack: an operation on a step context kept past its step', () => {
  it('from a model expression in a later step: refused, nothing recorded under the ended step, and a trace.anomaly', async () => {
    const touched: string[] = [];
    const model = new ScriptedModel([
      () => ({ toolCalls: [toolCall('nh_evaluate', { expression: '(globalThis.__keptStep = nh.currentStepContext(), 1)' }), pass()] }),
      () => ({ toolCalls: [toolCall('nh_evaluate', { expression: 'nh.evaluateExpression(globalThis.__keptStep, "touch()")' }), pass()] }),
      () => ({ toolCalls: [pass()] }),
    ]);
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
    try {
      await runner.run(() =>
        nh.scope({ taskReferences: { nh, touch: () => touched.push('effect') } }, async () => {
          await nh.step({ program: 'execute\nKeep it.' });
          await nh.step({ program: 'execute\nUse it.' });
        }),
      );
    } finally {
      delete (globalThis as { __keptStep?: unknown }).__keptStep;
    }
    expect(touched).toEqual([]);
    const events = runner.ledger.select({});
    const [first, second] = events.filter((e) => e.kind === 'execution.start').map((e) => e.subjectId);
    // Model code may not run operations on any step context (step-control.test.ts): refused before the ended step's
    // own check, so nothing is recorded under the first execution after its end.
    expect(events.filter((e) => e.kind === 'operation' && e.parentId === first).map((e) => e.status)).toEqual(['completed', 'completed']);
    expect(events.filter((e) => e.kind === 'execution.end' && e.subjectId === first)).toHaveLength(1);
    // The expression that tried it saw a failed operation in its own (second) step, and the attempt is evidence there.
    const failed = events.find((e) => e.kind === 'operation' && e.parentId === second && e.status === 'failed')!;
    expect((failed.data as { failure: { errorClass: string } }).failure.errorClass).toBe('StepControlRefusedError');
    const anomalies = events.filter((e) => e.kind === 'trace.anomaly' && e.status === 'step_control_from_model_code');
    expect(anomalies.map((e) => [e.parentId, (e.data as { member: string; executionId: string }).member, (e.data as { executionId: string }).executionId])).toEqual([[failed.subjectId, 'runOperation', first]]);
  });
});
