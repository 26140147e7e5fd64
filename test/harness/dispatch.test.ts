import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  DependencyMismatchError,
  DispatchRejectedError,
  GeneratedCodeOutsideDispatchError,
  GeneratedSourceRejectedError,
  RetainedFunction,
  RunTerminatedError,
  executeCodeCapability,
  isGeneratedCallable,
  parseCodeProposal,
  step,
  type CodeProposal,
} from '../../kernel/src/index.js';
import { toolCall } from '../../kernel/src/testing.js';
import { finish, scriptedRunner, trackedCapability } from './support.js';

const adder: CodeProposal = { language: 'typescript', intent: 'define', source: 'export function add(a: number, b: number): number { return a + b; }' };

describe('dispatch of generated code', () => {
  it('the define-and-invoke intent yields two dispatch nodes under the submitter', async () => {
    const { runner } = scriptedRunner([]);
    const out = await runner.run((ctx) => ctx.dispatch({ ...adder, intent: 'define-and-invoke', entry: 'add', args: [2, 3] }));
    expect(out.invocation!.value).toBe(5);
    const starts = runner.ledger.select({ kind: 'dispatch.start' });
    expect(starts.map((e) => e.status)).toEqual(['materialization', 'invocation']);
    expect(starts.every((e) => e.parentId === starts[0]!.parentId)).toBe(true);
    expect(runner.ledger.select({ kind: 'dispatch.end' }).map((e) => e.status)).toEqual(['completed', 'completed']);
  });

  it('a define-and-invoke entry the module body rebinds to a non-function rejects the materialization with a typed error', async () => {
    // Validation saw `add` as a function export; the body's `add = 5` makes the materialized export a number.
    const { runner } = scriptedRunner([]);
    const error = await runner.run((ctx) => ctx.dispatch({ language: 'javascript', intent: 'define-and-invoke', entry: 'add', args: [1, 2], source: 'export function add(a, b) { return a + b; }\nadd = 5;' })).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'DispatchRejectedError', reason: 'invalid-proposal' });
    expect(runner.ledger.select({ kind: 'dispatch.start' }).map((e) => e.status)).toEqual(['materialization']);
    expect(runner.ledger.select({ kind: 'dispatch.end' }).map((e) => e.status)).toEqual(['rejected']);
  });

  it('generated source using eval is rejected before anything runs and recorded as an anomaly', async () => {
    const { runner } = scriptedRunner([]);
    const marker = { ran: false };
    const error = await runner
      .run((ctx) => ctx.dispatch({ language: 'javascript', intent: 'define', source: 'marker.ran = true; export const x = eval("1");', dependencies: [{ name: 'marker', kind: 'reference', type: 'object' }] }), { grant: { references: { marker } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GeneratedSourceRejectedError);
    expect(marker.ran).toBe(false);
    expect(runner.ledger.select({ kind: 'trace.anomaly' })[0]!.status).toBe('raw_dynamic_execution');
    expect(runner.ledger.select({ kind: 'dispatch.end' })[0]!.status).toBe('rejected');
  });

  it('a dependency declared against a different type is a typed rejection before the body', async () => {
    const { capability, calls } = trackedCapability('lookup');
    const { runner } = scriptedRunner([]);
    const source = 'export function run(): unknown { return lookup({ target: "x" }); }';
    const error = await runner
      .run((ctx) => ctx.dispatch({ language: 'typescript', intent: 'define-and-invoke', entry: 'run', source, dependencies: [{ name: 'lookup', kind: 'capability', type: '(q: string) => string' }] }), { grant: { capabilities: [capability] } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DependencyMismatchError);
    expect(calls).toEqual([]);
  });

  it('generated code calls granted capabilities only through the host gateway', async () => {
    const { capability, calls } = trackedCapability('lookup');
    const { runner } = scriptedRunner([]);
    const source = 'export function run(): unknown { return lookup({ target: "x" }); }';
    const out = await runner.run((ctx) => ctx.dispatch({ language: 'typescript', intent: 'define-and-invoke', entry: 'run', source, dependencies: [{ name: 'lookup', kind: 'capability', type: capability.signature }] }), { grant: { capabilities: [capability] } });
    expect(await out.invocation!.value).toEqual({ done: 'x' });
    expect(calls).toEqual([{ target: 'x' }]);
    expect(runner.ledger.select({ kind: 'capability.call' })[0]!.parentId).toBe(runner.ledger.select({ kind: 'dispatch.start' })[1]!.subjectId);
  });

  it('an export kept after its run ends carries no authority and refuses to run', async () => {
    const { runner } = scriptedRunner([]);
    const kept = await runner.run(async (ctx) => (await ctx.dispatch(adder)).exports.add as (a: number, b: number) => number);
    expect(isGeneratedCallable(kept)).toBe(true);
    expect(() => kept(1, 2)).toThrow(RunTerminatedError);
  });

  it('a private helper that escapes its dispatch refuses to start afterwards', async () => {
    const { runner } = scriptedRunner([]);
    const source = 'export function makeCounter(): () => number { let n = 0; return () => ++n; }';
    const error = await runner
      .run(async (ctx) => {
        const { exports } = await ctx.dispatch({ language: 'typescript', intent: 'define', source });
        const counter = (exports.makeCounter as () => () => number)();
        return counter();
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GeneratedCodeOutsideDispatchError);
    expect(runner.ledger.select({ kind: 'trace.anomaly' })[0]!.status).toBe('generated_code_outside_dispatch');
  });

  it('with confinement configured, a missing confirmation rejects the dispatch and no generated code runs', async () => {
    const { runner } = scriptedRunner([], { confinement: { identity: 'test-sandbox', confirm: async () => false } });
    const marker = { ran: false };
    const error = await runner
      .run((ctx) => ctx.dispatch({ language: 'javascript', intent: 'define', source: 'marker.ran = true; export const x = 1;', dependencies: [{ name: 'marker', kind: 'reference', type: 'object' }] }), { grant: { references: { marker } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DispatchRejectedError);
    expect(marker.ran).toBe(false);
    expect(runner.ledger.select({ kind: 'dispatch.start' })).toHaveLength(0);
  });

  it('every dispatch records its confinement identity, none in the in-process regime', async () => {
    const { runner } = scriptedRunner([]);
    await runner.run((ctx) => ctx.dispatch(adder));
    expect(runner.ledger.select({ kind: 'dispatch.start' })[0]!.data).toMatchObject({ confinementIdentity: null });
  });

  it('a CodeProposal committed through a write binding reaches dispatch only when deterministic code submits it', async () => {
    const Proposal = z.custom<CodeProposal>((v) => parseCodeProposal(v).ok);
    const { runner } = scriptedRunner([
      () => ({ toolCalls: [toolCall('nh_assign', { target_path: 'proposal', expression: JSON.stringify({ ...adder }) }), finish()] }),
    ]);
    const value = await runner.run(async (ctx) => {
      const { bindings } = await step({ program: 'execute\nWrite a function add into <:proposal>.', writes: { proposal: Proposal } });
      const { exports } = await ctx.dispatch(bindings.proposal);
      return (exports.add as (a: number, b: number) => number)(20, 22);
    });
    expect(value).toBe(42);
  });

  it('the execute_code capability is the typed request route into the same dispatch', async () => {
    const { runner } = scriptedRunner([
      () => ({ toolCalls: [toolCall('execute_code', { ...adder, intent: 'define-and-invoke', entry: 'add', args: [1, 1] }), finish()] }),
    ]);
    await runner.run(async () => step({ program: 'execute\nCompute with generated code.' }), { grant: { capabilities: [executeCodeCapability()] } });
    expect(runner.ledger.select({ kind: 'dispatch.start' }).map((e) => e.status)).toEqual(['materialization', 'invocation']);
    expect(runner.ledger.select({ kind: 'operation' })[0]!.status).toBe('completed');
  });

  it('a retained function re-materializes with a fresh identity linked to the original definition', async () => {
    const { runner } = scriptedRunner([]);
    const retained = await runner.run(async (ctx) => RetainedFunction.retain(await ctx.dispatch(adder), 'add', { note: 'passed checks' }));
    const again = await runner.run(async () => {
      const { fn, materialization } = await retained.materialize();
      return { value: await fn(4, 5), materialization };
    });
    expect(again.value).toBe(9);
    expect(again.materialization.materializationId).not.toBe(retained.originalMaterializationId);
    expect(again.materialization.originalDefinitionId).toBe(retained.definitionId);
    expect(retained.provenance).toBe('generated');
  });

  it('a re-materialization links only the selected export to the original definition, and only a RetainedFunction can link', async () => {
    const pair = { language: 'typescript', intent: 'define', source: 'export function add(a: number, b: number): number { return a + b; }\nexport function sub(a: number, b: number): number { return a - b; }' } as const;
    const { runner } = scriptedRunner([]);
    const retained = await runner.run(async (ctx) => RetainedFunction.retain(await ctx.dispatch(pair), 'add'));
    const forged = await runner.run(async (ctx) => {
      const { materialization } = await retained.materialize();
      (materialization.exports.add as (a: number, b: number) => number)(1, 2);
      (materialization.exports.sub as (a: number, b: number) => number)(5, 1);
      // Interior code claiming lineage through the run context's dispatch gets no link.
      return (ctx.dispatch as (p: unknown, o: unknown) => ReturnType<typeof ctx.dispatch>)(pair, { originalDefinitionId: retained.definitionId, linkedExport: 'sub' });
    });
    const runId = runner.ledger.select({ kind: 'run.entry' }).at(-1)!.runId;
    const invocations = runner.ledger.select({ kind: 'dispatch.start', runId }).filter((e) => e.status === 'invocation');
    const linked = Object.fromEntries(invocations.map((e) => [String(e.data.export), [(e.data as { linked?: boolean }).linked === true, e.data.originalDefinitionId === (e.data.export === 'add' ? retained.definitionId : e.data.definitionId)]]));
    expect(linked).toEqual({ add: [true, true], sub: [false, true] });
    const materializations = runner.ledger.select({ kind: 'dispatch.start', runId }).filter((e) => e.status === 'materialization');
    expect(materializations.map((e) => e.data.linkedExport ?? null)).toEqual(['add', null]);
    expect(forged.originalDefinitionId).toBe(forged.definitionId);
    expect(materializations[1]!.data.materializationId).not.toBe(materializations[0]!.data.materializationId);
  });
});
