/**
 * Seed 002, "Branch termination": a parent may request forced termination of a descendant dispatch branch
 * (RunContext.terminateBranch). The host asks the configured mechanism about that node and the active branches
 * under it, reports completion only after cessation is established and each affected Natural execution and
 * dispatch node has its one terminal event, and otherwise records nothing terminal for them and refuses what the
 * branch submits at its mediation seams. Model code never reaches it.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AgentExecutor,
  BranchTerminationRefusedError,
  CapabilityRefusedError,
  NaturalExecutionError,
  Pass,
  Runner,
  defineCapability,
  step,
  type CodeProposal,
  type LedgerEvent,
  type RunContext,
  type RunnerOptions,
  type StepExecutor,
  type TerminationService,
  type TerminationTarget,
} from '../../kernel/src/index.js';
import { ScriptedModel, toolCall, type ScriptedResponse } from '../../kernel/src/testing.js';
import { finish, gate, settle, terminalCounts } from './support.js';

const sequence = (events: readonly LedgerEvent[]) => events.map((e) => (e.status === undefined ? e.kind : `${e.kind}:${e.status}`));

/** A termination service that records each target and answers what `answer` says (or throws). */
function mechanism(answer: () => Promise<unknown>) {
  const targets: TerminationTarget[] = [];
  const service: TerminationService = {
    terminate: async (target) => {
      targets.push(target);
      return (await answer()) as { ceased: boolean };
    },
  };
  return { service, targets };
}

/** A Runner whose scripted model waits at `g` on its first request, then answers `after` (every later request too). */
function gatedRunner(g: ReturnType<typeof gate>, after: () => ScriptedResponse, options: Partial<RunnerOptions> = {}) {
  let first = true;
  const model = new ScriptedModel(async () => {
    if (first) {
      first = false;
      g.reached();
      await g.opened;
    }
    return after();
  });
  return new Runner({ executor: new AgentExecutor({ model, maxRequestsPerStep: 5 }), ...options });
}

/** Generated code whose async export waits on a granted reference function (`hold`). */
const holdingExport: CodeProposal = {
  language: 'typescript',
  intent: 'define',
  source: 'export async function slow(): Promise<string> { const got = await hold(); return String(got); }',
  dependencies: [{ name: 'hold', kind: 'reference', type: 'function' }],
};

const adder: CodeProposal = { language: 'typescript', intent: 'define-and-invoke', entry: 'add', args: [1, 2], source: 'export function add(a: number, b: number): number { return a + b; }' };

/** The most recent invocation node of the run. */
const invocationNode = (ctx: RunContext): string => {
  const starts = ctx.history({ kind: 'dispatch.start', status: 'invocation' });
  return starts[starts.length - 1]!.subjectId;
};

/**
 * Dispatches `proposal` and calls its export `name` without awaiting it (the call's rejection is absorbed), then
 * waits until the branch reached `reached`: the invocation node that call runs as, and its pending promise.
 */
async function heldInvocation(ctx: RunContext, proposal: CodeProposal, name: string, reached: Promise<void>) {
  const { exports } = await ctx.dispatch(proposal);
  const pending = (exports[name] as () => Promise<unknown>)();
  pending.catch(() => undefined);
  await reached;
  return { node: invocationNode(ctx), pending };
}

/** A custom executor (it admits its own steps) whose every step does `work` as the step's own code, then passes. */
const executorThat = (work: () => Promise<unknown>): StepExecutor & { admitsExecutorSteps: true } => ({
  admitsExecutorSteps: true,
  async runStep() {
    await work();
    return { outcome: Pass };
  },
});

/** Every started execution and node has exactly one terminal event, and so does every run that ended. */
const everyTerminalOnce = (events: readonly LedgerEvent[]) => {
  const counts = terminalCounts(events);
  const started = events.filter((e) => e.kind === 'execution.start' || e.kind === 'dispatch.start').map((e) => e.subjectId);
  return started.every((id) => counts.get(id) === 1) && [...counts.values()].every((c) => c === 1);
};

const anomalyKinds = (events: readonly LedgerEvent[]) => events.filter((e) => e.kind === 'trace.anomaly').map((e) => e.status);

const lookup = defineCapability({ name: 'lookup', description: 'reversible lookup', request: z.object({ target: z.string() }), run: ({ target }) => target });

describe('RunContext.terminateBranch when the mechanism establishes cessation', () => {
  it('records one dispatch.end(terminated) before it resolves true; the run continues and ends normally', async () => {
    const { service, targets } = mechanism(async () => ({ ceased: true }));
    const runner = new Runner({ executor: new AgentExecutor({ model: new ScriptedModel([]) }), termination: service });
    const held = gate();
    const hold = async () => {
      held.reached();
      await held.opened;
      return 'late';
    };
    let atResolution: readonly (string | undefined)[] = [];
    let answered: boolean | undefined;
    let node = '';
    const value = await runner.run(
      async (ctx) => {
        const { node: started } = await heldInvocation(ctx, holdingExport, 'slow', held.arrived);
        node = started;
        answered = await ctx.terminateBranch(node, 'stuck export');
        atResolution = ctx.history({ kind: 'dispatch.end', subjectId: node }).map((e) => e.status);
        // The run goes on: later interior work is admitted as usual.
        return (await ctx.dispatch(adder)).invocation!.value;
      },
      { grant: { references: { hold } } },
    );
    expect(answered).toBe(true);
    expect(value).toBe(3);
    expect(atResolution).toEqual(['terminated']);
    const runId = runner.ledger.select({ kind: 'run.entry' })[0]!.runId;
    expect(targets).toEqual([{ runId, branches: [node], includesRoot: false, scope: 'branch', branchRoot: node }]);
    expect(runner.ledger.select({ kind: 'dispatch.end', subjectId: node })[0]!.data).toMatchObject({ reason: 'stuck export' });
    expect(sequence(runner.ledger.events())).toEqual([
      'run.entry',
      'dispatch.start:materialization',
      'dispatch.end:completed',
      'dispatch.start:invocation',
      'dispatch.end:terminated',
      'dispatch.start:materialization',
      'dispatch.end:completed',
      'dispatch.start:invocation',
      'dispatch.end:completed',
      'run.end:completed',
    ]);
    const size = runner.ledger.size;
    held.open();
    await settle();
    // The branch the fake mechanism left running records nothing more, and no node has two terminal events.
    expect(runner.ledger.size).toBe(size);
    expect(everyTerminalOnce(runner.ledger.events())).toBe(true);
  });

  it('a Natural execution under the node gets execution.end(terminated), exactly once, before the node does', async () => {
    const { service, targets } = mechanism(async () => ({ ceased: true }));
    const model = gate();
    const runner = gatedRunner(model, () => ({ toolCalls: [finish()] }), { termination: service });
    const ask = () => step({ program: 'execute\nStuck.' });
    let node = '';
    let endsAtResolution: readonly (string | undefined)[] = [];
    const value = await runner.run(
      async (ctx) => {
        const { node: started } = await heldInvocation(ctx, holdingExport, 'slow', model.arrived);
        node = started;
        expect(await ctx.terminateBranch(node)).toBe(true);
        endsAtResolution = ctx.history({ kind: 'execution.end' }).map((e) => e.status);
        // This fake mechanism left the step running in-process: what it does while the run goes on is refused
        // (its commit) and records no second terminal event, for the execution or for the node.
        model.open();
        await settle();
        return 'value';
      },
      { grant: { references: { hold: ask } } },
    );
    expect(value).toBe('value');
    expect(endsAtResolution).toEqual(['terminated']);
    const execution = runner.ledger.select({ kind: 'execution.start' })[0]!;
    expect(execution.parentId).toBe(node);
    expect(targets).toHaveLength(1);
    expect(targets[0]).toMatchObject({ scope: 'branch', branchRoot: node, includesRoot: false });
    expect([...targets[0]!.branches].sort()).toEqual([node, execution.subjectId].sort());
    expect(sequence(runner.ledger.events())).toEqual([
      'run.entry',
      'dispatch.start:materialization',
      'dispatch.end:completed',
      'dispatch.start:invocation',
      'execution.start',
      'execution.end:terminated',
      'dispatch.end:terminated',
      // The step this fake mechanism did not really stop reports its model usage: refused, as for any ended execution.
      'trace.anomaly:stale_admission',
      'run.end:completed',
    ]);
    expect(everyTerminalOnce(runner.ledger.events())).toBe(true);
  });

  it('a parent that is itself a Natural execution may terminate a branch it started (its executor dispatched it)', async () => {
    const { service } = mechanism(async () => ({ ceased: true }));
    const held = gate();
    let ctxRef: RunContext | undefined;
    let answer: unknown;
    const executor = executorThat(async () => {
      const { node: started } = await heldInvocation(ctxRef!, holdingExport, 'slow', held.arrived);
      answer = await ctxRef!.terminateBranch(started);
    });
    const runner = new Runner({ executor, termination: service });
    const hold = async () => (held.reached(), await held.opened, 'late');
    await runner.run(
      async (ctx) => {
        ctxRef = ctx;
        await step({ program: 'execute\nParent.' });
      },
      { grant: { references: { hold } } },
    );
    expect(answer).toBe(true);
    const execution = runner.ledger.select({ kind: 'execution.start' })[0]!.subjectId;
    const invocation = runner.ledger.select({ kind: 'dispatch.start', status: 'invocation' })[0]!;
    expect(invocation.parentId).toBe(execution);
    expect(runner.ledger.select({ kind: 'dispatch.end', subjectId: invocation.subjectId }).map((e) => e.status)).toEqual(['terminated']);
    expect(runner.ledger.select({ kind: 'run.end' }).map((e) => e.status)).toEqual(['completed']);
    held.open();
    await settle();
    expect(everyTerminalOnce(runner.ledger.events())).toBe(true);
  });
});

describe('RunContext.terminateBranch without established cessation', () => {
  for (const [label, answer] of [
    ['the mechanism reports ceased: false', async () => ({ ceased: false })],
    ['the mechanism throws', async () => Promise.reject(new Error('mechanism down'))],
    ['the mechanism answers malformed', async () => ({ ceased: 'yes' })],
  ] as const) {
    it(`${label}: false, nothing terminal recorded for the branch at that point`, async () => {
      const { service, targets } = mechanism(answer);
      const runner = new Runner({ executor: new AgentExecutor({ model: new ScriptedModel([]) }), termination: service });
      const held = gate();
      const hold = async () => (held.reached(), await held.opened, 'late');
      let node = '';
      let terminalsAtAnswer = -1;
      const value = await runner.run(
        async (ctx) => {
          const { node: started, pending } = await heldInvocation(ctx, holdingExport, 'slow', held.arrived);
          node = started;
          expect(await ctx.terminateBranch(node)).toBe(false);
          terminalsAtAnswer = ctx.history({ kind: 'dispatch.end', subjectId: node }).length;
          // The branch unwinds on its own: it records its own outcome, never `terminated`.
          held.open();
          await pending.catch(() => undefined);
          return 'value';
        },
        { grant: { references: { hold } } },
      );
      expect(value).toBe('value');
      expect(targets).toHaveLength(1);
      expect(terminalsAtAnswer).toBe(0);
      const ends = runner.ledger.select({ kind: 'dispatch.end', subjectId: node }).map((e) => e.status);
      expect(ends).toHaveLength(1);
      expect(ends[0]).not.toBe('terminated');
      expect(runner.ledger.select({ status: 'terminated' })).toHaveLength(0);
      expect(runner.ledger.select({ kind: 'run.end' }).map((e) => e.status)).toEqual(['completed']);
      expect(everyTerminalOnce(runner.ledger.events())).toBe(true);
    });
  }

  it('the branch is refused at the mediation seams afterwards: capability calls and new Natural executions', async () => {
    const { service } = mechanism(async () => ({ ceased: false }));
    const runner = new Runner({ executor: new AgentExecutor({ model: new ScriptedModel(() => ({ toolCalls: [finish()] })) }), termination: service });
    const held = gate();
    let ctxRef: RunContext | undefined;
    const outcomes: unknown[] = [];
    // Host code the branch reached (a granted function) goes on after the request: what it submits is refused.
    const hold = async () => {
      held.reached();
      await held.opened;
      outcomes.push(await ctxRef!.invoke('lookup', { target: 'x' }).catch((e: unknown) => e));
      outcomes.push(await step({ program: 'execute\nLater.' }).catch((e: unknown) => e));
      return 'late';
    };
    let node = '';
    await runner.run(
      async (ctx) => {
        ctxRef = ctx;
        const { node: started, pending } = await heldInvocation(ctx, holdingExport, 'slow', held.arrived);
        node = started;
        expect(await ctx.terminateBranch(node)).toBe(false);
        // The composition itself is not in the branch: its own calls are admitted.
        expect(await ctx.invoke('lookup', { target: 'root' })).toBe('root');
        held.open();
        await pending.catch(() => undefined);
      },
      { grant: { capabilities: [lookup], references: { hold } } },
    );
    expect(outcomes[0]).toBeInstanceOf(CapabilityRefusedError);
    expect((outcomes[0] as CapabilityRefusedError).reason).toBe('branch-terminated');
    expect(outcomes[1]).toBeInstanceOf(NaturalExecutionError);
    expect((outcomes[1] as NaturalExecutionError).failure).toBe('terminated');
    const refused = runner.ledger.select({ kind: 'capability.refused' });
    expect(refused.map((e) => [e.status, e.parentId])).toEqual([['branch-terminated', node]]);
    expect(anomalyKinds(runner.ledger.events())).toContain('step_in_terminated_branch');
    expect(runner.ledger.select({ kind: 'capability.call' }).map((e) => e.parentId)).toEqual([runner.ledger.select({ kind: 'run.entry' })[0]!.runId]);
    expect(runner.ledger.select({ kind: 'run.end' }).map((e) => e.status)).toEqual(['completed']);
    expect(everyTerminalOnce(runner.ledger.events())).toBe(true);
  });

  it('host code still running in the branch (a capability body) cannot start a dispatch node under it', async () => {
    const { service } = mechanism(async () => ({ ceased: false }));
    const runner = new Runner({ executor: new AgentExecutor({ model: new ScriptedModel([]) }), termination: service });
    const held = gate();
    let ctxRef: RunContext | undefined;
    let late: unknown;
    // The capability's body is host code (no interior mark); the branch it was called from is closed meanwhile.
    const relay = defineCapability({
      name: 'relay',
      description: 'waits, then dispatches',
      request: z.object({}),
      run: async () => {
        held.reached();
        await held.opened;
        late = await ctxRef!.dispatch(adder).catch((e: unknown) => e);
        return 'late';
      },
    });
    const calling: CodeProposal = { language: 'javascript', intent: 'define', source: 'export async function go() { return await relay({}); }', dependencies: [{ name: 'relay', kind: 'capability', type: '(relayRequest) => unknown' }] };
    let node = '';
    await runner.run(
      async (ctx) => {
        ctxRef = ctx;
        const { node: started, pending } = await heldInvocation(ctx, calling, 'go', held.arrived);
        node = started;
        expect(await ctx.terminateBranch(node)).toBe(false);
        held.open();
        await pending.catch(() => undefined);
        await settle();
      },
      { grant: { capabilities: [relay] } },
    );
    expect(late).toMatchObject({ name: 'DispatchRejectedError', reason: 'branch-terminated' });
    expect(runner.ledger.select({ kind: 'dispatch.start' }).map((e) => e.subjectId)).toHaveLength(2);
    const anomaly = runner.ledger.select({ kind: 'trace.anomaly' }).find((e) => e.status === 'dispatch_in_terminated_branch');
    expect(anomaly?.parentId).toBe(node);
  });

  it('a Natural execution in the branch has its later operations and commit refused, and records its own end', async () => {
    const { service } = mechanism(async () => ({ ceased: false }));
    const model = gate();
    const probe = { ran: false };
    const runner = gatedRunner(model, () => ({ toolCalls: [toolCall('nh_evaluate', { expression: 'probe.ran = true' }), finish()] }), { termination: service });
    const ask = () => step({ program: 'execute\nStuck.' });
    const value = await runner.run(
      async (ctx) => {
        const { node: started, pending } = await heldInvocation(ctx, holdingExport, 'slow', model.arrived);
        expect(await ctx.terminateBranch(started)).toBe(false);
        expect(ctx.history({ kind: 'execution.end' })).toHaveLength(0);
        model.open();
        await pending.catch(() => undefined);
        return 'value';
      },
      { grant: { references: { hold: ask, probe } } },
    );
    expect(value).toBe('value');
    expect(probe.ran).toBe(false);
    const ends = runner.ledger.select({ kind: 'execution.end' });
    expect(ends).toHaveLength(1);
    expect(ends[0]!.status).not.toBe('completed');
    expect(ends[0]!.status).not.toBe('terminated');
    expect(everyTerminalOnce(runner.ledger.events())).toBe(true);
  });
});

describe('RunContext.terminateBranch refusals', () => {
  it('unknown ids, Natural executions, ended nodes and calls after the run end are typed refusals', async () => {
    const { service, targets } = mechanism(async () => ({ ceased: true }));
    const runner = new Runner({ executor: new AgentExecutor({ model: new ScriptedModel(() => ({ toolCalls: [finish()] })) }), termination: service });
    let ctxRef: RunContext | undefined;
    const errors: unknown[] = [];
    await runner.run(async (ctx) => {
      ctxRef = ctx;
      await step({ program: 'execute\nQuick.' });
      const out = await ctx.dispatch(adder);
      errors.push(await ctx.terminateBranch('dsp_does_not_exist').catch((e: unknown) => e));
      errors.push(await ctx.terminateBranch(ctx.history({ kind: 'execution.start' })[0]!.subjectId).catch((e: unknown) => e));
      errors.push(await ctx.terminateBranch(out.invocation!.nodeId).catch((e: unknown) => e));
    });
    errors.push(await ctxRef!.terminateBranch('dsp_does_not_exist').catch((e: unknown) => e));
    expect(errors.map((e) => (e as BranchTerminationRefusedError).reason)).toEqual(['unknown-node', 'not-dispatch-node', 'not-active', 'run-closed']);
    for (const e of errors) {
      expect(e).toBeInstanceOf(BranchTerminationRefusedError);
      expect((e as Error).message).toMatch(/refused/);
    }
    expect(targets).toEqual([]);
  });

  it("another run's context is refused and recorded in both runs; a non-string id is an unknown node", async () => {
    const { service, targets } = mechanism(async () => ({ ceased: true }));
    const runner = new Runner({ executor: new AgentExecutor({ model: new ScriptedModel([]) }), termination: service });
    let first: RunContext | undefined;
    await runner.run(async (ctx) => {
      first = ctx;
    });
    const errors = await runner.run(async (ctx) => [
      await first!.terminateBranch('dsp_x').catch((e: unknown) => e),
      await ctx.terminateBranch({ toString: () => 'dsp_x' } as unknown as string).catch((e: unknown) => e),
    ]);
    expect(errors.map((e) => (e as BranchTerminationRefusedError).reason)).toEqual(['other-run', 'unknown-node']);
    expect(errors.every((e) => e instanceof BranchTerminationRefusedError)).toBe(true);
    expect(runner.ledger.select({ kind: 'trace.anomaly', status: 'authority_from_other_run' })).toHaveLength(1);
    expect(runner.anomalies.map((a) => a.anomalyKind)).toEqual(['authority_from_other_run']);
    expect(targets).toEqual([]);
  });

  it('a node that does not run under the caller is refused (a Natural execution asking about its sibling)', async () => {
    const { service, targets } = mechanism(async () => ({ ceased: true }));
    const held = gate();
    let ctxRef: RunContext | undefined;
    let sibling = '';
    let refusal: unknown;
    const executor = executorThat(async () => {
      refusal = await ctxRef!.terminateBranch(sibling).catch((e: unknown) => e);
    });
    const runner = new Runner({ executor, termination: service });
    const hold = async () => (held.reached(), await held.opened, 'late');
    await runner.run(
      async (ctx) => {
        ctxRef = ctx;
        const { node: started, pending } = await heldInvocation(ctx, holdingExport, 'slow', held.arrived);
        sibling = started;
        await step({ program: 'execute\nNot my branch.' });
        held.open();
        await pending;
      },
      { grant: { references: { hold } } },
    );
    expect(refusal).toBeInstanceOf(BranchTerminationRefusedError);
    expect((refusal as BranchTerminationRefusedError).reason).toBe('not-descendant');
    expect(targets).toEqual([]);
    expect(runner.ledger.select({ kind: 'dispatch.end', subjectId: sibling }).map((e) => e.status)).toEqual(['completed']);
  });

  it('a model expression cannot use it: refused and recorded as a trace anomaly', async () => {
    const { service, targets } = mechanism(async () => ({ ceased: true }));
    let ctxRef: RunContext | undefined;
    const probe: Record<string, unknown> = {};
    const stop = (id: string) => ctxRef!.terminateBranch(id);
    const expression = `(async () => { try { await stop(probe.node); probe.seen = 'allowed'; } catch (e) { probe.seen = e.name; } })()`;
    let first = true;
    const model = new ScriptedModel(() => {
      if (!first) return { toolCalls: [finish()] };
      first = false;
      return { toolCalls: [toolCall('nh_evaluate', { expression }), finish()] };
    });
    const runner = new Runner({ executor: new AgentExecutor({ model }), termination: service });
    const held = gate();
    const hold = async () => (held.reached(), await held.opened, 'late');
    await runner.run(
      async (ctx) => {
        ctxRef = ctx;
        const { node: started, pending } = await heldInvocation(ctx, holdingExport, 'slow', held.arrived);
        probe.node = started;
        await step({ program: 'execute\nTry it.' });
        held.open();
        await pending;
      },
      { grant: { references: { hold, stop, probe } } },
    );
    expect(probe.seen).toBe('HostIntegrityError');
    expect(targets).toEqual([]);
    const anomaly = runner.ledger.select({ kind: 'trace.anomaly', status: 'operator_control_in_run' });
    expect(anomaly.map((e) => e.data)).toEqual([expect.objectContaining({ control: 'terminateBranch' })]);
    expect(runner.ledger.select({ kind: 'dispatch.end', subjectId: probe.node as string }).map((e) => e.status)).toEqual(['completed']);
    expect(everyTerminalOnce(runner.ledger.events())).toBe(true);
  });

  it('generated code cannot use it: refused and recorded under its dispatch node', async () => {
    const { service, targets } = mechanism(async () => ({ ceased: true }));
    const runner = new Runner({ executor: new AgentExecutor({ model: new ScriptedModel([]) }), termination: service });
    let ctxRef: RunContext | undefined;
    const stop = (id: string) => ctxRef!.terminateBranch(id);
    const source = 'export async function run(id: string): Promise<string> { try { await stop(id); return "allowed"; } catch (e) { return (e as Error).name; } }';
    const out = await runner.run(
      async (ctx) => {
        ctxRef = ctx;
        const m = await ctx.dispatch({ language: 'typescript', intent: 'define', source, dependencies: [{ name: 'stop', kind: 'reference', type: 'function' }] });
        const run = m.exports['run'] as (id: string) => Promise<string>;
        // The export's own invocation node: a branch of the composition, yet the request comes from model code.
        const self = run('placeholder');
        const node = invocationNode(ctx);
        await self;
        return await run(node);
      },
      { grant: { references: { stop } } },
    );
    expect(out).toBe('HostIntegrityError');
    expect(targets).toEqual([]);
    const anomalies = runner.ledger.select({ kind: 'trace.anomaly', status: 'operator_control_in_run' });
    expect(anomalies).toHaveLength(2);
    const invocations = runner.ledger.select({ kind: 'dispatch.start', status: 'invocation' }).map((e) => e.subjectId);
    expect(anomalies.map((e) => e.parentId)).toEqual(invocations);
    expect(runner.ledger.select({ kind: 'dispatch.end' }).every((e) => e.status === 'completed')).toBe(true);
  });
});
