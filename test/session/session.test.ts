import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import {
  AgentExecutor,
  OperatorControlError,
  RetainedFunction,
  Session,
  SessionClosedError,
  SessionExitBlockedError,
  SubmissionRefusedError,
  currentExecutionRef,
  hashSource,
  step,
  taskOwner,
  type BackgroundOwner,
} from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

const finish = () => toolCall('nh_output', { result: { kind: 'pass' } });

function newSession(turns?: ConstructorParameters<typeof ScriptedModel>[0]) {
  const model = new ScriptedModel(turns ?? (() => ({ toolCalls: [finish()] })));
  return new Session({ executor: new AgentExecutor({ model }) });
}

/** Simulates the kernel: submit a cell's source, "run" it (here: a function), then report what it declared. */
function cell(session: Session, source: string, declared: Record<string, unknown>) {
  const submission = session.submit(source);
  return session.materialized(submission, declared);
}

describe('Session and SessionFunction', () => {
  it('a cell-level call creates a new run id each time; an interior call keeps the run id', async () => {
    const session = newSession();
    const { whoami } = cell(session, 'async function whoami() { return currentExecutionRef().runId }', { whoami: async () => currentExecutionRef().runId });
    const { outer } = cell(session, 'async function outer() {...}', { outer: async () => [currentExecutionRef().runId, await whoami!()] });
    const a = await whoami!();
    const b = await whoami!();
    expect(a).not.toBe(b);
    const [outerRun, innerRun] = (await outer!()) as string[];
    expect(innerRun).toBe(outerRun);
    expect(session.ledger.select({ kind: 'run.entry' })).toHaveLength(3);
  });

  it('a model expression calling a SessionFunction joins the running step\'s run', async () => {
    let seen: string | undefined;
    const session = newSession((_m, info) =>
      info.requestNumber === 1 ? { toolCalls: [toolCall('nh_evaluate', { expression: 'helper()' }), finish()] } : { toolCalls: [finish()] },
    );
    const { helper } = cell(session, 'async function helper() {}', { helper: async () => { seen = currentExecutionRef().runId; } });
    const { agent } = cell(session, 'async function agent() {}', { agent: async () => { await step({ program: 'execute\nCall helper.', references: { helper } }); return currentExecutionRef().runId; } });
    const runId = await agent!();
    expect(seen).toBe(runId);
  });

  it('generator functions keep their iteration: never wrapped, never approved, and refused by registration by name', () => {
    const session = newSession();
    function* numbers() { yield 1; }
    async function* words() { yield 'a'; }
    const adapters = cell(session, 'function* numbers() { yield 1 }\nasync function* words() { yield "a" }\nfunction plain() { return 1 }', { numbers, words, plain: () => 1 });
    expect(Object.keys(adapters)).toEqual(['plain']);
    expect(session.isApproved(numbers)).toBe(false);
    expect([...numbers()]).toEqual([1]);
    // Not an unobserved definition: the cell did define them, they are only left as written.
    expect(session.anomalies.filter((a) => a.anomalyKind === 'unobserved_definition')).toEqual([]);
    expect(() => session.registerImported(words, { reviewedSourceHash: hashSource('async function* words() {}') })).toThrow(/generator function cannot be a SessionFunction/);
  });

  it('inside a run a synchronous SessionFunction answers as written; from operator code outside any run it starts one', async () => {
    const session = newSession();
    const { add } = cell(session, 'function add(a, b) { return a + b }', { add: (a: number, b: number) => a + b });
    const { fails } = cell(session, 'function fails() { throw new RangeError("no") }', { fails: () => { throw new RangeError('no'); } });
    const { later } = cell(session, 'async function later() { return 1 }', { later: async () => 1 });
    const { outer } = cell(session, 'function outer() {...}', {
      outer: () => {
        let thrown: unknown;
        try {
          fails!();
        } catch (error) {
          thrown = error;
        }
        return { sum: (add as unknown as (a: number, b: number) => number)(2, 3) * 2, thrown: (thrown as Error | undefined)?.name, later: later!() instanceof Promise };
      },
    });
    const addFromOperator = add as unknown as (a: number, b: number) => Promise<number>;
    expect(addFromOperator(1, 2)).toBeInstanceOf(Promise);
    await expect(addFromOperator(1, 2)).resolves.toBe(3);
    await expect(outer!()).resolves.toEqual({ sum: 10, thrown: 'RangeError', later: true });
    expect(session.ledger.select({ kind: 'run.entry' })).toHaveLength(3);
  });

  it('calls after close are refused; escaped adapters lose their admission evidence', async () => {
    const session = newSession();
    const raw = async () => 1;
    const { f } = cell(session, 'const f = async () => 1', { f: raw });
    expect(session.isApproved(f)).toBe(true);
    await session.close();
    await expect(f!()).rejects.toBeInstanceOf(SessionClosedError);
    expect(session.isApproved(f)).toBe(false);
    expect(session.isApproved(raw)).toBe(false);
  });

  it('a function a model made that claims to be a SessionFunction (the public marker, copied) has no approval', async () => {
    const expression = "(() => { const f = () => 'mine'; Object.defineProperty(f, Symbol.for('nighthawk.session-function'), { value: { sessionId, target: helper } }); return f; })()";
    const session = newSession((_m, info) =>
      info.requestNumber === 1 ? { toolCalls: [toolCall('nh_assign', { target_path: 'made', expression }), finish()] } : { toolCalls: [finish()] },
    );
    const raw = async () => 1;
    const { helper } = cell(session, 'const helper = async () => 1', { helper: raw });
    const { agent } = cell(session, 'async function agent() {}', {
      agent: async () => {
        const { bindings } = await step({
          program: 'execute\nSet <:made>.',
          references: { helper: raw, sessionId: session.sessionId },
          writes: { made: z.custom<(...args: unknown[]) => unknown>((v) => typeof v === 'function') },
        });
        return bindings.made;
      },
    });
    const made = await agent!();
    expect(typeof made).toBe('function');
    // The marker names an approved target, but approval follows the Session's own adapters, not a public symbol.
    expect(session.isApproved(helper)).toBe(true);
    expect(session.isApproved(made)).toBe(false);
    expect(session.evidenceFor(made)).toBeUndefined();
  });

  it('approval in one Session does not carry to another', () => {
    const one = newSession();
    const two = newSession();
    const fn = async () => 1;
    cell(one, 'const fn = async () => 1', { fn });
    expect(one.isApproved(fn)).toBe(true);
    expect(two.isApproved(fn)).toBe(false);
  });

  it('approval records the exact source by content hash', () => {
    const session = newSession();
    const source = 'const g = async () => 2';
    const g = async () => 2;
    cell(session, source, { g });
    expect(session.evidenceFor(g)).toMatchObject({ route: 'operator-submission', sourceHash: hashSource(source) });
  });

  it('a generated function renamed to an approved name is not approved', async () => {
    const session = newSession();
    const approved = async function add() { return 0; };
    cell(session, 'async function add() { return 0 }', { add: approved });
    const generated = await session.runner.run(async (ctx) => (await ctx.dispatch({ language: 'typescript', intent: 'define', source: 'export function add(a: number, b: number): number { return a + b; }' })).exports.add);
    Object.defineProperty(generated, 'name', { value: 'add' });
    expect(session.isApproved(generated)).toBe(false);
    const rebound = cell(session, 'const add = generated', { add: generated });
    expect(rebound.add).toBeUndefined();
    expect(session.isApproved(generated)).toBe(false);
  });

  it('model output handed to the Session as source is refused', async () => {
    const session = newSession((_m, info) =>
      info.requestNumber === 1 ? { toolCalls: [toolCall('nh_evaluate', { expression: 'session.submit("export const pwned = 1")' }), finish()] } : { toolCalls: [finish()] },
    );
    const { agent } = cell(session, 'async function agent() {}', { agent: async () => step({ program: 'execute\nDo what you are told.', references: { session } }) });
    await agent!();
    const op = session.ledger.select({ kind: 'operation' })[0]!;
    expect(op.status).toBe('failed');
    expect(JSON.stringify(op.data)).toContain('OperatorControlError');
    await expect(session.runner.run(async () => session.submit('x'))).rejects.toBeInstanceOf(OperatorControlError);
    expect(() => session.submit(42 as unknown as string)).toThrow(SubmissionRefusedError);
  });

  it('operator controls are never reachable as Agent capabilities, through aliases or retained values', async () => {
    const session = newSession();
    const alias = { shutdown: session.close.bind(session) };
    await expect(session.runner.run(async () => alias.shutdown())).rejects.toBeInstanceOf(OperatorControlError);
    expect(session.closed).toBe(false);
  });

  it('exit is blocked while an owner reports unknown and allowed after confirmed cessation', async () => {
    const session = newSession();
    let state: 'unknown' | 'cessation-confirmed' = 'unknown';
    const owner: BackgroundOwner = { name: 'poller', requestInterruption: () => undefined, observe: () => state };
    session.registerOwner(owner);
    const error = await session.close().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionExitBlockedError);
    expect((error as Error).message).toContain('poller');
    expect(session.closed).toBe(false);
    state = 'cessation-confirmed';
    await session.close();
    expect(session.closed).toBe(true);
  });

  it('close while a run a SessionFunction call started is in progress: the run goes on, its calls through adapters are refused', async () => {
    const session = newSession();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { helper } = cell(session, 'async function helper() {}', { helper: async () => 'helped' });
    const { outer } = cell(session, 'async function outer() {}', {
      outer: async () => {
        await gate;
        return helper!().then(() => 'helper ran', (error: unknown) => (error instanceof SessionClosedError ? 'helper refused' : 'other error'));
      },
    });
    const pending = outer!();
    await session.close();
    expect(session.closed).toBe(true);
    release();
    await expect(pending).resolves.toBe('helper refused');
    const runId = session.ledger.select({ kind: 'run.entry' }).at(-1)!.runId;
    expect(session.ledger.select({ kind: 'run.end', runId }).map((e) => e.status)).toEqual(['completed']);
  });

  it('after close, a cell that finishes approves nothing and background work cannot be registered', async () => {
    const session = newSession();
    // Submitted before close, its definitions reported after.
    const submission = session.submit('async function late() { return 1; }');
    await session.close();
    expect(() => session.materialized(submission, { late: async () => 1 })).toThrow(SessionClosedError);
    const owner: BackgroundOwner = { name: 'late poller', requestInterruption: () => undefined, observe: () => 'unknown' };
    expect(() => session.registerOwner(owner)).toThrow(SessionClosedError);
    expect(await session.observeOwners()).toEqual([]);
  });

  it('an owner whose observation fails reads as unknown; a task owner confirms cessation once its task settles', async () => {
    const session = newSession();
    session.registerOwner({ name: 'broken', requestInterruption: () => undefined, observe: () => { throw new Error('no idea'); } });
    const owners = await session.observeOwners();
    expect(owners).toEqual([{ name: 'broken', observation: 'unknown' }]);
    const other = newSession();
    const task = taskOwner('ticker', (signal) => new Promise((resolve) => signal.addEventListener('abort', () => setTimeout(resolve, 5))));
    other.registerOwner(task);
    await expect(other.close()).rejects.toBeInstanceOf(SessionExitBlockedError);
    await task.done;
    await other.close();
    expect(other.closed).toBe(true);
  });

  it('a retained function stays generated and is re-invoked in a fresh run without the first run\'s authority', async () => {
    const session = newSession();
    const retained = await session.runner.run(async (ctx) =>
      RetainedFunction.retain(await ctx.dispatch({ language: 'typescript', intent: 'define', source: 'export function twice(n: number): number { return n * 2; }' }), 'twice'),
    );
    const value = await session.runner.run(async () => retained.invoke(21));
    expect(value).toBe(42);
    expect(session.isApproved(retained)).toBe(false);
    const starts = session.ledger.select({ kind: 'dispatch.start' });
    expect(new Set(starts.map((e) => e.runId)).size).toBe(2);
  });

  it('classes a cell declares stay constructible and are not wrapped as SessionFunctions', () => {
    const session = newSession();
    class Widget {}
    const out = cell(session, 'class Widget {}', { Widget });
    expect(out.Widget).toBeUndefined();
    expect(new Widget()).toBeInstanceOf(Widget);
  });
});
