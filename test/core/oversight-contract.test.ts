import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  OperationDeliveryError,
  OutputValidationError,
  StepAbortedError,
  TerminalOperationError,
  naturalFunction,
  rejectOperation,
  accept,
  rewrite,
  AgentExecutor,
  defineTool,
  run,
  scope,
  step,
} from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';
import { finish, runAgent, toolMessages } from './helpers.js';

describe('oversight contract details', () => {
  it('a refused return expression goes back to the model, which submits another; the value is not evaluated again', async () => {
    let evaluations = 0;
    let feedback: Record<string, unknown>[] = [];
    const res = await runAgent(
      [
        () => ({ toolCalls: [finish({ kind: 'return', return_expression: 'forbidden()' })] }),
        (m) => {
          feedback = toolMessages(m);
          return { toolCalls: [finish({ kind: 'return', return_expression: 'count()' })] };
        },
      ],
      { inspectOperation: (r) => (r.expression === 'forbidden()' ? rejectOperation('not that one', 'use count()') : accept()) },
      { program: 'execute\nReturn a number.', returnAllowed: true, returns: z.number() },
      { forbidden: () => 1, count: () => ++evaluations * 10 },
    );
    expect(res.result.ok && res.result.value).toMatchObject({ kind: 'return', value: 10 });
    expect(evaluations).toBe(1);
    expect(feedback[0]).toMatchObject({ status: 'rejected', error: { class: 'OperationRejectedError', message: 'not that one', guidance: 'use count()' } });
    expect(res.operations.map((o) => [o.request.kind, o.status])).toEqual([['output', 'rejected'], ['output', 'completed']]);
  });

  it('a return value failing the return schema is an output failure the model can correct', async () => {
    const res = await runAgent(
      [() => ({ toolCalls: [finish({ kind: 'return', return_expression: '"seven"' })] }), () => ({ toolCalls: [finish({ kind: 'return', return_expression: '7' })] })],
      {},
      { program: 'execute\nReturn a number.', returnAllowed: true, returns: z.number() },
    );
    expect(res.result.ok && res.result.value).toMatchObject({ kind: 'return', value: 7 });
    expect(res.operations[0]!.status).toBe('failed');
  });

  it('the output retry budget bounds refused outputs', async () => {
    const res = await runAgent(
      Array.from({ length: 5 }, () => () => ({ toolCalls: [finish({ kind: 'pass' })] })),
      { inspectOperation: () => rejectOperation('never') },
      { program: 'execute\nGo.' },
    );
    expect(res.result.ok).toBe(false);
    expect(res.model.requestCount).toBe(3);
  });

  it('a failing operation notification ends the step with OperationDeliveryError keeping the fact', async () => {
    const cause = new Error('sink down');
    const res = await runAgent([() => ({ toolCalls: [toolCall('nh_evaluate', { expression: '1' }), finish({ kind: 'pass' })] })], { onOperationFinished: () => { throw cause; } }, { program: 'execute\nGo.' });
    expect(res.result.ok).toBe(false);
    const error = (res.result as { error: OperationDeliveryError }).error;
    expect(error).toBeInstanceOf(OperationDeliveryError);
    expect(error.deliveryCause).toBe(cause);
    expect(error.finished.status).toBe('completed');
  });

  it('a notification that fails for a skipped sibling still leaves every later sibling recorded as skipped', async () => {
    let skips = 0;
    const res = await runAgent(
      [() => ({ toolCalls: [toolCall('nh_evaluate', { expression: 'bad()' }), toolCall('nh_evaluate', { expression: '2' }), finish({ kind: 'pass' })] })],
      {
        inspectOperation: (request) => (request.kind === 'evaluate' && request.expression === 'bad()' ? rejectOperation('no') : accept()),
        onOperationFinished: (finished) => {
          if (finished.status === 'skipped' && skips++ === 0) throw new Error('sink down');
        },
      },
      { program: 'execute\nGo.' },
      { bad: () => 1 },
    );
    expect((res.result as { error: unknown }).error).toBeInstanceOf(OperationDeliveryError);
    expect(res.steps[0]!.operations.map((o) => `${o.request.kind}:${o.status}`)).toEqual(['evaluate:rejected', 'evaluate:skipped', 'output:skipped']);
  });

  it('a TerminalOperationError ends the step like AbortStep instead of going back to the model', async () => {
    class Fatal extends TerminalOperationError {}
    const res = await runAgent(
      [() => ({ toolCalls: [toolCall('nh_evaluate', { expression: 'fatal()' }), toolCall('nh_evaluate', { expression: '2' }), finish({ kind: 'pass' })] })],
      {},
      { program: 'execute\nGo.' },
      { fatal: () => { throw new Fatal('do not retry'); } },
    );
    expect((res.result as { error: unknown }).error).toBeInstanceOf(StepAbortedError);
    expect(((res.result as { error: StepAbortedError }).error.cause)).toBeInstanceOf(Fatal);
    expect(res.operations.map((o) => o.status)).toEqual(['failed', 'skipped', 'skipped']);
    expect(res.model.requestCount).toBe(1);
  });

  it('a TerminalOperationError from a native tool\'s argument validator ends the step too: no inspection, no body, later calls skipped', async () => {
    class Fatal extends TerminalOperationError {}
    const model = new ScriptedModel([() => ({ toolCalls: [toolCall('guarded', { x: 1 }), toolCall('nh_evaluate', { expression: '2' }), finish({ kind: 'pass' })] }), () => ({ toolCalls: [finish({ kind: 'pass' })] })]);
    const inspected: string[] = [];
    const ran: number[] = [];
    const guarded = defineTool({
      name: 'guarded',
      description: 'A tool whose argument validator refuses for good',
      input: z.object({ x: z.number() }).refine(() => { throw new Fatal('validator: the model must not handle this'); }),
      run: (args) => void ran.push(args.x),
    });
    const finished: string[] = [];
    const outcome = await run(new AgentExecutor({ model }), () =>
      scope({ tools: [guarded], oversight: { inspectOperation: (r) => (inspected.push(r.operationId), accept()), onOperationFinished: (f) => void finished.push(f.status) } }, () => step({ program: 'execute\nCall guarded.' })),
    ).then(() => undefined, (error: unknown) => error);
    expect(outcome).toBeInstanceOf(StepAbortedError);
    expect((outcome as StepAbortedError).cause).toBeInstanceOf(Fatal);
    expect(finished).toEqual(['failed', 'skipped', 'skipped']);
    expect(inspected).toEqual([]);
    expect(ran).toEqual([]);
    expect(model.requestCount).toBe(1);
  });

  it('a failed operation reports the exception\'s own class, also for a subclass that inherits its name from a built-in error', async () => {
    class QuotaExceeded extends Error {}
    class BadShape extends TypeError {}
    class Named extends Error {
      override name = 'CustomName';
    }
    let feedback: Record<string, unknown>[] = [];
    const res = await runAgent(
      [
        () => ({ toolCalls: [toolCall('nh_evaluate', { expression: 'quota()' }), toolCall('nh_evaluate', { expression: 'shape()' }), toolCall('nh_evaluate', { expression: 'named()' }), toolCall('nh_evaluate', { expression: 'plain()' })] }),
        (m) => {
          feedback = toolMessages(m);
          return { toolCalls: [finish({ kind: 'pass' })] };
        },
      ],
      {},
      { program: 'execute\nGo.' },
      { quota: () => { throw new QuotaExceeded('over'); }, shape: () => { throw new BadShape('bad'); }, named: () => { throw new Named('n'); }, plain: () => { throw new RangeError('r'); } },
    );
    const classes = ['QuotaExceeded', 'BadShape', 'CustomName', 'RangeError'];
    expect(res.operations.slice(0, 4).map((o) => o.failure?.errorClass)).toEqual(classes);
    expect(feedback.map((f) => (f.error as { class?: string }).class)).toEqual(classes);
  });

  it('decisions are made with a nonempty reason (and string guidance), or not at all', () => {
    const abortStep = (r: string) => import('../../kernel/src/index.js').then((m) => m.abortStep(r));
    for (const reason of ['', '   ', 5 as never, undefined as never]) expect(() => rejectOperation(reason), String(reason)).toThrow(TypeError);
    expect(() => rejectOperation('no', 7 as never)).toThrow(/guidance must be a string/);
    expect(rejectOperation('no', 'try count()')).toMatchObject({ kind: 'reject-operation', reason: 'no', guidance: 'try count()' });
    return Promise.all([expect(abortStep('')).rejects.toThrow(TypeError), expect(abortStep('stop')).resolves.toMatchObject({ kind: 'abort-step', reason: 'stop' })]);
  });

  it('a Rewrite replaces the validated bindings, and a rewritten value is validated again', async () => {
    const good = await runAgent(
      [() => ({ toolCalls: [toolCall('nh_assign', { target_path: 'label', expression: '"spam"' }), finish({ kind: 'pass' })] })],
      { inspectStepCommit: () => rewrite({ bindings: { label: 'ham' }, reason: 'policy' }) },
      { program: 'execute\nLabel into <:label>.', writes: { label: z.enum(['spam', 'ham']) } },
    );
    expect(good.result.ok && good.result.value.bindings).toEqual({ label: 'ham' });
    expect(good.steps[0]).toMatchObject({ rewritten: true, proposedBindings: { label: 'spam' }, committedBindings: { label: 'ham' } });
    const bad = await runAgent(
      [() => ({ toolCalls: [toolCall('nh_assign', { target_path: 'label', expression: '"spam"' }), finish({ kind: 'pass' })] })],
      { inspectStepCommit: () => rewrite({ bindings: { label: 'eggs' } }) },
      { program: 'execute\nLabel into <:label>.', writes: { label: z.enum(['spam', 'ham']) } },
    );
    expect((bad.result as { error: unknown }).error).toBeInstanceOf(OutputValidationError);
  });

  it('a child Natural function failing inside an expression fails only the parent operation', async () => {
    const child = naturalFunction({ name: 'child', program: 'execute\nFail.', input: z.object({}), returns: z.number() });
    const res = await runAgent(
      [
        () => ({ toolCalls: [toolCall('nh_evaluate', { expression: 'await child({})' })] }),
        () => ({ toolCalls: [finish({ kind: 'raise', raise_message: 'child says no' })] }),
        () => ({ toolCalls: [finish({ kind: 'pass' })] }),
      ],
      {},
      { program: 'execute\nCall the child.' },
      { child },
    );
    expect(res.result.ok).toBe(true);
    expect(res.steps.map((s) => s.status)).toEqual(['raised', 'completed']);
    expect(res.steps[0]!.parentExecutionId).toBe(res.steps[1]!.executionId);
    const parentOps = res.steps[1]!.operations;
    expect(parentOps[0]!.status).toBe('failed');
    expect(parentOps[0]!.failure!.message).toContain('child says no');
  });

  it('a decide block offers only the output tool and only its referenced evidence', async () => {
    let offered: string[] = [];
    let user = '';
    const res = await runAgent(
      [
        (m, info) => {
          offered = info.tools.map((t) => t.name);
          user = (m[1] as { content: string }).content;
          return { toolCalls: [toolCall('nh_output', { value: 'urgent' })] };
        },
      ],
      {},
      { program: 'decide\nIs <ticket> urgent? Set <:label>.', values: { ticket: 'server on fire', unrelated: 'secret' }, writes: { label: z.enum(['urgent', 'normal']) } },
    );
    expect(offered).toEqual(['nh_output']);
    expect(user).toContain('server on fire');
    expect(user).not.toContain('secret');
    expect(res.result.ok && res.result.value).toMatchObject({ kind: 'pass', bindings: { label: 'urgent' } });
  });

  it('after a refusal the rest of the response is skipped, a call to a tool that does not exist included', async () => {
    let feedback: Record<string, unknown>[] = [];
    const res = await runAgent(
      [
        () => ({ toolCalls: [toolCall('nh_evaluate', { expression: 'bad()' }), toolCall('no_such_tool', { a: 1 }), finish({ kind: 'pass' })] }),
        (m) => {
          feedback = toolMessages(m);
          return { toolCalls: [finish({ kind: 'pass' })] };
        },
      ],
      { inspectOperation: (r) => (r.expression === 'bad()' ? rejectOperation('no') : accept()) },
      { program: 'execute\nGo.' },
      { bad: () => 1 },
    );
    expect(res.result.ok).toBe(true);
    const refused = res.operations[0]!.request.operationId;
    expect(feedback.map((f) => f.status)).toEqual(['rejected', 'skipped', 'skipped']);
    expect(feedback[1]).toEqual({ status: 'skipped', blocked_by_operation_id: refused });
    // A tool that does not exist names no operation: it gets feedback, not a record.
    expect(res.operations.map((o) => [o.request.kind, o.status])).toEqual([['evaluate', 'rejected'], ['output', 'skipped'], ['output', 'completed']]);
  });
});
