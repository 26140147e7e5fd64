// Seed 001 inside a run: a core stage that fails before the executor sees the step (a program that does not parse, a
// write binding type that is not zod, a step that allows no outcome kind) still has its execution start and end in the
// ledger, and reaches the composition as NaturalExecutionError chained to the original, whose message it keeps.
import { describe, expect, it } from 'vitest';
import { BindingResolutionError, NaturalExecutionError, NaturalParseError, UsageError, step, type StepFinished } from '../../kernel/src/index.js';
import { scriptedRunner, finish } from './support.js';

type StepSpec = Parameters<typeof step>[0];

const CASES: { name: string; spec: StepSpec; cause: abstract new (...args: never[]) => Error; message: RegExp }[] = [
  { name: 'invalid frontmatter', spec: { program: 'execute\n---\ndeny: [bogus]\n---\nGo.' }, cause: NaturalParseError, message: /unknown outcome kind 'bogus'/ },
  { name: 'a missing sentinel line', spec: { program: 'Go.' }, cause: NaturalParseError, message: /must begin with `execute` or `decide`/ },
  { name: 'a write binding type that is not zod', spec: { program: 'execute\nSet <:x>.', values: { x: 1 }, writes: { x: 5 as never } }, cause: UsageError, message: /<:x> must be a zod schema/ },
  { name: 'an execute block denying every outcome kind', spec: { program: 'execute\n---\ndeny: [pass, raise]\n---\nGo.' }, cause: UsageError, message: /no outcome kind/ },
  { name: 'an unresolved read binding (reference case)', spec: { program: 'execute\nUse <missing_name_q>.' }, cause: BindingResolutionError, message: /<missing_name_q>/ },
];

describe('core-stage failures inside a Runner run', () => {
  for (const c of CASES) {
    it(`${c.name}: NaturalExecutionError chained to the original, one execution start/end pair, no model request`, async () => {
      const steps: StepFinished[] = [];
      const { runner, model } = scriptedRunner([() => ({ toolCalls: [finish()] })]);
      const error = await runner
        .run(async () => step({ ...c.spec, stepId: 'probe' }), { oversight: { onStepFinished: (f) => void steps.push(f) } })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NaturalExecutionError);
      const failure = error as NaturalExecutionError;
      expect(failure.failure).toBe('failed');
      expect(failure.stepId).toBe('probe');
      expect(failure.cause).toBeInstanceOf(c.cause);
      expect((failure.cause as Error).message).toMatch(c.message);
      expect(failure.message).toMatch(c.message);
      expect(model.requestCount).toBe(0);
      const events = runner.ledger.select({ kind: ['execution.start', 'execution.end'] });
      expect(events.map((e) => [e.kind, e.status])).toEqual([['execution.start', undefined], ['execution.end', 'failed']]);
      expect(events[0]!.subjectId).toBe(failure.executionId);
      expect(events[1]!.subjectId).toBe(failure.executionId);
      expect(steps.map((s) => [s.executionId, s.status])).toEqual([[failure.executionId, 'failed']]);
      expect(runner.ledger.select({ kind: 'run.end' }).map((e) => e.status)).toEqual(['failed']);
    });
  }
});
