import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AgentExecutor, abortStep, accept, rejectOperation, run, scope, step, type OperationDecision } from '../../kernel/src/index.js';
import { ScriptedModel, toolCall, type ScriptedToolCall } from '../../kernel/src/testing.js';
import { recorder } from './helpers.js';

type Behaviour = 'accept' | 'fail' | 'reject' | 'abort' | 'inspector-throws' | 'invalid-decision' | 'malformed' | 'unknown-tool' | 'output';
const behaviours: Behaviour[] = ['accept', 'fail', 'reject', 'abort', 'inspector-throws', 'invalid-decision', 'malformed', 'unknown-tool', 'output'];

describe('property: every operation ends with exactly one status and refused bodies never run', () => {
  it('holds over 1,000 random scripted responses', async () => {
    const responses = fc.array(fc.array(fc.constantFrom(...behaviours), { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 4 });
    await fc.assert(
      fc.asyncProperty(responses, async (script) => {
        const plan = new Map<number, Behaviour>();
        const effects: number[] = [];
        let next = 0;
        const turns = script.map((calls) => () => ({
          toolCalls: calls.map((b): ScriptedToolCall => {
            const n = next++;
            plan.set(n, b);
            if (b === 'malformed') return toolCall('nh_evaluate', '{"expression": ');
            if (b === 'unknown-tool') return toolCall('nh_nothing', {});
            if (b === 'output') return toolCall('nh_output', { result: { kind: 'pass' } });
            return toolCall('nh_evaluate', { expression: `act(${n})` });
          }),
        }));
        turns.push(() => ({ toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] }));
        const model = new ScriptedModel(turns);
        const rec = recorder();
        const decide = (expression: string | undefined): OperationDecision => {
          const n = Number(/act\((\d+)\)/.exec(expression ?? '')?.[1] ?? -1);
          switch (plan.get(n)) {
            case 'reject': return rejectOperation('no', 'try another');
            case 'abort': return abortStep('stop');
            case 'inspector-throws': throw new Error('inspector bug');
            case 'invalid-decision': return { kind: 'nonsense' } as never;
            default: return accept();
          }
        };
        const act = (n: number) => {
          effects.push(n);
          if (plan.get(n) === 'fail') throw new Error(`fail ${n}`);
          return n;
        };
        await run(new AgentExecutor({ model, outputRetries: 10 }), () =>
          scope({ taskReferences: { act }, oversight: { inspectOperation: (r) => decide(r.expression), ...rec } }, () => step({ program: 'execute\nAct.' })),
        ).catch(() => undefined);
        const ids = rec.operations.map((o) => o.request.operationId);
        expect(new Set(ids).size).toBe(ids.length);
        for (const op of rec.operations) {
          const n = Number(/act\((\d+)\)/.exec(op.request.expression ?? '')?.[1] ?? -1);
          if (n < 0) continue;
          const ran = effects.includes(n);
          if (op.status === 'completed' || (op.status === 'failed' && plan.get(n) === 'fail')) expect(ran).toBe(true);
          else expect(ran).toBe(false);
          if (op.status === 'skipped') expect(op.blockedByOperationId).toBeDefined();
        }
        // Bodies that ran are exactly those recorded as completed or failed-in-body.
        expect(effects.length).toBe(new Set(effects).size);
        expect(rec.steps).toHaveLength(1);
      }),
      { numRuns: 1000 },
    );
  }, 120_000);
});
