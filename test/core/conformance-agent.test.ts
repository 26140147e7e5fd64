import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ExecutionError,
  OversightContractError,
  StepAbortedError,
  abortStep,
  accept,
  rejectOperation,
  type Oversight,
} from '../../kernel/src/index.js';
import { toolCall } from '../../kernel/src/testing.js';
import { finish, runAgent, toolMessages } from './helpers.js';

describe('conformance: the agent loop', () => {
  it('9. nh_assign to a read binding is invalid input; the value is unchanged and the step continues', async () => {
    let seen: Record<string, unknown>[] = [];
    const out = await runAgent(
      [
        () => ({ toolCalls: [toolCall('nh_assign', { target_path: 'x', expression: '5' })] }),
        (m) => {
          seen = toolMessages(m);
          return { toolCalls: [finish({ kind: 'pass' })] };
        },
      ],
      {},
      { program: 'execute\nLook at <x>.', values: { x: 1 } },
    );
    expect(out.result.ok).toBe(true);
    expect(seen[0]).toMatchObject({ status: 'failed', error: { kind: 'invalid_input' } });
    expect(String((seen[0]!.error as { message: string }).message)).toContain('read binding');
  });

  it('10. a dotted nh_assign dirties its write root, which is committed', async () => {
    const out = await runAgent(
      [() => ({ toolCalls: [toolCall('nh_assign', { target_path: 'result.value', expression: '9' }), finish({ kind: 'pass' })] })],
      {},
      { program: 'execute\nFill <:result>.', values: { result: { value: 0 } }, writes: { result: z.object({ value: z.number() }) } },
    );
    expect(out.result.ok && out.result.value.bindings).toEqual({ result: { value: 9 } });
  });

  it('13. an operation refusal reaches the model as its reason and the step continues; a commit abort ends it', async () => {
    let seen: Record<string, unknown>[] = [];
    const out = await runAgent(
      [
        () => ({ toolCalls: [toolCall('nh_evaluate', { expression: '1' })] }),
        (m) => {
          seen = toolMessages(m);
          return { toolCalls: [finish({ kind: 'pass' })] };
        },
      ],
      { inspectOperation: (r) => (r.kind === 'evaluate' ? rejectOperation('no') : accept()), inspectStepCommit: () => abortStep('not today') },
      { program: 'execute\nDo it.' },
    );
    expect(seen[0]).toMatchObject({ status: 'rejected', execution_started: false, error: { kind: 'rejected', class: 'OperationRejectedError', message: 'no' } });
    expect(out.result.ok).toBe(false);
    expect((out.result as { error: unknown }).error).toBeInstanceOf(StepAbortedError);
    expect((out.result as { error: StepAbortedError }).error.subject).toBe('step_commit');
    expect(out.steps).toHaveLength(1);
    // Seed 000: an AbortStep gives a StepAbortedError and a failed terminal record.
    expect(out.steps[0]!.status).toBe('failed');
  });

  it('14. a refusal in the middle of a batch skips later calls and the output; earlier effects stay', async () => {
    const effects: string[] = [];
    const inspected: string[] = [];
    let feedback: Record<string, unknown>[] = [];
    const out = await runAgent(
      [
        () => ({
          toolCalls: [
            toolCall('nh_evaluate', { expression: 'record("A")' }),
            toolCall('nh_evaluate', { expression: 'record("B")' }),
            toolCall('nh_evaluate', { expression: 'record("C")' }),
            finish({ kind: 'pass' }),
          ],
        }),
        (m) => {
          feedback = toolMessages(m);
          return { toolCalls: [finish({ kind: 'pass' })] };
        },
      ],
      {
        inspectOperation: (r) => {
          inspected.push(r.expression ?? r.kind);
          return r.expression === 'record("B")' ? rejectOperation('r', 'g') : accept();
        },
      },
      { program: 'execute\nRecord things.' },
      { record: (x: string) => effects.push(x) },
    );
    expect(out.result.ok).toBe(true);
    expect(effects).toEqual(['A']);
    expect(inspected).toEqual(['record("A")', 'record("B")', 'output']);
    const [a, b, c, o] = out.operations;
    expect([a!.status, b!.status, c!.status, o!.status]).toEqual(['completed', 'rejected', 'skipped', 'skipped']);
    expect(c!.blockedByOperationId).toBe(b!.request.operationId);
    expect(o!.blockedByOperationId).toBe(b!.request.operationId);
    expect(o!.request.kind).toBe('output');
    expect(feedback.map((f) => f.status)).toEqual(['completed', 'rejected', 'skipped', 'skipped']);
    expect(feedback[1]).toMatchObject({ status: 'rejected', error: { message: 'r', guidance: 'g' } });
    expect(feedback[2]).toMatchObject({ blocked_by_operation_id: b!.request.operationId });
  });

  it("15b. an operator's error that holds a function (seen by model code through its membrane) is rethrown as the operator's own object", async () => {
    const boom = Object.assign(new RangeError('boom'), { retry: () => 1 });
    const out = await runAgent(
      [
        () => ({ toolCalls: [toolCall('nh_evaluate', { expression: 'explode()' })] }),
        (m) => ({ toolCalls: [finish({ kind: 'raise', raise_operation_id: toolMessages(m).find((t) => t.status === 'failed')!.operation_id })] }),
      ],
      {},
      { program: 'execute\nTry.' },
      { explode: () => { throw boom; } },
    );
    expect((out.result as { error: unknown }).error).toBe(boom);
  });

  it('15a. a throwing expression fails only its operation; siblings run; raise_operation_id rethrows the same object', async () => {
    const boom = new RangeError('boom');
    const effects: string[] = [];
    const out = await runAgent(
      [
        () => ({ toolCalls: [toolCall('nh_evaluate', { expression: 'explode()' }), toolCall('nh_evaluate', { expression: 'record("after")' })] }),
        (m) => {
          const failed = toolMessages(m).find((t) => t.status === 'failed')!;
          expect(failed.error).toMatchObject({ class: 'RangeError', message: 'boom' });
          return { toolCalls: [finish({ kind: 'raise', raise_operation_id: failed.operation_id })] };
        },
      ],
      {},
      { program: 'execute\nTry.' },
      { explode: () => { throw boom; }, record: (x: string) => effects.push(x) },
    );
    expect(effects).toEqual(['after']);
    expect(out.result.ok).toBe(false);
    expect((out.result as { error: unknown }).error).toBe(boom);
    expect(out.operations.map((o) => o.status)).toEqual(['failed', 'completed', 'completed']);
    expect(out.steps[0]!.status).toBe('raised');
    expect(out.steps[0]!.failedOperations).toHaveLength(1);
  });

  it('15b. an inspector that throws, returns garbage, or aborts ends the step and never runs the body', async () => {
    const cases: [Oversight['inspectOperation'], new (...a: never[]) => Error][] = [
      [() => { throw new Error('inspector bug'); }, OversightContractError],
      [() => ({ kind: 'maybe' }) as never, OversightContractError],
      [() => rejectOperation('') , OversightContractError],
      [() => undefined as never, OversightContractError],
      [() => abortStep('stop'), StepAbortedError],
    ];
    for (const [inspectOperation, errorClass] of cases) {
      const effects: string[] = [];
      const out = await runAgent(
        [() => ({ toolCalls: [toolCall('nh_evaluate', { expression: 'record("x")' }), toolCall('nh_evaluate', { expression: 'record("y")' }), finish({ kind: 'pass' })] })],
        { inspectOperation },
        { program: 'execute\nGo.' },
        { record: (x: string) => effects.push(x) },
      );
      expect(effects).toEqual([]);
      expect(out.result.ok).toBe(false);
      expect((out.result as { error: unknown }).error).toBeInstanceOf(errorClass);
      expect(out.operations.map((o) => o.status)).toEqual(['aborted', 'skipped', 'skipped']);
      expect(out.model.requestCount).toBe(1);
    }
  });

  it('a raise without a type is an ExecutionError naming the message', async () => {
    const out = await runAgent([() => ({ toolCalls: [finish({ kind: 'raise', raise_message: 'bad' })] })], {}, { program: 'execute\nGo.' });
    expect((out.result as { error: unknown }).error).toBeInstanceOf(ExecutionError);
    expect(String((out.result as { error: Error }).error.message)).toContain('Execution failed: bad');
  });
});
