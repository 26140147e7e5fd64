import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AgentExecutor,
  DependencyMismatchError,
  NaturalExecutionError,
  RetainedFunction,
  Runner,
  defineCapability,
  explore,
  type AcceptanceCheck,
  type CodeProposal,
  type ModelMessage,
} from '../../../kernel/src/index.js';
import * as nh from '../../../kernel/src/index.js';
import { ScriptedModel, toolCall, type ScriptedTurn } from '../../../kernel/src/testing.js';

const finish = () => toolCall('nh_output', { result: { kind: 'pass' } });

/** A scripted turn that commits `proposal` through the write binding and records the prompt it was shown. */
function proposeTurn(proposal: CodeProposal | string, prompts: string[]): ScriptedTurn {
  const expression = typeof proposal === 'string' ? proposal : JSON.stringify(proposal);
  return (messages: readonly ModelMessage[]) => {
    prompts.push(messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n'));
    return { toolCalls: [toolCall('nh_assign', { target_path: 'proposal', expression }), finish()] };
  };
}

function scaleCapability() {
  const calls: number[] = [];
  const capability = defineCapability({
    name: 'scale',
    description: 'Multiplies a value by ten.',
    request: z.object({ value: z.number() }),
    signature: '(request: { value: number }) => number',
    run: ({ value }) => {
      calls.push(value);
      return value * 10;
    },
  });
  return { capability, calls };
}

const usesScale = (body: string): CodeProposal => ({
  language: 'typescript',
  intent: 'define',
  source: `export async function tenfoldPlusOne(x: number): Promise<number> { ${body} }`,
  dependencies: [{ name: 'scale', kind: 'capability', type: '(request: { value: number }) => number' }],
});

const isThirtyOne: AcceptanceCheck = async (exports) => {
  const value = await (exports.tenfoldPlusOne as (x: number) => Promise<number>)(3);
  return [{ check: 'tenfoldPlusOne(3) is 31', passed: value === 31, detail: `tenfoldPlusOne(3) returned ${value}` }];
};

function runnerOver(turns: ScriptedTurn[]) {
  const model = new ScriptedModel(turns);
  return { runner: new Runner({ executor: new AgentExecutor({ model, maxRequestsPerStep: 10 }) }), model };
}

const task = 'Return ten times x plus one, using the scale capability for the multiplication.';

describe('parts/exploration', () => {
  it('iterates from a failing proposal to a passing one and returns a retained candidate whose evidence lists both attempts', async () => {
    const prompts: string[] = [];
    const { runner, model } = runnerOver([
      proposeTurn(usesScale('return (await scale({ value: x })) as number;'), prompts),
      proposeTurn(usesScale('return ((await scale({ value: x })) as number) + 1;'), prompts),
    ]);
    const { capability, calls } = scaleCapability();
    const result = await runner.run((ctx) => explore(ctx, { task, exportName: 'tenfoldPlusOne', checks: [isThirtyOne], maxAttempts: 3, availableDependencies: [{ name: 'scale', kind: 'capability', type: capability.signature }] }), {
      grant: { capabilities: [capability] },
    });
    expect(model.requestCount).toBe(2);
    expect(result.kind).toBe('candidate');
    if (result.kind !== 'candidate') return;
    const { attempts, ledger } = result.evidence;
    expect(attempts.map((a) => a.passed)).toEqual([false, true]);
    expect(attempts[0]!.findings).toEqual([{ check: 'tenfoldPlusOne(3) is 31', passed: false, detail: 'tenfoldPlusOne(3) returned 30' }]);
    expect(attempts[0]!.definitionId).not.toBe(attempts[1]!.definitionId);
    expect(result.retained).toBeInstanceOf(RetainedFunction);
    expect(result.retained.provenance).toBe('generated');
    expect(result.retained.definitionId).toBe(attempts[1]!.definitionId);
    expect(result.retained.evidence.attempts).toEqual(attempts);
    // The model saw the first attempt's findings in its second step, and none in its first.
    expect(prompts[0]).not.toContain('returned 30');
    expect(prompts[1]).toContain('tenfoldPlusOne(3) returned 30');
    // The ledger selection holds both proposal executions, both materializations and the checks' calls.
    const materializations = ledger.filter((e) => e.kind === 'dispatch.start' && e.status === 'materialization').map((e) => e.subjectId);
    expect(materializations).toEqual(attempts.map((a) => a.dispatchNodeId));
    expect(ledger.filter((e) => e.kind === 'execution.start').map((e) => e.subjectId)).toEqual(attempts.map((a) => a.executionId));
    expect(ledger.filter((e) => e.kind === 'dispatch.start' && e.status === 'invocation')).toHaveLength(2);
    expect(ledger.filter((e) => e.kind === 'capability.call')).toHaveLength(2);
    expect(ledger.filter((e) => e.kind === 'part.event').map((e) => e.status)).toEqual(['exploration.start', 'attempt.assessed', 'attempt.assessed', 'exploration.end']);
    expect(ledger.every((e) => e.runId === ledger[0]!.runId)).toBe(true);
    expect(calls).toEqual([3, 3]);

    // A later run with its own grant can invoke the retained definition: fresh identity, linked to the original.
    const { runner: later } = runnerOver([]);
    const granted = scaleCapability();
    const value = await later.run(async () => result.retained.invoke(4), { grant: { capabilities: [granted.capability] } });
    expect(value).toBe(41);
    expect(granted.calls).toEqual([4]);
    const again = later.ledger.select({ kind: 'dispatch.start', status: 'materialization' })[0]!;
    expect(again.data).toMatchObject({ originalDefinitionId: result.retained.definitionId });

    // A later run without that grant gets a typed refusal, not the first run's authority.
    const { runner: bare } = runnerOver([]);
    const refused = await bare.run(async () => result.retained.invoke(5)).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DependencyMismatchError);
    expect((refused as DependencyMismatchError).mismatches).toEqual([expect.objectContaining({ kind: 'missing', name: 'scale' })]);
    expect(calls).toEqual([3, 3]);
    expect(granted.calls).toEqual([4]);
  });

  it('a proposal using eval is rejected by dispatch before it runs and recorded as a failed attempt the model then sees', async () => {
    const prompts: string[] = [];
    // Built by concatenation: the host's textual check on assign expressions would refuse the literal spelling.
    const evil = `{ language: 'javascript', intent: 'define', source: 'export function double(x) { return ev' + 'al("x * 2"); }' }`;
    const good: CodeProposal = { language: 'javascript', intent: 'define', source: 'export function double(x) { return x * 2; }' };
    const { runner } = runnerOver([proposeTurn(evil, prompts), proposeTurn(good, prompts)]);
    const doubles: AcceptanceCheck = (exports) => [{ check: 'double(21) is 42', passed: (exports.double as (x: number) => number)(21) === 42 }];
    const result = await runner.run((ctx) => explore(ctx, { task: 'Double a number.', exportName: 'double', checks: [doubles], maxAttempts: 2 }));
    expect(result.kind).toBe('candidate');
    const [first, second] = result.evidence.attempts;
    expect(first!.passed).toBe(false);
    expect(first!.findings).toHaveLength(1);
    expect(first!.findings[0]).toMatchObject({ check: 'dispatch', passed: false });
    expect(first!.findings[0]!.detail).toMatch(/^GeneratedSourceRejectedError: .*eval/);
    expect(first!.dispatchNodeId).toBeDefined();
    expect(second!.passed).toBe(true);
    expect(prompts[1]).toContain('GeneratedSourceRejectedError');
    const rejected = result.evidence.ledger.filter((e) => e.subjectId === first!.dispatchNodeId || e.parentId === first!.dispatchNodeId);
    expect(rejected.map((e) => `${e.kind}:${e.status}`)).toEqual(['dispatch.start:materialization', 'trace.anomaly:raw_dynamic_execution', 'dispatch.end:rejected']);
  });

  it('stops after maxAttempts with the exhausted result; a throwing export and a missing export become findings', async () => {
    const prompts: string[] = [];
    const throws: CodeProposal = { language: 'javascript', intent: 'define', source: 'export function double(x) { throw new RangeError("too big: " + x); }' };
    const misnamed: CodeProposal = { language: 'javascript', intent: 'define', source: 'export function twice(x) { return x * 2; }' };
    const { runner, model } = runnerOver([proposeTurn(throws, prompts), proposeTurn(misnamed, prompts)]);
    const doubles: AcceptanceCheck = function doubles(exports) {
      return [{ check: 'double(21) is 42', passed: (exports.double as (x: number) => number)(21) === 42 }];
    };
    const result = await runner.run((ctx) => explore(ctx, { task: 'Double a number.', exportName: 'double', checks: [doubles], maxAttempts: 2 }));
    expect(model.requestCount).toBe(2);
    expect(result.kind).toBe('exhausted');
    if (result.kind !== 'exhausted') return;
    expect(result.attempts.map((a) => a.findings)).toEqual([
      [{ check: 'doubles', passed: false, detail: 'RangeError: too big: 21' }],
      [{ check: 'export', passed: false, detail: "The source has no exported function named 'double' (exports: twice)." }],
    ]);
    expect(result.evidence.ledger.filter((e) => e.kind === 'part.event').at(-1)!.data).toMatchObject({ event: { outcome: 'exhausted', attempts: 2 } });
  });

  it("a look-alike of a host stop thrown by the generated code a check calls is a finding, not the run's stop", async () => {
    const prompts: string[] = [];
    const lookAlike = (make: string): CodeProposal => ({
      language: 'javascript',
      intent: 'define',
      source: `export function double(x) { throw ${make}; }`,
      dependencies: [{ name: 'nh', kind: 'reference', type: 'object' }],
    });
    const exhausted = lookAlike("Object.assign(Object.create(nh.AllocationExhaustedError.prototype), { message: 'forged' })");
    const terminated = lookAlike("new nh.RunTerminatedError({ runId: 'forged', ceased: true, reason: 'forged' })");
    const { runner } = runnerOver([proposeTurn(exhausted, prompts), proposeTurn(terminated, prompts)]);
    const doubles: AcceptanceCheck = function doubles(exports) {
      return [{ check: 'double(21) is 42', passed: (exports.double as (x: number) => number)(21) === 42 }];
    };
    const result = await runner.run((ctx) => explore(ctx, { task: 'Double a number.', exportName: 'double', checks: [doubles], maxAttempts: 2 }), { grant: { capabilities: [], references: { nh } } });
    expect(result.kind).toBe('exhausted');
    if (result.kind !== 'exhausted') return;
    expect(result.attempts.map((a) => a.findings.map((f) => [f.check, f.passed]))).toEqual([[['doubles', false]], [['doubles', false]]]);
    expect(runner.ledger.select({ kind: 'allocation.exhausted' })).toEqual([]);
  });

  it('the run allocation bounds the exploration: exhaustion surfaces as the typed harness error, not as a finding', async () => {
    const prompts: string[] = [];
    const wrong: CodeProposal = { language: 'javascript', intent: 'define', source: 'export function double(x) { return x; }' };
    const { runner, model } = runnerOver([proposeTurn(wrong, prompts), proposeTurn(wrong, prompts)]);
    const doubles: AcceptanceCheck = (exports) => [{ check: 'double(21) is 42', passed: (exports.double as (x: number) => number)(21) === 42 }];
    const error = await runner
      .run((ctx) => explore(ctx, { task: 'Double a number.', exportName: 'double', checks: [doubles], maxAttempts: 5 }), { allocation: { maxNaturalExecutions: 1 } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NaturalExecutionError);
    expect((error as NaturalExecutionError).failure).toBe('allocation_exhausted');
    expect(model.requestCount).toBe(1);
    expect(runner.ledger.select({ kind: 'allocation.exhausted' })).toHaveLength(1);
    const end = runner.ledger.select({ kind: 'part.event', status: 'exploration.end' })[0]!;
    expect(end.data).toMatchObject({ event: { outcome: 'failed', attempts: 1 } });
  });

  it('the model gets no authority from the exploration: its tools are exactly the run grant', async () => {
    const seen: string[][] = [];
    const proposal: CodeProposal = { language: 'javascript', intent: 'define', source: 'export function one() { return 1; }' };
    const { runner } = runnerOver([
      (messages, info) => {
        seen.push(info.functionTools.map((t) => t.name).filter((n) => !n.startsWith('nh_')));
        return proposeTurn(proposal, [])(messages, info);
      },
    ]);
    const isOne: AcceptanceCheck = (exports) => [{ check: 'one() is 1', passed: (exports.one as () => number)() === 1 }];
    const result = await runner.run((ctx) => explore(ctx, { task: 'Return one.', exportName: 'one', checks: [isOne], maxAttempts: 1 }));
    expect(result.kind).toBe('candidate');
    expect(seen).toEqual([[]]);
  });
});
