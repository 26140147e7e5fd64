/**
 * Attack: a model expression keeps its step's context (`nh.currentStepContext()`) and, in a later step of the same
 * run, proposes an operation on it. Seed 000: a step that has ended runs nothing more. The body never runs, the
 * attempt is recorded aborted under the ended execution, and the attempt leaves a trace.anomaly.
 */
import { describe, expect, it } from 'vitest';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

const pass = () => toolCall('nh_output', { result: { kind: 'pass' } });

describe('attack: an operation on a step context kept past its step', () => {
  it('from a model expression in a later step: refused, recorded aborted, and a trace.anomaly', async () => {
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
    const late = events.filter((e) => e.kind === 'operation' && e.parentId === first && e.status === 'aborted');
    expect(late).toHaveLength(1);
    // The attempt sits after the first execution's end, which stays its only terminal event.
    expect(events.filter((e) => e.kind === 'execution.end' && e.subjectId === first)).toHaveLength(1);
    expect(events.findIndex((e) => e === late[0])).toBeGreaterThan(events.findIndex((e) => e.kind === 'execution.end' && e.subjectId === first));
    // The expression that tried it saw a failed operation in its own (second) step.
    expect(events.some((e) => e.kind === 'operation' && e.parentId === second && e.status === 'failed')).toBe(true);
    const anomalies = events.filter((e) => e.kind === 'trace.anomaly' && e.status === 'operation_after_execution_end');
    expect(anomalies).toHaveLength(1);
    expect(anomalies[0]!.data).toMatchObject({ executionId: first, operationId: late[0]!.subjectId, status: 'aborted' });
  });
});
