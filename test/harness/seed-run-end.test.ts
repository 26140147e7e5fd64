/**
 * Seeds 001 and 002 on the run-end seam, branch termination and confinement: active branches are
 * never accepted, a run ends only after cessation with every affected outcome recorded first,
 * nothing is recorded after the run end, and configured confinement confirms every dispatch node.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ActiveBranchesError,
  DispatchRejectedError,
  RunTerminatedError,
  defineCapability,
  step,
  type CodeProposal,
  type ConfinementRequest,
  type LedgerEvent,
  type TerminationService,
  type TerminationTarget,
} from '../../kernel/src/index.js';
import { finish, scriptedRunner } from './support.js';

const sequence = (events: readonly LedgerEvent[]) => events.map((e) => (e.status === undefined ? e.kind : `${e.kind}:${e.status}`));

/** A capability whose body waits until the test opens its gate (a branch the test controls). */
function gatedCapability() {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const capability = defineCapability({ name: 'wait', description: 'waits for the gate', request: z.object({ target: z.string() }), run: async () => (await gate, 'opened') });
  return { capability, open };
}

const slowExport: CodeProposal = {
  language: 'typescript',
  intent: 'define',
  source: 'export async function slow(): Promise<string> { const got = await wait({ target: "x" }); return String(got); }',
  dependencies: [{ name: 'wait', kind: 'capability', type: '(waitRequest) => unknown' }],
};

const recordingMechanism = (ceased: boolean) => {
  const targets: TerminationTarget[] = [];
  const service: TerminationService = {
    terminate: async (target) => {
      targets.push(target);
      return { ceased };
    },
  };
  return { service, targets };
};

const settle = () => new Promise((r) => setTimeout(r, 20));

describe('seed 001: "Branches still active at the run-end seam are a trace anomaly; the host never accepts the returned value and relies on the platform termination mechanism to establish cessation before the run can end at all."', () => {
  it('an async export started and not awaited: anomaly, value refused, mechanism consulted, node terminal before the run end', async () => {
    const { capability, open } = gatedCapability();
    const { service, targets } = recordingMechanism(true);
    const { runner } = scriptedRunner([], { termination: service });
    const error = await runner
      .run(
        async (ctx) => {
          const { exports } = await ctx.dispatch(slowExport);
          void (exports.slow as () => Promise<string>)().catch(() => undefined);
          return 'value';
        },
        { grant: { capabilities: [capability] } },
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ActiveBranchesError);
    expect((error as ActiveBranchesError).ceased).toBe(true);
    const events = runner.ledger.events();
    const invocation = events.find((e) => e.kind === 'dispatch.start' && e.status === 'invocation')!;
    expect((error as ActiveBranchesError).activeDispatches).toEqual([invocation.subjectId]);
    expect(targets).toEqual([{ runId: invocation.runId, branches: [invocation.subjectId], includesRoot: false }]);
    expect(sequence(events)).toEqual([
      'run.entry',
      'dispatch.start:materialization',
      'dispatch.end:completed',
      'dispatch.start:invocation',
      'trace.anomaly:branches_active_at_run_end',
      'dispatch.end:terminated',
      'run.end:failed',
    ]);
    open();
    await settle();
    // Nothing of the run is recorded after its run end, also when the branch settles later.
    expect(runner.ledger.size).toBe(events.length);
  });
});

describe('seed 002: "When the mechanism does not establish cessation, the run does not reach its run-end seam"', () => {
  it('an execution in flight at run end: no run end, interior operations refused at the seams, one run end after finalize', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { capability } = gatedCapability();
    const { runner } = scriptedRunner(async () => (await gate, { toolCalls: [finish()] }));
    let captured: Parameters<Parameters<typeof runner.run>[0]>[0] | undefined;
    const handle = runner.start(
      async (ctx) => {
        captured = ctx;
        void step({ program: 'execute\nSlow.' }).catch(() => undefined);
        await new Promise((r) => setImmediate(r));
        return 'value';
      },
      { grant: { capabilities: [capability] } },
    );
    const error = await handle.result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ActiveBranchesError);
    expect((error as ActiveBranchesError).ceased).toBe(false);
    expect((error as ActiveBranchesError).activeExecutions).toHaveLength(1);
    expect(runner.ledger.select({ kind: 'run.end' })).toHaveLength(0);
    await expect(captured!.invoke('wait', { target: 'late' })).rejects.toMatchObject({ reason: 'run-closed' });
    await expect(captured!.dispatch(slowExport)).rejects.toBeInstanceOf(DispatchRejectedError);
    expect(handle.finalize()).toBe(false);
    release();
    await settle();
    expect(handle.finalize()).toBe(true);
    expect(handle.finalize()).toBe(true);
    // Each refused interior attempt leaves exactly one record naming it: the capability call its typed
    // refusal, the dispatch (which gets no node) the trace anomaly every refused attempt leaves.
    expect(sequence(runner.ledger.events())).toEqual([
      'run.entry',
      'execution.start',
      'trace.anomaly:branches_active_at_run_end',
      'capability.refused:run-closed',
      'trace.anomaly:dispatch_after_run_closed',
      'operation:aborted',
      'execution.end:failed',
      'run.end:failed',
    ]);
    expect(runner.ledger.select({ kind: 'run.end' })[0]!.data).toMatchObject({ error: { name: 'ActiveBranchesError' } });
    const runId = runner.ledger.select({ kind: 'run.entry' })[0]!.runId;
    expect(runner.ledger.select({ kind: 'trace.anomaly', status: 'dispatch_after_run_closed' }).map((e) => e.parentId)).toEqual([runId]);
    expect(runner.ledger.select({ kind: 'dispatch.start' })).toHaveLength(0);
  });

  it('a pending dispatch node stays nonterminal and the run has no run end while its cessation is not established', async () => {
    const { capability } = gatedCapability();
    const { service, targets } = recordingMechanism(false);
    const { runner } = scriptedRunner([], { termination: service });
    const handle = runner.start(
      async (ctx) => {
        const { exports } = await ctx.dispatch(slowExport);
        void (exports.slow as () => Promise<string>)().catch(() => undefined);
        return 'value';
      },
      { grant: { capabilities: [capability] } },
    );
    const error = await handle.result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ActiveBranchesError);
    expect((error as ActiveBranchesError).ceased).toBe(false);
    expect(targets).toHaveLength(1);
    await settle();
    expect(handle.finalize()).toBe(false);
    expect(sequence(runner.ledger.events())).toEqual(['run.entry', 'dispatch.start:materialization', 'dispatch.end:completed', 'dispatch.start:invocation', 'trace.anomaly:branches_active_at_run_end']);
  });
});

describe('seed 002: "The host reports completion to the parent only after cessation is established and the affected Natural-execution and dispatch outcomes are recorded."', () => {
  it('terminate with cessation records the execution and the pending invocation node before run.end(terminated)', async () => {
    const { capability, open } = gatedCapability();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    const { runner } = scriptedRunner(async () => (entered(), await gate, { toolCalls: [finish()] }), { termination: { terminate: async () => ({ ceased: true }) } });
    const handle = runner.start(
      async (ctx) => {
        const { exports } = await ctx.dispatch(slowExport);
        await Promise.all([(exports.slow as () => Promise<string>)(), step({ program: 'execute\nStuck.' })]);
        return 'value';
      },
      { grant: { capabilities: [capability] } },
    );
    await inside;
    expect(await handle.terminate('operator stop')).toBe(true);
    const error = await handle.result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunTerminatedError);
    expect((error as RunTerminatedError).ceased).toBe(true);
    const events = runner.ledger.events();
    expect(sequence(events)).toEqual([
      'run.entry',
      'dispatch.start:materialization',
      'dispatch.end:completed',
      'dispatch.start:invocation',
      'execution.start',
      'execution.end:terminated',
      'dispatch.end:terminated',
      'run.end:terminated',
    ]);
    open();
    release();
    await settle();
    expect(runner.ledger.size).toBe(events.length);
  });
});

describe('seed 002: "When an external confinement service is explicitly configured, the platform must confirm every dispatch."', () => {
  const adder: CodeProposal = { language: 'typescript', intent: 'define-and-invoke', entry: 'add', args: [2, 3], source: 'export function add(a: number, b: number): number { return a + b; }' };

  it('define-and-invoke: both dispatch nodes are confirmed and record the confinement identity', async () => {
    const asked: ConfinementRequest[] = [];
    const { runner } = scriptedRunner([], { confinement: { identity: 'test-boundary', confirm: (r) => (asked.push(r), true) } });
    const out = await runner.run(async (ctx) => {
      const outcome = await ctx.dispatch(adder);
      return [outcome.invocation!.value, (outcome.exports.add as (a: number, b: number) => number)(4, 5)];
    });
    expect(out).toEqual([5, 9]);
    expect(asked.map((r) => r.node)).toEqual(['materialization', 'invocation', 'invocation']);
    const starts = runner.ledger.select({ kind: 'dispatch.start' });
    expect(starts.map((e) => e.status)).toEqual(['materialization', 'invocation', 'invocation']);
    expect(starts.map((e) => (e.data as { confinementIdentity: unknown }).confinementIdentity)).toEqual(['test-boundary', 'test-boundary', 'test-boundary']);
    expect(asked.slice(1).map((r) => r.nodeId)).toEqual(starts.slice(1).map((e) => e.subjectId));
  });

  it('in the in-process regime every dispatch node, invocation nodes included, records confinementIdentity null', async () => {
    const { runner } = scriptedRunner([]);
    await runner.run((ctx) => ctx.dispatch(adder));
    expect(runner.ledger.select({ kind: 'dispatch.start' }).map((e) => (e.data as { confinementIdentity?: unknown }).confinementIdentity)).toEqual([null, null]);
  });

  it('"A missing confirmation rejects dispatch before generated execution begins": an unconfirmed invocation never runs', async () => {
    const marker = { calls: 0 };
    const counting: CodeProposal = {
      language: 'typescript',
      intent: 'define',
      source: 'export function bump(): number { marker.calls++; return marker.calls; }',
      dependencies: [{ name: 'marker', kind: 'reference', type: 'object' }],
    };
    const { runner } = scriptedRunner([], { confinement: { identity: 'test-boundary', confirm: (r) => r.node === 'materialization' } });
    const error = await runner
      .run(async (ctx) => {
        const { exports } = await ctx.dispatch(counting);
        return (exports.bump as () => number)();
      }, { grant: { references: { marker } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DispatchRejectedError);
    expect((error as DispatchRejectedError).reason).toBe('confinement-unconfirmed');
    expect(marker.calls).toBe(0);
    expect(sequence(runner.ledger.events())).toEqual(['run.entry', 'dispatch.start:materialization', 'dispatch.end:completed', 'trace.anomaly:confinement_unconfirmed', 'run.end:failed']);
  });

  it('an asynchronous confirmation precedes async exports; for a synchronous export it is a missing confirmation', async () => {
    const source = 'export async function later(): Promise<number> { return 7; }\nexport function now(): number { return 8; }';
    const asked: string[] = [];
    const { runner } = scriptedRunner([], { confinement: { identity: 'async-boundary', confirm: async (r) => (asked.push(`${r.node}:${r.exportName ?? ''}`), true) } });
    const results = await runner.run(async (ctx) => {
      const { exports } = await ctx.dispatch({ language: 'typescript', intent: 'define', source });
      const later = await (exports.later as () => Promise<number>)();
      let nowError: unknown;
      try {
        (exports.now as () => number)();
      } catch (e) {
        nowError = e;
      }
      return { later, nowError };
    });
    expect(results.later).toBe(7);
    expect(results.nowError).toBeInstanceOf(DispatchRejectedError);
    expect(asked).toEqual(['materialization:', 'invocation:later', 'invocation:now']);
    expect(sequence(runner.ledger.events())).toEqual([
      'run.entry',
      'dispatch.start:materialization',
      'dispatch.end:completed',
      'dispatch.start:invocation',
      'dispatch.end:completed',
      'trace.anomaly:confinement_unconfirmed',
      'run.end:completed',
    ]);
  });
});
