/**
 * Seed 002, "Branch termination" with an external confinement boundary: a dispatch node waits for its
 * confirmation (an asynchronous `confirm`) before it starts. A branch closed meanwhile (RunContext.terminateBranch,
 * whose mechanism established cessation) must not receive the node once the boundary answers: the closed-branch
 * check made before the wait is stale by then. Attack: host code still running in the branch (a capability body the
 * branch's generated code called) dispatches a proposal or calls a kept export; the parent terminates the branch
 * while the boundary is still deciding; the boundary then confirms. Without a second check a new dispatch node
 * starts under the terminated node, after its `dispatch.end(terminated)`, and its generated code runs.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentExecutor, NaturalExecutionError, Pass, Runner, defineCapability, step, type CodeProposal, type ConfinementRequest, type LedgerEvent, type RunContext, type StepExecutor } from '../../kernel/src/index.js';
import { ScriptedModel } from '../../kernel/src/testing.js';
import { gate, settle } from './support.js';

/** A boundary that confirms everything, holding the first request `held` matches until the gate opens. */
function boundary(held: (request: ConfinementRequest) => boolean, g: ReturnType<typeof gate>) {
  let waited = false;
  return {
    identity: 'test-boundary',
    confirm: async (request: ConfinementRequest) => {
      if (!waited && held(request)) {
        waited = true;
        g.reached();
        await g.opened;
      }
      return true;
    },
  };
}

const termination = { terminate: async () => ({ ceased: true }) };
const calling: CodeProposal = { language: 'javascript', intent: 'define', source: 'export async function go() { return await relay({}); }', dependencies: [{ name: 'relay', kind: 'capability', type: '(relayRequest) => unknown' }] };

/** Runs `go` (which calls `relay`), terminates its node once the boundary holds, then lets the boundary confirm. */
async function attackThroughRelay(relayBody: (ctx: RunContext) => Promise<unknown>, held: (request: ConfinementRequest) => boolean) {
  const g = gate();
  let ctxRef: RunContext | undefined;
  let late: unknown;
  const relay = defineCapability({
    name: 'relay',
    description: 'dispatches from inside the branch',
    request: z.object({}),
    run: async () => {
      late = await relayBody(ctxRef!).catch((e: unknown) => e);
      return 'late';
    },
  });
  const runner = new Runner({ executor: new AgentExecutor({ model: new ScriptedModel([]) }), termination, confinement: boundary(held, g) });
  let node = '';
  let terminated: boolean | undefined;
  await runner.run(
    async (ctx) => {
      ctxRef = ctx;
      const { exports } = await ctx.dispatch(calling);
      const pending = (exports.go as () => Promise<unknown>)();
      pending.catch(() => undefined);
      await g.arrived;
      const starts = ctx.history({ kind: 'dispatch.start', status: 'invocation' });
      node = starts[0]!.subjectId;
      terminated = await ctx.terminateBranch(node, 'parent gave up');
      g.open();
      await pending.catch(() => undefined);
      await settle();
    },
    { grant: { capabilities: [relay], references: { ran } } },
  );
  return { events: runner.ledger.events(), node, terminated, late };
}

let runs = 0;
/** Matches the second materialization request it sees (the first is the branch's own `calling`). */
const secondMaterialization = () => {
  let seen = 0;
  return (request: ConfinementRequest) => request.node === 'materialization' && seen++ === 1;
};
const ran = () => void runs++;

/** The node of the first invocation of export `name` in the run so far. */
const invocationOf = (ctx: RunContext, name: string): string =>
  ctx.history({ kind: 'dispatch.start', status: 'invocation' }).find((e) => (e.data as { export?: string }).export === name)!.subjectId;

const startedUnder = (events: readonly LedgerEvent[], node: string) => events.filter((e) => e.kind === 'dispatch.start' && e.parentId === node);

describe('a dispatch node confirmed after its branch was terminated', () => {
  it('a materialization the branch dispatched is refused once the boundary answers, and its code never runs', async () => {
    runs = 0;
    const marking: CodeProposal = { language: 'javascript', intent: 'define-and-invoke', entry: 'mark', source: 'ran();\nexport function mark() { ran(); return 1; }', dependencies: [{ name: 'ran', kind: 'reference', type: 'function' }] };
    const { events, node, terminated, late } = await attackThroughRelay((ctx) => ctx.dispatch(marking), secondMaterialization());
    expect(terminated).toBe(true);
    expect(startedUnder(events, node)).toEqual([]);
    expect(runs).toBe(0);
    expect(late).toMatchObject({ name: 'DispatchRejectedError', reason: 'branch-terminated' });
    expect(events.some((e) => e.kind === 'trace.anomaly' && e.status === 'dispatch_in_terminated_branch' && e.parentId === node)).toBe(true);
  });

  it('an invocation of a kept export called from the branch is refused once the boundary answers', async () => {
    runs = 0;
    const marking: CodeProposal = { language: 'javascript', intent: 'define', source: 'export async function mark() { ran(); return 1; }', dependencies: [{ name: 'ran', kind: 'reference', type: 'function' }] };
    let kept: Record<string, unknown> = {};
    const { events, node, terminated, late } = await attackThroughRelay(
      async (ctx) => {
        // Materialized from the branch before it is closed (the boundary holds only the invocation of `mark`).
        kept = (await ctx.dispatch(marking)).exports;
        return (kept.mark as () => Promise<unknown>)();
      },
      (r) => r.node === 'invocation' && r.exportName === 'mark',
    );
    expect(terminated).toBe(true);
    expect(startedUnder(events, node).map((e) => e.status)).toEqual(['materialization']);
    expect(runs).toBe(0);
    expect(late).toMatchObject({ name: 'DispatchRejectedError', reason: 'branch-terminated' });
    expect(events.some((e) => e.kind === 'trace.anomaly' && e.status === 'dispatch_in_terminated_branch' && e.parentId === node)).toBe(true);
  });
});

/**
 * The same branch, reached through a node of it that already ended: generated code in the branch's root `go` calls
 * its sibling `m` (an invocation node under `go`), which calls a capability and returns without awaiting it, so `m`
 * ends `completed` while the capability's body (host code, in `m`'s frame) still runs. The parent then terminates
 * `go`'s branch. The body's later dispatch is submitted from `m`, which no longer appears in the run's live parent
 * links: it must still count as inside the terminated branch, and start nothing under it.
 */
describe('host code of a branch node that ended before its branch was terminated', () => {
  it('cannot start a dispatch node under the terminated branch', async () => {
    runs = 0;
    const g = gate();
    let ctxRef: RunContext | undefined;
    let late: unknown;
    let lateCall: unknown;
    const marking: CodeProposal = { language: 'javascript', intent: 'define-and-invoke', entry: 'mark', source: 'ran();\nexport function mark() { ran(); return 1; }', dependencies: [{ name: 'ran', kind: 'reference', type: 'function' }] };
    const lookup = defineCapability({ name: 'lookup', description: 'reversible lookup', request: z.object({ target: z.string() }), run: ({ target }) => target });
    const relay = defineCapability({
      name: 'relay',
      description: 'waits, then dispatches',
      request: z.object({}),
      run: async () => {
        g.reached();
        await g.opened;
        late = await ctxRef!.dispatch(marking).catch((e: unknown) => e);
        lateCall = await ctxRef!.invoke('lookup', { target: 'x' }).catch((e: unknown) => e);
        return 'late';
      },
    });
    const parked = gate();
    const hold = () => parked.opened;
    const branch: CodeProposal = {
      language: 'javascript',
      intent: 'define',
      source: 'export function m() { relay({}).catch(() => undefined); return 1; }\nexport async function go() { m(); await hold(); return 2; }',
      dependencies: [
        { name: 'relay', kind: 'capability', type: '(relayRequest) => unknown' },
        { name: 'hold', kind: 'reference', type: 'function' },
      ],
    };
    const runner = new Runner({ executor: new AgentExecutor({ model: new ScriptedModel([]) }), termination });
    let root = '';
    let inner = '';
    let terminated: boolean | undefined;
    let innerEnd: (string | undefined)[] = [];
    await runner.run(
      async (ctx) => {
        ctxRef = ctx;
        const { exports } = await ctx.dispatch(branch);
        const pending = (exports.go as () => Promise<unknown>)();
        pending.catch(() => undefined);
        await g.arrived;
        root = invocationOf(ctx, 'go');
        inner = invocationOf(ctx, 'm');
        innerEnd = ctx.history({ kind: 'dispatch.end', subjectId: inner }).map((e) => e.status);
        terminated = await ctx.terminateBranch(root, 'parent gave up');
        g.open();
        await settle();
        parked.open();
        await settle();
      },
      { grant: { capabilities: [relay, lookup], references: { ran, hold } } },
    );
    const events = runner.ledger.events();
    expect(innerEnd).toEqual(['completed']);
    expect(terminated).toBe(true);
    expect(startedUnder(events, inner)).toEqual([]);
    expect(runs).toBe(0);
    expect(late).toMatchObject({ name: 'DispatchRejectedError', reason: 'branch-terminated' });
    expect(events.some((e) => e.kind === 'trace.anomaly' && e.status === 'dispatch_in_terminated_branch' && e.parentId === inner)).toBe(true);
    // The gateway refuses the branch's capability calls the same way (its seam reads the same closed branch).
    expect(lateCall).toMatchObject({ name: 'CapabilityRefusedError' });
    expect(events.filter((e) => e.kind === 'capability.call' && (e.data as { capability?: string }).capability === 'lookup')).toEqual([]);
  });
});

/**
 * The branch's node runs inside a Natural execution E (E's executor dispatched and called it). Host code the node
 * reached (a granted function) outlives the branch's termination and starts a step. The RunHost named that step's
 * parent from the core's step chain (E) before the host frame (the node), so it was recorded under E, passed the
 * closed-branch check and ran. Now this host's frame (the innermost submitter, the node) names the parent.
 */
describe('a step started by host code of a terminated branch whose node runs inside a Natural execution', () => {
  it('is refused as in a terminated branch, and no executor step runs for it', async () => {
    const g = gate();
    let ctxRef: RunContext | undefined;
    let late: unknown;
    let steps = 0;
    let node = '';
    const holding: CodeProposal = { language: 'typescript', intent: 'define', source: 'export async function slow(): Promise<string> { return String(await hold()); }', dependencies: [{ name: 'hold', kind: 'reference', type: 'function' }] };
    const executor: StepExecutor & { admitsExecutorSteps: true } = {
      admitsExecutorSteps: true,
      async runStep() {
        if (++steps > 1) return { outcome: Pass };
        const { exports } = await ctxRef!.dispatch(holding);
        (exports.slow as () => Promise<unknown>)().catch(() => undefined);
        await g.arrived;
        node = ctxRef!.history({ kind: 'dispatch.start', status: 'invocation' })[0]!.subjectId;
        expect(await ctxRef!.terminateBranch(node)).toBe(true);
        g.open();
        await settle();
        return { outcome: Pass };
      },
    };
    const hold = async () => {
      g.reached();
      await g.opened;
      late = await step({ program: 'execute\nLater.' }).then(() => 'ran', (e: unknown) => e);
      return 'late';
    };
    const runner = new Runner({ executor, termination });
    await runner.run(async (ctx) => {
      ctxRef = ctx;
      await step({ program: 'execute\nParent.' });
    }, { grant: { references: { hold } } });
    expect(steps).toBe(1);
    expect(late).toBeInstanceOf(NaturalExecutionError);
    expect((late as NaturalExecutionError).failure).toBe('terminated');
    expect(runner.ledger.events().some((e) => e.kind === 'trace.anomaly' && e.status === 'step_in_terminated_branch' && e.parentId === node)).toBe(true);
  });
  // The same root cause, worse: the node's own generated code (through the granted function) starts a step while the
  // node is live. That execution was recorded under E, so the branch's target and terminal records left it out:
  // terminateBranch resolved true while it was still running, and it later ended `completed`.
  it('an execution the node started while live is part of its branch: targeted, and ended terminated', async () => {
    let openInner!: () => void;
    const innerGate = new Promise<void>((r) => (openInner = r));
    let reachedInner!: () => void;
    const innerArrived = new Promise<void>((r) => (reachedInner = r));
    let ctxRef: RunContext | undefined;
    let steps = 0;
    let node = '';
    const targets: unknown[] = [];
    const holding: CodeProposal = { language: 'typescript', intent: 'define', source: 'export async function slow(): Promise<string> { return String(await hold()); }', dependencies: [{ name: 'hold', kind: 'reference', type: 'function' }] };
    const executor: StepExecutor & { admitsExecutorSteps: true } = {
      admitsExecutorSteps: true,
      async runStep() {
        const n = ++steps;
        if (n === 2) {
          reachedInner();
          await innerGate;
        }
        if (n > 1) return { outcome: Pass };
        const { exports } = await ctxRef!.dispatch(holding);
        (exports.slow as () => Promise<unknown>)().catch(() => undefined);
        await innerArrived;
        node = ctxRef!.history({ kind: 'dispatch.start', status: 'invocation' })[0]!.subjectId;
        expect(await ctxRef!.terminateBranch(node)).toBe(true);
        openInner();
        await settle();
        return { outcome: Pass };
      },
    };
    const runner = new Runner({ executor, termination: { terminate: async (t) => (targets.push(t), { ceased: true }) } });
    const hold = () => step({ program: 'execute\nInner.' });
    await runner.run(async (ctx) => {
      ctxRef = ctx;
      await step({ program: 'execute\nParent.' });
    }, { grant: { references: { hold } } });
    const inner = runner.ledger.select({ kind: 'execution.start' })[1]!;
    expect(inner.parentId).toBe(node);
    expect((targets[0] as { branches: string[] }).branches).toContain(inner.subjectId);
    expect(runner.ledger.select({ kind: 'execution.end', subjectId: inner.subjectId }).map((e) => e.status)).toEqual(['terminated']);
  });
});

/**
 * Not terminated, only ended: generated `m` calls its sibling export `k` without awaiting it and returns, so `m`'s
 * node ends `completed` while the boundary still decides `k`'s invocation. Once the boundary confirms, `k` would
 * start as a node under `m`, after `m`'s one terminal event. The invocation is refused as a call left behind by a
 * node that ended (`generated_export_outside_dispatch`), and `k` never runs.
 */
describe('an invocation whose calling node ended while the boundary decided', () => {
  it('is refused once the boundary answers, recorded under that node, and its code never runs', async () => {
    runs = 0;
    const g = gate();
    const branch: CodeProposal = {
      language: 'javascript',
      intent: 'define',
      source: 'export async function k() { ran(); return 1; }\nexport async function m() { k().catch(() => undefined); return 1; }',
      dependencies: [{ name: 'ran', kind: 'reference', type: 'function' }],
    };
    const runner = new Runner({ executor: new AgentExecutor({ model: new ScriptedModel([]) }), confinement: boundary((r) => r.node === 'invocation' && r.exportName === 'k', g) });
    let m = '';
    let mEnd: (string | undefined)[] = [];
    await runner.run(
      async (ctx) => {
        const { exports } = await ctx.dispatch(branch);
        expect(await (exports.m as () => Promise<number>)()).toBe(1);
        await g.arrived;
        m = invocationOf(ctx, 'm');
        mEnd = ctx.history({ kind: 'dispatch.end', subjectId: m }).map((e) => e.status);
        g.open();
        await settle();
      },
      { grant: { references: { ran } } },
    );
    const events = runner.ledger.events();
    expect(mEnd).toEqual(['completed']);
    expect(startedUnder(events, m)).toEqual([]);
    expect(runs).toBe(0);
    expect(events.some((e) => e.kind === 'trace.anomaly' && e.status === 'generated_export_outside_dispatch' && e.parentId === m)).toBe(true);
  });
});
