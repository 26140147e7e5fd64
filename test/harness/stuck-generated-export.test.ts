/**
 * Seed 002: cooperative cancellation unwinds the body. Operator code awaiting a generated export whose promise never
 * settles must not hold the composition and the caller's run call for ever once the run is stopped: one turn after
 * the stop the awaiting code receives a typed RunTerminatedError. Without established cessation the invocation node
 * stays nonterminal and no run end is recorded; with it, the node ends terminated.
 */
import { describe, expect, it } from 'vitest';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel } from '../../kernel/src/testing.js';

const settled = <T>(p: Promise<T>, ms = 2000) => Promise.race([p.then((v) => ({ value: v }), (error: unknown) => ({ error })), new Promise<'pending'>((r) => setTimeout(() => r('pending'), ms))]);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const STUCK = 'export async function wait() { await new Promise(() => {}); }';

function runner(termination?: nh.TerminationService): nh.Runner {
  return new nh.Runner({ executor: new nh.AgentExecutor({ model: new ScriptedModel([]) }), ...(termination ? { termination } : {}) });
}

/** The composition: materializes the stuck export and awaits it. */
const awaitStuck = async (ctx: nh.RunContext) => {
  const { exports } = await ctx.dispatch({ language: 'javascript', intent: 'define', source: STUCK, dependencies: [] });
  return (exports.wait as () => Promise<unknown>)();
};

const kinds = (r: nh.Runner) => r.ledger.select({}).map((e) => `${e.kind}${e.status ? `:${e.status}` : ''}`);

describe('operator code awaiting a generated export that never settles', () => {
  it('RunHandle.terminate with the cooperative mechanism: false; the await and the run call reject with RunTerminatedError, the node stays nonterminal', async () => {
    const r = runner();
    const handle = r.start(awaitStuck);
    await pause(50);
    expect(await handle.terminate('stop')).toBe(false);
    const outcome = await settled(handle.result);
    expect(outcome).not.toBe('pending');
    const error = (outcome as { error: unknown }).error as nh.RunTerminatedError;
    expect(error).toBeInstanceOf(nh.RunTerminatedError);
    expect(error.ceased).toBe(false);
    expect(kinds(r)).toEqual(['run.entry', 'dispatch.start:materialization', 'dispatch.end:completed', 'dispatch.start:invocation']);
  });

  it("the caller's abort signal: the await rejects with RunTerminatedError naming the stop; the body unwinds with the node still active, so no run end", async () => {
    const r = runner();
    const controller = new AbortController();
    let seen: unknown;
    const result = r.run(async (ctx) => awaitStuck(ctx).catch((error: unknown) => ((seen = error), Promise.reject(error))), { signal: controller.signal });
    await pause(50);
    controller.abort(new Error('caller gave up'));
    const outcome = await settled(result);
    expect(outcome).not.toBe('pending');
    expect(seen).toBeInstanceOf(nh.RunTerminatedError);
    expect((seen as Error).message).toContain('caller gave up');
    const error = (outcome as { error: unknown }).error as nh.ActiveBranchesError;
    expect(error).toBeInstanceOf(nh.ActiveBranchesError);
    expect(error.ceased).toBe(false);
    expect(kinds(r).slice(-2)).toEqual(['dispatch.start:invocation', 'trace.anomaly:branches_active_at_run_end']);
  });

  it('a define-and-invoke whose invocation value never settles: the same', async () => {
    const r = runner();
    const handle = r.start(async (ctx) => (await ctx.dispatch({ language: 'javascript', intent: 'define-and-invoke', entry: 'wait', source: 'export function wait() { return new Promise(() => {}); }', dependencies: [] })).invocation!.value);
    await pause(50);
    expect(await handle.terminate('stop')).toBe(false);
    expect(((await settled(handle.result)) as { error: unknown }).error).toBeInstanceOf(nh.RunTerminatedError);
    expect(kinds(r).at(-1)).toBe('dispatch.start:invocation');
  });

  it('with a mechanism that establishes cessation: true, the node ends terminated once and the run ends terminated', async () => {
    const r = runner({ terminate: async () => ({ ceased: true }) });
    const handle = r.start(awaitStuck);
    await pause(50);
    expect(await handle.terminate('stop')).toBe(true);
    expect(((await settled(handle.result)) as { error: unknown }).error).toBeInstanceOf(nh.RunTerminatedError);
    await pause(20);
    expect(kinds(r).slice(-2)).toEqual(['dispatch.end:terminated', 'run.end:terminated']);
    expect(r.ledger.select({ kind: 'dispatch.end' })).toHaveLength(2);
  });

  it('a stuck export nobody awaits: the run-end seam stops the run, and the cut-off is no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      const r = runner();
      const outcome = await settled(
        r.run(async (ctx) => {
          const { exports } = await ctx.dispatch({ language: 'javascript', intent: 'define', source: STUCK, dependencies: [] });
          void (exports.wait as () => Promise<unknown>)();
          return 'value';
        }),
      );
      expect((outcome as { error: unknown }).error).toBeInstanceOf(nh.ActiveBranchesError);
      await pause(50);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', listener);
    }
  });

  it('an export that settles in the turn of the stop keeps its value, and one that finished before is untouched', async () => {
    const r = runner();
    const values: unknown[] = [];
    let handle: nh.RunHandle<unknown> | undefined;
    handle = r.start(async (ctx) => {
      const { exports } = await ctx.dispatch({ language: 'javascript', intent: 'define', source: 'export async function twice(n) { return n * 2; }', dependencies: [] });
      const twice = exports.twice as (n: number) => Promise<number>;
      values.push(await twice(2));
      // Stopped while the next call runs: its promise settles in this same turn, so its value still arrives.
      const pending = twice(3);
      void handle!.terminate('stop');
      values.push(await pending);
      return 'done';
    });
    await settled(handle.result);
    expect(values).toEqual([4, 6]);
    expect(r.ledger.select({ kind: 'dispatch.end' }).map((e) => e.status)).toEqual(['completed', 'completed', 'completed']);
  });
});
