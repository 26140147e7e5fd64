import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  BindingResolutionError,
  ExecutionError,
  OutputValidationError,
  Pass,
  Break,
  Continue,
  Raise,
  Return,
  runBlock,
  run,
  rewrite,
  step,
} from '../../kernel/src/index.js';
import { toolCall } from '../../kernel/src/testing.js';
import { callbackExecutor, finish, runAgent } from './helpers.js';

// nighthawk-core.md section 6, behaviours 1-8, adapted to TypeScript.
describe('conformance: bindings, outcomes and validation', () => {
  it('1. a committed write binding reaches the caller; an untouched one is absent', async () => {
    const { executor } = callbackExecutor(() => ({ outcome: Pass, bindings: { result: 11 } }));
    const r = await run(executor, () => step({ program: 'execute\nSet <:result>.', writes: { result: z.number() } }));
    expect(r.bindings).toEqual({ result: 11 });
    const { executor: silent } = callbackExecutor(() => ({ outcome: Pass }));
    const r2 = await run(silent, () => step({ program: 'execute\nSet <:result>.', writes: { result: z.number() } }));
    expect('result' in r2.bindings).toBe(false);
  });

  it('2. a read binding in its temporal dead zone fails before the executor is called', async () => {
    const { executor, requests } = callbackExecutor(() => ({ outcome: Pass }));
    const attempt = run(executor, () => runBlock({ program: 'execute\nUse <later>.', scope: { later: () => later } }));
    let later = 1;
    void later;
    const error = await attempt.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BindingResolutionError);
    expect(error).toMatchObject({ bindingName: 'later', reason: 'unbound' });
    expect(requests).toHaveLength(0);
    const missing = await run(executor, () => step({ program: 'execute\nUse <nowhere>.' })).catch((e: unknown) => e);
    expect(missing).toMatchObject({ bindingName: 'nowhere', reason: 'not-defined' });
    expect(String((missing as Error).message)).toContain('<nowhere>');
  });

  it('3. nested values are coerced by the binding schema', async () => {
    const Result = z.object({ child: z.object({ value: z.coerce.number().int() }) });
    const { executor } = callbackExecutor(() => ({ outcome: Pass, bindings: { result: { child: { value: '7' } } } }));
    const r = await run(executor, () => step({ program: 'execute\nFill <:result>.', writes: { result: Result } }));
    expect((r.bindings.result as z.infer<typeof Result>).child.value).toBe(7);
  });

  it('4. a cross-field validation failure commits nothing', async () => {
    const Decision = z
      .object({ approve: z.boolean(), reason: z.string() })
      .refine((d) => d.approve || d.reason.length > 0, { message: 'a refusal needs a reason' });
    const { executor } = callbackExecutor(() => ({ outcome: Pass, bindings: { decision: { approve: false, reason: '' }, note: 'x' } }));
    const error = await run(executor, () =>
      step({ program: 'execute\nDecide <:decision> and <:note>.', writes: { decision: Decision, note: z.string() } }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutputValidationError);
    expect((error as Error).message).toContain("Output binding 'decision' failed validation");
  });

  it('5. break and continue drive the surrounding loop; break outside a loop is refused', async () => {
    const loop = async (kind: 'break' | 'continue') => {
      const { executor } = callbackExecutor(() => ({ outcome: kind === 'break' ? Break : Continue }));
      return run(executor, async () => {
        let total = 0;
        for (let i = 0; i < 5; i++) {
          total += 1;
          const r = await step({ program: 'execute\nDecide.', inLoop: true });
          if (r.kind === 'break') break;
          if (r.kind === 'continue') continue;
          total += 100;
        }
        return total;
      });
    };
    expect(await loop('break')).toBe(1);
    expect(await loop('continue')).toBe(5);
    const { executor } = callbackExecutor(() => ({ outcome: Break }));
    await expect(run(executor, () => step({ program: 'execute\nDecide.' }))).rejects.toThrow(/'break' is not allowed/);
  });

  it('6. frontmatter deny narrows the outcomes the executor is offered', async () => {
    const { executor, requests } = callbackExecutor(() => ({ outcome: Return.of(1) }));
    const program = 'execute\n---\ndeny: [return]\n---\nCompute.';
    const error = await run(executor, () => step({ program, returnAllowed: true, returns: z.number() })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExecutionError);
    expect((error as Error).message).toContain('not allowed');
    expect(requests[0]!.allowedOutcomes).toEqual(['pass', 'raise']);
  });

  it('7. a return value that fails the return schema is an error', async () => {
    const { executor } = callbackExecutor(() => ({ outcome: Return.of('x'), bindings: { result: 'x' } }));
    const error = await run(executor, () =>
      step({ program: 'execute\nSet <:result>.', returnAllowed: true, returns: z.number(), writes: { result: z.string() } }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutputValidationError);
    expect((error as Error).message).toContain('Return value failed validation');
  });

  it('8. raise throws the requested error and commits no bindings', async () => {
    class BadInput extends Error {
      override name = 'BadInput';
    }
    const original = new BadInput('bad');
    const { executor } = callbackExecutor(() => ({ outcome: Raise.of(original), bindings: { result: 1 } }));
    const error = await run(executor, () => step({ program: 'execute\nCheck <BadInput>; set <:result>.', values: { BadInput } })).catch(
      (e: unknown) => e,
    );
    expect(error).toBe(original);
  });

  it('a transforming type is applied once: an assigned write binding, a return value, a decided value and a rewrite keep one application', async () => {
    let applied = 0;
    const bang = () => z.string().transform((text) => (applied++, `${text}!`));
    const assign = await runAgent(
      [() => ({ toolCalls: [toolCall('nh_assign', { target_path: 's', expression: '"hi"' }), finish({ kind: 'pass' })] })],
      {},
      { program: 'execute\nPut a word into <:s>.', writes: { s: bang() } },
    );
    expect((assign.result as { value: { bindings: unknown } }).value.bindings).toEqual({ s: 'hi!' });
    const returned = await runAgent([() => ({ toolCalls: [finish({ kind: 'return', return_expression: '"hi"' })] })], {}, { program: 'execute\nReturn a word.', returnAllowed: true, returns: bang() });
    expect((returned.result as { value: { value: unknown } }).value.value).toBe('hi!');
    const decided = await runAgent([() => ({ toolCalls: [toolCall('nh_output', { value: 'yes' })] })], {}, { program: 'decide\nIs it <:answer>?', writes: { answer: bang() } });
    expect((decided.result as { value: { bindings: unknown } }).value.bindings).toEqual({ answer: 'yes!' });
    const rewritten = await runAgent(
      [() => ({ toolCalls: [finish({ kind: 'return', return_expression: '"x"' })] })],
      { inspectStepCommit: () => rewrite({ bindings: { w: 2 } }) },
      { program: 'execute\nReturn a word, set <:w>.', writes: { w: z.number() }, values: { w: 1 }, returnAllowed: true, returns: bang() },
    );
    expect((rewritten.result as { value: { value: unknown; bindings: unknown } }).value).toMatchObject({ value: 'x!', bindings: { w: 2 } });
    expect(applied).toBeGreaterThan(0);
  });

  it('a field assigned inside a class instance is validated against the instance type before it is set', async () => {
    class Account {
      balance = 0;
    }
    const account = new Account();
    const out = await runAgent(
      [() => ({ toolCalls: [toolCall('nh_assign', { target_path: 'account.balance', expression: '5' }), finish({ kind: 'pass' })] })],
      {},
      { program: 'execute\nSet the balance of <:account> to 5.', writes: { account: z.instanceof(Account).refine((a) => a.balance >= 0) }, values: { account } },
    );
    expect(out.operations.map((o) => `${o.request.kind}:${o.status}`)).toEqual(['assign:completed', 'output:completed']);
    expect(account.balance).toBe(5);
    const refused = await runAgent(
      [() => ({ toolCalls: [toolCall('nh_assign', { target_path: 'account.balance', expression: '-1' })] }), () => ({ toolCalls: [finish({ kind: 'pass' })] })],
      {},
      { program: 'execute\nSet the balance of <:account>.', writes: { account: z.instanceof(Account).refine((a) => a.balance >= 0) }, values: { account } },
    );
    expect(refused.operations[0]!.status).toBe('failed');
    expect(account.balance).toBe(5); // a failed assignment changes nothing
  });
});

