// Seed 001: the step lifecycle records exactly one outcome event per Natural execution, including failures of core
// stages the executor seam never sees. A program that does not parse and a write binding type that is not a zod
// schema fail like an unresolved read binding: one failed record, no executor call, the original error thrown.
import { describe, expect, it } from 'vitest';
import { AgentExecutor, BindingResolutionError, NaturalParseError, UsageError, run, scope, step, type StepFinished } from '../../kernel/src/index.js';
import { ScriptedModel } from '../../kernel/src/testing.js';
import { callbackExecutor, finish } from './helpers.js';

type StepSpec = Parameters<typeof step>[0];

async function runCoreStep(spec: StepSpec) {
  const steps: StepFinished[] = [];
  const { executor, requests } = callbackExecutor(() => ({ outcome: { kind: 'pass' } }));
  const error = await run(executor, () => scope({ oversight: { onStepFinished: (f) => void steps.push(f) } }, () => step(spec))).then(
    () => undefined,
    (e: unknown) => e,
  );
  return { error, steps, executorCalls: requests.length };
}

const CASES: { name: string; spec: StepSpec; type: abstract new (...args: never[]) => Error; message: RegExp }[] = [
  { name: 'invalid frontmatter', spec: { program: 'execute\n---\ndeny: [bogus]\n---\nGo.' }, type: NaturalParseError, message: /unknown outcome kind 'bogus'/ },
  { name: 'a missing sentinel line', spec: { program: 'Go.' }, type: NaturalParseError, message: /must begin with `execute` or `decide`/ },
  { name: 'a decide block without exactly one write binding', spec: { program: 'decide\nPick.' }, type: NaturalParseError, message: /exactly one write binding/ },
  { name: 'a write binding type that is not zod', spec: { program: 'execute\nSet <:x>.', values: { x: 1 }, writes: { x: 5 as never } }, type: UsageError, message: /<:x> must be a zod schema/ },
  { name: 'an unresolved read binding (reference case)', spec: { program: 'execute\nUse <missing_name_q>.' }, type: BindingResolutionError, message: /<missing_name_q>/ },
];

describe('core-stage failures before the executor', () => {
  for (const c of CASES) {
    it(`${c.name}: one failed record, no executor call, the original error thrown`, async () => {
      const out = await runCoreStep(c.spec);
      expect(out.error).toBeInstanceOf(c.type);
      expect((out.error as Error).message).toMatch(c.message);
      expect(out.executorCalls).toBe(0);
      expect(out.steps).toHaveLength(1);
      expect(out.steps[0]).toMatchObject({ stepId: 'natural-block', status: 'failed', outcomeKind: undefined, operations: [], committedBindings: {} });
      expect(out.steps[0]!.error).toBe(out.error);
    });
  }

  it('the step id given to step() names the record of a program that did not parse', async () => {
    const out = await runCoreStep({ program: 'execute\n---\ndeny: [bogus]\n---\nGo.', stepId: 'triage' });
    expect(out.steps.map((s) => [s.stepId, s.status])).toEqual([['triage', 'failed']]);
  });

  it('a failed parse is not cached: every call of the same program gets its own record and error', async () => {
    const steps: StepFinished[] = [];
    const errors: unknown[] = [];
    const { executor } = callbackExecutor(() => ({ outcome: { kind: 'pass' } }));
    await run(executor, () =>
      scope({ oversight: { onStepFinished: (f) => void steps.push(f) } }, async () => {
        for (let i = 0; i < 2; i++) await step({ program: 'execute\n---\ndeny: [bogus]\n---\nGo.' }).catch((e: unknown) => errors.push(e));
      }),
    );
    expect(errors).toHaveLength(2);
    for (const e of errors) expect(e).toBeInstanceOf(NaturalParseError);
    expect(steps.map((s) => s.status)).toEqual(['failed', 'failed']);
    expect(new Set(steps.map((s) => s.executionId)).size).toBe(2);
  });
});

// Reference §1.3: denying every kind leaves an empty set, which the agent executor rejects before any request.
describe('a step that allows no outcome kind', () => {
  async function agentStep(spec: StepSpec) {
    const model = new ScriptedModel(() => ({ toolCalls: [finish({ kind: 'pass' })] }));
    const steps: StepFinished[] = [];
    const outcome = await run(new AgentExecutor({ model }), () => scope({ oversight: { onStepFinished: (f) => void steps.push(f) } }, () => step(spec))).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    return { outcome, steps, requests: model.requestCount };
  }

  it('an execute block denying pass and raise is refused before any model request, recorded as the step failure', async () => {
    const out = await agentStep({ program: 'execute\n---\ndeny: [pass, raise]\n---\nGo.' });
    expect(out.requests).toBe(0);
    const error = (out.outcome as { error: Error }).error;
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toMatch(/no outcome kind/);
    expect(error.message).toMatch(/deny: pass, raise/);
    expect(error.message).toMatch(/deny fewer kinds/i);
    expect(out.steps.map((s) => s.status)).toEqual(['failed']);
    expect(out.steps[0]!.error).toBe(error);
  });

  it('a decide block denying pass is refused the same way', async () => {
    const out = await agentStep({ program: 'decide\n---\ndeny: [pass]\n---\nPick <:choice>.', values: { choice: 'a' } });
    expect(out.requests).toBe(0);
    expect((out.outcome as { error: unknown }).error).toBeInstanceOf(UsageError);
    expect(out.steps.map((s) => s.status)).toEqual(['failed']);
  });

  it("the run's denied kinds count too, and are named", async () => {
    const model = new ScriptedModel(() => ({ toolCalls: [finish({ kind: 'pass' })] }));
    const error = await run(new AgentExecutor({ model }), () => step({ program: 'execute\n---\ndeny: [pass]\n---\nGo.' }), {
      deniedOutcomes: ['raise'],
    }).catch((e: unknown) => e);
    expect(model.requestCount).toBe(0);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(/scope deny: raise/);
  });

  it('the same frontmatter inside a loop still leaves break and continue, so the step runs', async () => {
    const model = new ScriptedModel(() => ({ toolCalls: [finish({ kind: 'break' })] }));
    const result = await run(new AgentExecutor({ model }), () => step({ program: 'execute\n---\ndeny: [pass, raise]\n---\nGo.', inLoop: true }));
    expect(result.kind).toBe('break');
  });
});
