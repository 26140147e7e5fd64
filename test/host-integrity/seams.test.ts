/**
 * Host-integrity cases that are not run from the three interior places: decisions read once (core),
 * policy by value (operator objects mutated after construction), approval only of observed
 * definitions (cells), ambient tool re-exposure in an attenuated scope, and the async context itself.
 */
import { executionAsyncResource } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';
import { finish as coreFinish, runAgent } from '../core/helpers.js';
import { finish, memoryStore, scriptedRunner, trackedCapability } from '../harness/support.js';

describe('decisions are read exactly once into a host-owned record', () => {
  const evaluate = (expression: string) => [() => ({ toolCalls: [toolCall('nh_evaluate', { expression })] }), () => ({ toolCalls: [coreFinish({ kind: 'pass' })] })];

  it('a decision whose kind reads reject-operation first and accept afterwards fails closed and the body never runs', async () => {
    let ran = 0;
    let reads = 0;
    const decision = { get kind() { return reads++ === 0 ? 'reject-operation' : 'accept'; }, reason: 'no' };
    const res = await runAgent(evaluate('body()'), { inspectOperation: () => decision as unknown as nh.OperationDecision }, { program: 'execute\nGo.' }, { body: () => ++ran });
    expect(res.result.ok).toBe(false);
    expect((res.result as { error: unknown }).error).toBeInstanceOf(nh.OversightContractError);
    expect(ran).toBe(0);
    expect(reads).toBe(0); // an accessor is refused without being called
    expect(res.operations.map((o) => o.status)).toEqual(['aborted']);
  });

  it('a getter that throws on the second read is an OversightContractError, and the operation has exactly one record', async () => {
    let reads = 0;
    const decision = { get kind() { if (reads++ > 0) throw new Error('second read'); return 'accept'; } };
    const res = await runAgent(evaluate('1 + 1'), { inspectOperation: () => decision as unknown as nh.OperationDecision }, { program: 'execute\nGo.' });
    expect((res.result as { error: unknown }).error).toBeInstanceOf(nh.OversightContractError);
    expect(res.operations).toHaveLength(1);
  });

  it('a Proxy decision is refused before any trap runs', async () => {
    let traps = 0;
    const proxy = new Proxy({ kind: 'accept' }, { get: (t, k) => (traps++, Reflect.get(t, k)), getOwnPropertyDescriptor: (t, k) => (traps++, Reflect.getOwnPropertyDescriptor(t, k)) });
    const res = await runAgent(evaluate('1 + 1'), { inspectOperation: () => proxy as nh.OperationDecision }, { program: 'execute\nGo.' });
    expect((res.result as { error: unknown }).error).toBeInstanceOf(nh.OversightContractError);
    expect(traps).toBe(0);
    expect(res.operations.map((o) => o.status)).toEqual(['aborted']);
  });

  it('a commit decision that changes after validation cannot rewrite what was validated', async () => {
    const decision = { kind: 'rewrite', bindings: { answer: 'checked' } } as Record<string, unknown>;
    const res = await runAgent(
      [() => ({ toolCalls: [toolCall('nh_assign', { target_path: 'answer', expression: '"model"' })] }), () => ({ toolCalls: [coreFinish({ kind: 'pass' })] })],
      {
        inspectStepCommit: () => {
          // Change the bindings once the host has (supposedly) validated them.
          queueMicrotask(() => ((decision.bindings as Record<string, unknown>).answer = 42));
          return decision as unknown as nh.StepCommitDecision;
        },
      },
      { program: 'execute\nSet <:answer>.', writes: { answer: z.string() } },
    );
    expect(res.result.ok).toBe(true);
    expect(res.steps[0]!.committedBindings).toEqual({ answer: 'checked' });
  });

  it('rewrite bindings with an accessor fail closed as a contract error', async () => {
    const bindings = { get answer() { return 'x'; } };
    const res = await runAgent(
      [() => ({ toolCalls: [toolCall('nh_assign', { target_path: 'answer', expression: '"model"' })] }), () => ({ toolCalls: [coreFinish({ kind: 'pass' })] })],
      { inspectStepCommit: () => ({ kind: 'rewrite', bindings }) as nh.StepCommitDecision },
      { program: 'execute\nSet <:answer>.', writes: { answer: z.string() } },
    );
    expect((res.result as { error: unknown }).error).toBeInstanceOf(nh.OversightContractError);
  });
});

describe('policy by value', () => {
  it('mutating the grant, policy arrays and oversight object after Session construction changes no later run', async () => {
    const { capability: send, calls } = trackedCapability('send', ['egress']);
    const { capability: wipe } = trackedCapability('wipe', ['destructive']);
    const grant = { capabilities: [send] as nh.Capability[], references: { a: 1 } as Record<string, unknown> };
    const platformPolicy: nh.PerimeterClass[] = ['egress'];
    const inspected: string[] = [];
    const oversight = { inspectOperation: (r: nh.OperationRequest) => (inspected.push(String(r.expression)), nh.accept()) };
    const model = new ScriptedModel((_m, info) => (info.requestNumber === 1 ? { toolCalls: [toolCall('nh_evaluate', { expression: '1' })] } : { toolCalls: [finish()] }));
    const session = new nh.Session({ executor: new nh.AgentExecutor({ model }), grant, platformPolicy, perimeterAuditStore: memoryStore(), oversight });
    grant.capabilities.push(wipe);
    grant.references.b = 2;
    platformPolicy.push('destructive');
    oversight.inspectOperation = () => nh.accept();
    const { agent } = session.materialized(session.submit('async function agent() {}'), { agent: async () => nh.step({ program: 'execute\nGo.' }) });
    await agent!();
    const entry = session.ledger.select({ kind: 'run.entry' })[0]!.data;
    expect(entry.grant.capabilities.map((c) => c.name)).toEqual(['send']);
    expect(entry.grant.references).toEqual(['a']);
    expect(entry.effectivePolicy).toEqual(['egress']);
    expect(inspected).toContain('1'); // the inspector configured at construction, not the replaced one
    expect(calls).toEqual([]);
  });

  it('a Runner copies its platform policy and allocation; authorities and policies are frozen values no built-in mutator accepts', async () => {
    const platformPolicy: nh.PerimeterClass[] = [];
    const allocation = { maxExecutorSteps: 3 };
    const { runner } = scriptedRunner([], { platformPolicy, allocation });
    platformPolicy.push('egress');
    allocation.maxExecutorSteps = 1e9;
    await runner.run(async () => 'ok');
    const entry = runner.ledger.select({ kind: 'run.entry' })[0]!.data;
    expect(entry.effectivePolicy).toEqual([]);
    expect(entry.allocation.maxExecutorSteps).toBe(3);
    const policy = nh.perimeterPolicy(['egress']);
    expect(() => Set.prototype.add.call(policy as unknown as Set<string>, 'destructive')).toThrow(TypeError);
    expect(Object.isFrozen(policy)).toBe(true);
    const authority = nh.authorityFromGrant({ capabilities: [trackedCapability('x').capability] }, policy);
    expect(() => Map.prototype.set.call(authority.capabilities as unknown as Map<string, unknown>, 'y', {})).toThrow(TypeError);
    expect(Object.isFrozen(authority)).toBe(true);
  });
});

describe('approval only of observed definitions', () => {
  const newSession = () => new nh.Session({ executor: new nh.AgentExecutor({ model: new ScriptedModel(() => ({ toolCalls: [finish()] })) }) });

  it('a closure returned by generated code and bound in a cell is not approved, and the attempt is recorded', async () => {
    const session = newSession();
    const { make } = session.materialized(session.submit('async function make() {}'), {
      make: async () => {
        const out = await nh.currentDispatcher().dispatch({ language: 'javascript', intent: 'define', source: 'export function make() { return (x) => x + 1; }' });
        return (out.exports.make as () => unknown)();
      },
    });
    const closure = (await make!()) as (x: number) => number;
    const adapters = session.materialized(session.submit('const inc = await make();'), { inc: closure });
    expect(adapters.inc).toBeUndefined();
    expect(session.isApproved(closure)).toBe(false);
    expect(session.anomalies.map((a) => [a.anomalyKind, a.detail.name])).toContainEqual(['unobserved_definition', 'inc']);
  });

  it('a generated export wrapper, a bound function and an existing value bound by name are never approved', async () => {
    const session = newSession();
    const { exportOf } = session.materialized(session.submit('async function exportOf() {}'), {
      exportOf: async () => (await nh.currentDispatcher().dispatch({ language: 'javascript', intent: 'define', source: 'export function add(a, b) { return a + b; }' })).exports.add,
    });
    const wrapper = (await exportOf!()) as (...a: unknown[]) => unknown;
    const existing = function helper() { return 1; };
    const declared = { a: wrapper, b: existing.bind(null), c: existing };
    const adapters = session.materialized(session.submit('const a = gen.exports.add;\nconst b = helper.bind(null);\nconst c = helper;'), declared);
    expect(Object.keys(adapters)).toEqual([]);
    expect(session.anomalies.filter((a) => a.anomalyKind === 'unobserved_definition').map((a) => a.detail.name)).toEqual(['a', 'b', 'c']);
  });

  it('trusted-import registration refuses a generated closure and a bound function', async () => {
    const session = newSession();
    const { make } = session.materialized(session.submit('async function make() {}'), {
      make: async () => (await nh.currentDispatcher().dispatch({ language: 'javascript', intent: 'define-and-invoke', entry: 'make', source: 'export function make() { return (x) => x * 2; }' })).invocation!.value,
    });
    const closure = (await make!()) as (x: number) => number;
    const hash = nh.hashSource('reviewed');
    expect(() => session.registerImported(closure, { reviewedSourceHash: hash })).toThrow(nh.SubmissionRefusedError);
    expect(() => session.registerImported(Math.max.bind(Math), { reviewedSourceHash: hash })).toThrow(nh.SubmissionRefusedError);
    expect(session.registerImported(function reviewed() { return 1; }, { reviewedSourceHash: hash }).sessionFunctionName).toBe('reviewed');
  });

  it('a helper call with a spec object literal defines nothing: a function it built from stored model text is not approved', () => {
    const session = newSession();
    // Text from model output or storage, never submitted by the operator; the cell only passes it to a helper.
    const storedText = 'return "from stored model output: " + a';
    const build = (spec: { body: string }) => new Function('a', spec.body) as (a: string) => string;
    const f = build({ body: storedText });
    const adapters = session.materialized(session.submit('const f = build({ body: storedText });'), { f });
    expect(adapters.f).toBeUndefined();
    expect(session.isApproved(f)).toBe(false);
    expect(session.anomalies.map((a) => [a.anomalyKind, a.detail.name])).toContainEqual(['unobserved_definition', 'f']);
  });

  it('a runtime naturalFunction spec is approved only when the core made the function and its `then` is written in the cell', () => {
    const session = newSession();
    const spec = { name: 'tally', program: 'execute\nCount.', input: z.object({}), returns: z.number() };
    const tally = nh.naturalFunction(spec);
    const generatedTail = new Function('return 1') as () => number;
    const withTail = nh.naturalFunction({ ...spec, then: generatedTail });
    const spread = nh.naturalFunction({ ...spec, then: () => 2 });
    const imitation = async () => 3;
    Object.defineProperty(imitation, Symbol.for('nighthawk.natural-function'), { value: true });
    const source = [
      "const tally = nh.naturalFunction({ name: 'tally', program: 'execute\\nCount.', input: z.object({}), returns: z.number() });",
      "const withTail = nh.naturalFunction({ name: 'tally', program: 'execute\\nCount.', input: z.object({}), returns: z.number(), then: generatedTail });",
      'const spread = nh.naturalFunction({ ...stored, then: () => 2 });',
      "const imitation = nh.naturalFunction({ name: 'tally', program: 'execute\\nCount.', input: z.object({}), returns: z.number() });",
    ].join('\n');
    const adapters = session.materialized(session.submit(source), { tally, withTail, spread, imitation });
    expect(Object.keys(adapters)).toEqual(['tally']);
    expect(session.evidenceFor(adapters.tally)?.route).toBe('operator-submission');
    expect(session.anomalies.filter((a) => a.anomalyKind === 'unobserved_definition').map((a) => a.detail.name)).toEqual(['withTail', 'spread', 'imitation']);
  });

  it('a function the cell source defines is approved as operator submission', () => {
    const session = newSession();
    const adapters = session.materialized(session.submit('const triage = async (t: string) => t;\nfunction plain() {}'), { triage: async (t: string) => t, plain: () => undefined });
    expect(Object.keys(adapters).sort()).toEqual(['plain', 'triage']);
    expect(session.evidenceFor(adapters.triage)?.route).toBe('operator-submission');
  });
});

describe('ambient tool re-exposure in an attenuated scope', () => {
  it('a granted tool re-exposed through scope({ tools }) inside a narrower scope fails the execution with a trace anomaly', async () => {
    const { capability: alpha } = trackedCapability('alpha');
    const { capability: beta, calls } = trackedCapability('beta');
    const { runner } = scriptedRunner([() => ({ toolCalls: [toolCall('beta', { target: 'x' }), finish()] })]);
    let betaTool: nh.ToolSpec | undefined;
    const error = await runner
      .run(
        async (ctx) => {
          betaTool = nh.currentState()!.tools.find((t) => t.name === 'beta');
          return ctx.attenuate({ capabilities: ['alpha'] }, async () => nh.scope({ tools: [betaTool!] }, () => nh.step({ program: 'execute\nUse beta.' })));
        },
        { grant: { capabilities: [alpha, beta] } },
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(nh.NaturalExecutionError);
    expect(calls).toEqual([]);
    const anomaly = runner.ledger.select({ kind: 'trace.anomaly' })[0]!;
    expect(anomaly.status).toBe('ambient_tool');
    const execution = runner.ledger.select({ kind: 'execution.end' })[0]!;
    expect(anomaly.parentId).toBe(execution.subjectId);
    expect(execution.status).toBe('failed');
  });
});

describe('the async context holds nothing', () => {
  it('no async resource inside a run carries a run host, ledger, authority or step state', async () => {
    const { runner } = scriptedRunner([() => ({ toolCalls: [finish()] })]);
    const seen: unknown[] = [];
    await runner.run(async () => {
      seen.push(...Object.getOwnPropertySymbols(executionAsyncResource()).map((s) => (executionAsyncResource() as Record<symbol, unknown>)[s]));
      await nh.scope({ systemPromptFragments: ['x'] }, async () => {
        await null;
        const r = executionAsyncResource() as Record<symbol, unknown>;
        seen.push(...Object.getOwnPropertySymbols(r).map((s) => r[s]));
      });
    });
    const leaks = seen.filter((v) => v && typeof v === 'object' && ('host' in v || 'oversight' in v || 'stepContext' in v || 'executor' in v || 'nodeId' in v));
    expect(leaks).toEqual([]);
  });

  it('a nested Runner.run inside a run is refused with HostIntegrityError and a causal anomaly in the enclosing run', async () => {
    const { runner } = scriptedRunner([]);
    const inner = scriptedRunner([]).runner;
    let refused: unknown;
    const handle = runner.start(async () => {
      try {
        await inner.run(async () => 'nested', { grant: { capabilities: [trackedCapability('x', ['egress']).capability] } });
      } catch (error) {
        refused = error;
      }
    });
    await handle.result;
    expect(refused).toBeInstanceOf(nh.HostIntegrityError);
    expect((refused as nh.HostIntegrityError).attempt).toBe('nested-run');
    expect(inner.ledger.size).toBe(0);
    const anomaly = runner.ledger.select({ kind: 'trace.anomaly' })[0]!;
    expect([anomaly.status, anomaly.parentId, anomaly.runId]).toEqual(['nested_run_refused', handle.runId, handle.runId]);
  });

  it('the ledger refuses any append for a run after its run.end', async () => {
    const ledger = new nh.Ledger();
    ledger.append('run_a', { kind: 'run.entry', subjectId: 'run_a' });
    ledger.append('run_a', { kind: 'run.end', subjectId: 'run_a', status: 'completed' });
    expect(() => ledger.append('run_a', { kind: 'trace.anomaly', subjectId: 'run_a' })).toThrow(nh.HostIntegrityError);
    expect(ledger.size).toBe(2);
  });
});
