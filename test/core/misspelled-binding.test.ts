// Issue 15.4: a model that assigns a misspelled write binding learns so in the same step, and a binding
// that is never assigned fails with a message naming it and the step, never a raw schema dump.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentExecutor, ExecutionError, UnassignedWriteBindingError, naturalFunction, run } from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';
import { finish, runAgent, toolMessages } from './helpers.js';

const GREET = { program: 'execute\nGreet <name> into <:greeting>.', values: { name: 'Ada' }, writes: { greeting: z.string() } };

describe('a misspelled write binding', () => {
  it('the nh_assign result says the name is step-local and lists the declared write bindings', async () => {
    let seen: Record<string, unknown>[] = [];
    const out = await runAgent(
      [
        () => ({ toolCalls: [toolCall('nh_assign', { target_path: 'greting', expression: '"hi Ada"' })] }),
        (m) => {
          seen = toolMessages(m);
          return { toolCalls: [toolCall('nh_assign', { target_path: 'greeting', expression: 'greting' }), finish({ kind: 'pass' })] };
        },
      ],
      {},
      GREET,
    );
    expect(seen[0]).toMatchObject({ status: 'completed', target_path: 'greting' });
    expect(seen[0]!.note).toBe("'greting' is step-local, not a write binding; declared write bindings: greeting");
    expect(out.result.ok && out.result.value.bindings).toEqual({ greeting: 'hi Ada' });
  });

  it('an output that leaves the binding unassigned fails in the same step; the corrected next turn commits', async () => {
    let seen: Record<string, unknown>[] = [];
    const out = await runAgent(
      [
        () => ({ toolCalls: [toolCall('nh_assign', { target_path: 'greting', expression: '"hi Ada"' }), finish({ kind: 'pass' })] }),
        (m) => {
          seen = toolMessages(m);
          return { toolCalls: [toolCall('nh_assign', { target_path: 'greeting', expression: '"hi Ada"' }), finish({ kind: 'pass' })] };
        },
      ],
      {},
      GREET,
    );
    expect(seen[1]).toMatchObject({ status: 'failed', error: { kind: 'invalid_input', class: 'UnassignedWriteBindingError' } });
    const message = (seen[1]!.error as { message: string }).message;
    expect(message).toContain('<:greeting>');
    expect(message).toContain('never assigned');
    expect(message).toContain("'greting', which is step-local");
    expect(out.result.ok && out.result.value.bindings).toEqual({ greeting: 'hi Ada' });
    expect(out.steps.map((s) => s.status)).toEqual(['completed']);
  });

  it('a model that never assigns it ends with an error naming the unassigned binding and the step', async () => {
    const wrong = () => ({ toolCalls: [toolCall('nh_assign', { target_path: 'greting', expression: '"hi"' }), finish({ kind: 'pass' })] });
    const out = await runAgent([wrong, wrong, wrong], {}, { ...GREET, stepId: 'greet' });
    expect(out.result.ok).toBe(false);
    const error = (out.result as { error: Error }).error;
    expect(error).toBeInstanceOf(ExecutionError);
    expect(error.message).toContain('<:greeting>');
    expect(error.message).toContain('never assigned');
    expect(error.message).toMatch(/step 'greet'/i);
    expect(error.message).not.toContain('"code"');
    expect((error as ExecutionError).cause).toBeInstanceOf(UnassignedWriteBindingError);
  });

  it("the runtime form's return validation names the binding the step never assigned, not a zod dump", async () => {
    const greet = naturalFunction({
      name: 'greet',
      program: 'execute\nGreet <name> into <:greeting>.',
      input: z.object({ name: z.string() }),
      returns: z.string(),
      then: ({ bindings }) => bindings.greeting as string,
    });
    const model = new ScriptedModel([() => ({ toolCalls: [toolCall('nh_assign', { target_path: 'greting', expression: '"hi"' }), finish({ kind: 'pass' })] })]);
    const error = await run(new AgentExecutor({ model }), () => greet({ name: 'Ada' })).catch((e: unknown) => e as Error) as Error;
    expect(error).toBeInstanceOf(UnassignedWriteBindingError);
    expect(error.message).toBe(
      "greet: the return value failed validation (expected string, received undefined): step 'greet' never assigned write binding <:greeting>.",
    );
  });
});
