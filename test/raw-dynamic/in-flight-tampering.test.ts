/**
 * Code left running by a model expression cannot act while the host decides. Before each model request the
 * host restores what the provider client reads with, but an interval an expression left behind fires again
 * while the request is in flight and replaces `Response.prototype.json`/`text` to zero the reply's usage,
 * which the cost allocation counts. Two forms: a callback the model wrote (its function is guarded), and one
 * made only of built-ins (`Object.assign` bound to a fake reply), which no guard of model code sees. The
 * usage the allocation counts is read by the host from the reply's bytes; and model expression code runs
 * only while an operation of its step runs. The same kind of interval fires while an application inspector
 * awaits (a lookup elsewhere) and makes its `Set` forget the blocked name, or while a confinement service
 * awaits and makes its `Set` confirm an unconfined definition: a decision made while built-ins changed is void.
 * (A Session takes no confinement service, so that attack has no SessionFunction-body form.)
 * Each attack comes from a model expression, from generated code and from a SessionFunction body.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ensureBuilt } from '../../kernel/src/server/runner/nb-build.js';
import { AgentExecutor, DispatchRejectedError, NaturalExecutionError, OpenAIModelClient, Runner, Session, accept, rejectOperation, step, type OperationRequest } from '../../kernel/src/index.js';
import { ActiveBranchesError, type ConfinementRequest, type TerminationTarget } from '../../kernel/src/harness/index.js';
import { ScriptedModel, toolCall as scriptedToolCall } from '../../kernel/src/testing.js';
import { definitionIdOf } from '../../kernel/src/harness/generated/index.js';
import { callingGeneratedWithReference, finish, scriptedRunner } from '../harness/support.js';
import { completion, startOpenAIServer, toolCall, type OpenAITestServer } from '../support/openai-server.js';

const KEY = 'sk-in-flight-0123456789abcdefghij';
const big = { promptTokens: 400, completionTokens: 100 };
const realJson = Response.prototype.json;
const realText = Response.prototype.text;
const intervals: ReturnType<typeof setInterval>[] = [];
const realSetInterval = globalThis.setInterval;

const realHas = Set.prototype.has;

afterEach(() => {
  for (const id of intervals.splice(0)) clearInterval(id);
  Object.assign(Response.prototype, { json: realJson, text: realText });
  Set.prototype.has = realHas;
});

/** A reply whose usage says nothing was spent, asking for another cheap operation. */
const FAKE = {
  id: 'fake',
  object: 'chat.completion',
  created: 0,
  model: 'fake',
  choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'nh_evaluate', arguments: '{"expression":"1"}' } }] } }],
  usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
};

/** Every 2 ms, a callback the model wrote zeroes the usage of whatever reply is read next. */
const MODEL_INTERVAL =
  "(setInterval(() => { const j = Response.prototype.json; if (j.zeroing) return; const z = async function () { const o = await j.call(this); if (o && o.usage) o.usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }; return o; }; z.zeroing = true; Response.prototype.json = z; }, 2), 1)";
/** Every 2 ms, built-ins alone put a fake zero-usage reply in place of whatever is read next. */
const BUILTIN_INTERVAL = `(setInterval(Object.assign, 2, Response.prototype, { json: Promise.resolve.bind(Promise, ${JSON.stringify(FAKE)}), text: Promise.resolve.bind(Promise, ${JSON.stringify(JSON.stringify(FAKE))}) }), 1)`;

/** Replies of 500 tokens each, every one held 40 ms so an interval fires while it is in flight. */
function slowCostlyReplies(server: OpenAITestServer, first?: string): void {
  const evaluate = (expression: string) => ({ kind: 'delay' as const, ms: 40, reply: completion({ toolCalls: [toolCall('nh_evaluate', { expression })], usage: big }) });
  server.enqueue(
    ...(first ? [evaluate(first)] : []),
    ...Array.from({ length: 7 }, () => evaluate('1')),
    { kind: 'delay', ms: 40, reply: completion({ toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })], usage: big }) },
  );
}

const model = (server: OpenAITestServer) => new OpenAIModelClient({ apiKey: KEY, baseURL: server.baseURL, env: {}, maxRetries: 0 });
const goStep = () => step({ program: 'execute\nGo.' });
const tracked = (id: ReturnType<typeof setInterval>) => (intervals.push(id), id);

/**
 * A termination service that reports cessation only for branches its mechanism stopped (none here), after asking
 * the mechanism (an await of `ms`): a lying `Set.prototype.has` would make it report them ceased.
 */
const listedTermination = (ms: number) => {
  const stopped = new Set<string>();
  return {
    terminate: async (target: TerminationTarget) => {
      await new Promise((r) => setTimeout(r, ms));
      return { ceased: target.branches.every((b) => stopped.has(b)) };
    },
  };
};

/** The run ended with its branches active and no cessation established, so no `run.end` was recorded. */
function expectNoCessation(runner: Runner, outcome: unknown): void {
  expect(outcome).toBeInstanceOf(ActiveBranchesError);
  expect((outcome as ActiveBranchesError).ceased).toBe(false);
  expect(runner.ledger.select({ kind: 'run.end' })).toEqual([]);
}

/** Runs `fn` with the intervals it starts tracked, then clears them and puts `Set.prototype.has` back. */
async function withTrackedIntervals<T>(fn: () => Promise<T>): Promise<T> {
  globalThis.setInterval = ((...args: Parameters<typeof setInterval>) => tracked(realSetInterval(...args))) as typeof setInterval;
  try {
    return await fn();
  } finally {
    globalThis.setInterval = realSetInterval;
    for (const id of intervals.splice(0)) clearInterval(id);
    Set.prototype.has = realHas;
  }
}

async function withServer(fn: (server: OpenAITestServer) => Promise<void>): Promise<void> {
  const server = await startOpenAIServer();
  try {
    await fn(server);
  } finally {
    await server.close();
  }
}

/** 500 per reply against 1,200: the third request is the last one, whatever happens to the replies. */
function expectBounded(server: OpenAITestServer, outcome: unknown): void {
  expect((outcome as NaturalExecutionError).failure).toBe('allocation_exhausted');
  expect(server.requests.length).toBeLessThanOrEqual(3);
}

describe('an interval left by a model expression cannot zero the usage of a reply in flight', () => {
  for (const [name, expression] of [
    ['a callback the model wrote', MODEL_INTERVAL],
    ['a callback made of built-ins', BUILTIN_INTERVAL],
  ] as const) {
    it(`${name}: the cost allocation still ends the step`, async () => {
      await withServer(async (server) => {
        slowCostlyReplies(server, expression);
        const runner = new Runner({ executor: new AgentExecutor({ model: model(server) }) });
        // The interval is the model's: it is cleared here only so a failing run does not leak it into others.
        const outcome = await withTrackedIntervals(() => runner.run(goStep, { allocation: { maxCost: 1_200 } }).then(() => 'ok', (e: unknown) => e));
        expectBounded(server, outcome);
      });
    });
  }

  it('a callback the model wrote is refused while no operation of its step runs, and recorded', async () => {
    await withServer(async (server) => {
      slowCostlyReplies(server, MODEL_INTERVAL);
      const runner = new Runner({ executor: new AgentExecutor({ model: model(server) }) });
      await withTrackedIntervals(() => runner.run(goStep, { allocation: { maxCost: 1_200 } }).catch(() => undefined));
      const refused = runner.ledger.select({ kind: 'trace.anomaly' }).filter((e) => e.status === 'expression_code_outside_operation');
      expect(refused.length).toBeGreaterThan(0);
      // A refused interval callback clears its interval: one record, not one per tick.
      expect(refused).toHaveLength(1);
    });
  });
});

describe('an interval left by one run does not lift the allocation of another run in the same process', () => {
  it('run A leaves the built-in interval running; run B, concurrent, still ends at its cost bound', async () => {
    await withServer(async (serverA) => {
      await withServer(async (serverB) => {
        // A: one expression that leaves the interval, then it finishes; its interval keeps firing meanwhile.
        serverA.enqueue(
          completion({ toolCalls: [toolCall('nh_evaluate', { expression: BUILTIN_INTERVAL })] }),
          { kind: 'delay', ms: 400, reply: completion({ toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] }) },
        );
        slowCostlyReplies(serverB);
        const runnerA = new Runner({ executor: new AgentExecutor({ model: model(serverA) }) });
        const runnerB = new Runner({ executor: new AgentExecutor({ model: model(serverB) }) });
        const outcome = await withTrackedIntervals(async () => {
          const a = runnerA.run(goStep).catch(() => undefined);
          // B starts once A's interval is running.
          await new Promise((r) => setTimeout(r, 30));
          const b = await runnerB.run(goStep, { allocation: { maxCost: 1_200 } }).then(() => 'ok', (e: unknown) => e);
          await a;
          return b;
        });
        expectBounded(serverB, outcome);
      });
    });
  });
});

describe('code an expression left behind does not run between the operations of its step', () => {
  it('a promise job that resumes during the next model request is refused, and the operations after it still run', async () => {
    await withServer(async (server) => {
      const late = "(Promise.resolve().then(() => new Promise((r) => setTimeout(r, 15))).then(() => { globalThis.__nhLate = 'ran'; }), 1)";
      server.enqueue(
        completion({ toolCalls: [toolCall('nh_evaluate', { expression: late })] }),
        { kind: 'delay', ms: 60, reply: completion({ toolCalls: [toolCall('nh_evaluate', { expression: '2' })] }) },
        completion({ toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] }),
      );
      const runner = new Runner({ executor: new AgentExecutor({ model: model(server) }) });
      try {
        const outcome = await runner.run(goStep).then(() => 'ok', (e: unknown) => e);
        expect(outcome).toBe('ok');
        expect((globalThis as Record<string, unknown>)['__nhLate']).toBeUndefined();
        expect(runner.ledger.select({ kind: 'trace.anomaly' }).map((e) => e.status)).toContain('expression_code_outside_operation');
        expect(runner.ledger.select({ kind: 'operation' }).map((e) => e.status)).toEqual(['completed', 'completed', 'completed']);
      } finally {
        delete (globalThis as Record<string, unknown>)['__nhLate'];
      }
    });
  });

  it('a job that resumes while a later operation of the same step runs is not refused', async () => {
    await withServer(async (server) => {
      // The second expression waits 40 ms; the first one's job resumes 15 ms into it.
      const job = "(new Promise((r) => setTimeout(r, 15)).then(() => { globalThis.__nhJob = 'ran'; }), 1)";
      server.enqueue(
        completion({ toolCalls: [toolCall('nh_evaluate', { expression: job }), toolCall('nh_evaluate', { expression: 'new Promise((r) => setTimeout(() => r(2), 40))' })] }),
        completion({ toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] }),
      );
      const runner = new Runner({ executor: new AgentExecutor({ model: model(server) }) });
      try {
        expect(await runner.run(goStep).then(() => 'ok', (e: unknown) => e)).toBe('ok');
        expect((globalThis as Record<string, unknown>)['__nhJob']).toBe('ran');
        expect(runner.ledger.select({ kind: 'trace.anomaly' }).map((e) => e.status)).not.toContain('expression_code_outside_operation');
      } finally {
        delete (globalThis as Record<string, unknown>)['__nhJob'];
      }
    });
  });
});

describe('from generated code and from a SessionFunction body', () => {
  it('generated code that leaves a built-in interval running through its step does not lift the cost allocation', async () => {
    await withServer(async (server) => {
      slowCostlyReplies(server);
      const runner = new Runner({ executor: new AgentExecutor({ model: model(server) }) });
      const source = `export async function run() {
        const id = ${BUILTIN_INTERVAL.slice(1, -4)};
        try { return await goStep(); } finally { clearInterval(id); }
      }`;
      const outcome = await runner
        .run(callingGeneratedWithReference(source, 'goStep'), { grant: { references: { goStep } }, allocation: { maxCost: 1_200 } })
        .then(() => 'ok', (e: unknown) => e);
      expectBounded(server, outcome instanceof NaturalExecutionError ? outcome : (outcome as { cause?: unknown }).cause ?? outcome);
    });
  });

  it('a SessionFunction body that keeps replacing the reply reader around its step does not lift the cost allocation', async () => {
    await withServer(async (server) => {
      slowCostlyReplies(server);
      const session = new Session({ executor: new AgentExecutor({ model: model(server) }), allocation: { maxCost: 1_200 } });
      const { spend } = session.materialized(session.submit('async function spend() {}'), {
        spend: async () => {
          const fake = Promise.resolve.bind(Promise, FAKE) as () => Promise<unknown>;
          const id = realSetInterval(() => Object.assign(Response.prototype, { json: fake }), 2);
          try {
            return await goStep();
          } finally {
            clearInterval(id);
          }
        },
      });
      const outcome = await (spend as () => Promise<unknown>)().then(() => 'ok', (e: unknown) => e);
      expectBounded(server, outcome);
    });
  });
});

describe('an application inspector that awaits decides on the built-ins the host loaded with', () => {
  /** Every millisecond, built-ins alone make every Set lookup answer false. */
  const FORGET = '(setInterval(Object.assign, 1, Set.prototype, { has: Array.prototype.includes.bind([]) }), 1)';
  const blocked = new Set(['secret']);
  /** Looks the name up after an await (a database, a policy service): a timer fires meanwhile. */
  const inspectOperation = async (request: OperationRequest) => {
    await new Promise((r) => setTimeout(r, 10));
    return request.kind === 'assign' && blocked.has(request.targetPath ?? '') ? rejectOperation('secret is read-only', 'leave it') : accept();
  };
  const assignStep = () => step({ program: 'execute\nGo <secret>.', references: { secret: 'kept' } });
  const assignStatus = (events: readonly { kind: string; status?: string; data: unknown }[]) =>
    events.find((e) => e.kind === 'operation' && (e.data as { request: { kind: string } }).request.kind === 'assign')?.status;

  it('from a model expression: an interval of built-ins that fires while the inspector awaits does not get a blocked assignment through', async () => {
    const { runner } = scriptedRunner([
      () => ({ toolCalls: [scriptedToolCall('nh_evaluate', { expression: FORGET }), scriptedToolCall('nh_assign', { target_path: 'secret', expression: "'overwritten'" }), finish()] }),
    ]);
    await withTrackedIntervals(() => runner.run(assignStep, { oversight: { inspectOperation } }).catch(() => undefined));
    expect(['rejected', 'aborted']).toContain(assignStatus(runner.ledger.select({})));
    expect(runner.ledger.select({ kind: 'trace.anomaly' }).map((e) => e.status)).toContain('builtin_modified');
  });

  it('from a model expression: a listener of built-ins on a timeout signal does not get the assignment through', async () => {
    // AbortSignal.timeout fires through Node's own timer and an EventTarget listener: bound like a timer (undone at
    // once), and the check when the inspector settles would void the decision anyway.
    const once = "(AbortSignal.timeout(5).addEventListener('abort', Object.assign.bind(null, Set.prototype, { has: Array.prototype.includes.bind([]) })), 1)";
    const { runner } = scriptedRunner([
      () => ({ toolCalls: [scriptedToolCall('nh_evaluate', { expression: once }), scriptedToolCall('nh_assign', { target_path: 'secret', expression: "'overwritten'" }), finish()] }),
    ]);
    try {
      await runner.run(assignStep, { oversight: { inspectOperation } }).catch(() => undefined);
    } finally {
      Set.prototype.has = realHas;
    }
    expect(['rejected', 'aborted']).toContain(assignStatus(runner.ledger.select({})));
  });

  it('from generated code: the same interval left running through its step does not get the assignment through', async () => {
    const { runner } = scriptedRunner([() => ({ toolCalls: [scriptedToolCall('nh_assign', { target_path: 'secret', expression: "'overwritten'" }), finish()] })]);
    const source = `export async function run() {
      const id = ${FORGET.slice(1, -4)};
      try { return await assignStep(); } finally { clearInterval(id); }
    }`;
    await withTrackedIntervals(() =>
      runner.run(callingGeneratedWithReference(source, 'assignStep'), { grant: { references: { assignStep } }, oversight: { inspectOperation } }).catch(() => undefined),
    );
    expect(['rejected', 'aborted']).toContain(assignStatus(runner.ledger.select({})));
  });

  it('from a SessionFunction body: the same interval around its step does not get the assignment through', async () => {
    const model = new ScriptedModel([() => ({ toolCalls: [scriptedToolCall('nh_assign', { target_path: 'secret', expression: "'overwritten'" }), finish()] })]);
    const session = new Session({ executor: new AgentExecutor({ model }), oversight: { inspectOperation } });
    const { forgetting } = session.materialized(session.submit('async function forgetting() {}'), {
      forgetting: async () => {
        const forget = Array.prototype.includes.bind([]) as (value: unknown) => boolean;
        const id = realSetInterval(() => Object.assign(Set.prototype, { has: forget }), 1);
        try {
          return await assignStep();
        } finally {
          clearInterval(id);
          Set.prototype.has = realHas;
        }
      },
    });
    await (forgetting as () => Promise<unknown>)().catch(() => undefined);
    expect(['rejected', 'aborted']).toContain(assignStatus(session.ledger.select({})));
  });
});

describe('a confinement service that awaits confirms on the built-ins the host loaded with', () => {
  /** Every millisecond, built-ins alone make every Set lookup answer true. */
  const ALWAYS = '(setInterval(Object.assign, 1, Set.prototype, { has: Boolean }), 1)';
  const probe = { ran: [] as string[] };
  const unconfined = { language: 'javascript' as const, intent: 'define' as const, source: "probe.ran.push('unconfined'); export const x = 1;", dependencies: [{ name: 'probe', kind: 'reference' as const, type: 'object' }] };
  /** Confirms only the definitions it placed in its sandbox, after asking it (an await). */
  const sandbox = (confined: Set<string>) => ({
    identity: 'test-sandbox',
    confirm: async (request: ConfinementRequest) => {
      await new Promise((r) => setTimeout(r, 10));
      return confined.has(request.definitionId);
    },
  });

  it('from a model expression: an interval left in an earlier step does not get an unconfined dispatch confirmed', async () => {
    probe.ran = [];
    const { runner } = scriptedRunner([() => ({ toolCalls: [scriptedToolCall('nh_evaluate', { expression: ALWAYS }), finish()] })], { confinement: sandbox(new Set()) });
    const outcome = await withTrackedIntervals(() =>
      runner
        .run(
          async (ctx) => {
            await step({ program: 'execute\nGo.' });
            return ctx.dispatch(unconfined);
          },
          { grant: { references: { probe } } },
        )
        .then(() => 'ok', (e: unknown) => e),
    );
    expect(outcome).toBeInstanceOf(DispatchRejectedError);
    expect(probe.ran).toEqual([]);
  });

  it('from generated code: a confined definition that leaves the interval cannot get an unconfined one confirmed', async () => {
    probe.ran = [];
    const first = {
      language: 'javascript' as const,
      intent: 'define' as const,
      source: 'export async function run() { setInterval(Object.assign, 1, Set.prototype, { has: Boolean }); return await dispatchNext(); }',
      dependencies: [{ name: 'dispatchNext', kind: 'reference' as const, type: 'function' }],
    };
    const confined = new Set([definitionIdOf({ ...first })]);
    const runner = new Runner({ executor: new AgentExecutor({ model: new ScriptedModel([]) }), confinement: sandbox(confined) });
    const next: { dispatch?: () => Promise<unknown> } = {};
    const dispatchNext = () => next.dispatch!();
    const outcome = await withTrackedIntervals(() =>
      runner
        .run(
          async (ctx) => {
            next.dispatch = () => ctx.dispatch(unconfined);
            const { exports } = await ctx.dispatch(first);
            return (exports.run as () => Promise<unknown>)();
          },
          { grant: { references: { probe, dispatchNext } } },
        )
        .then(() => 'ok', (e: unknown) => e),
    );
    expect(outcome).toBeInstanceOf(DispatchRejectedError);
    expect(probe.ran).toEqual([]);
    // The confined definition itself ran: only the second dispatch was refused.
    expect(runner.ledger.select({ kind: 'dispatch.start' }).length).toBeGreaterThan(0);
  });
});

describe('a callback of built-ins left by interior code cannot keep built-ins changed outside its window', () => {
  /** Samples `Set.prototype.has` every 2 ms for `ms`: how often it was not the real one. */
  const polluted = async (ms: number): Promise<number> => {
    let seen = 0;
    for (const end = Date.now() + ms; Date.now() < end; ) {
      await new Promise((r) => realSetTimeout(r, 2));
      if (Set.prototype.has !== realHas) seen++;
    }
    return seen;
  };
  const realSetTimeout = globalThis.setTimeout;
  const ALWAYS = '(setInterval(Object.assign, 1, Set.prototype, { has: Boolean }), 1)';

  /** Runs a step whose first operation is `expression`; its next model request samples the built-ins for 30 ms. */
  const sampledDuringRequest = async (expression: string) => {
    let seen = -1;
    const { runner } = scriptedRunner([
      () => ({ toolCalls: [scriptedToolCall('nh_evaluate', { expression })] }),
      async () => {
        seen = await polluted(30);
        return { toolCalls: [finish()] };
      },
    ]);
    await runner.run(() => step({ program: 'execute\nGo.' }));
    return { runner, duringRequest: () => seen };
  };

  it('from a model expression: while the host requests the model the interval is undone at each tick and then stopped', async () => {
    const { runner, duringRequest } = await sampledDuringRequest(ALWAYS);
    expect(duringRequest()).toBe(0);
    const anomalies = () => runner.ledger.select({ kind: 'trace.anomaly' }).filter((e) => e.status === 'builtin_modified').length;
    const after = anomalies();
    expect(await polluted(20)).toBe(0);
    // Stopped after its first tick outside the step's operations: nothing more is recorded.
    expect(anomalies()).toBe(after);
    expect(after).toBeGreaterThan(0);
  });

  it.each([
    ['a promise reaction of built-ins', '(new Promise((r) => setTimeout(r, 10)).then(Object.assign.bind(null, Set.prototype, { has: Boolean })), 1)'],
    ['a listener of built-ins on a timeout signal', "(AbortSignal.timeout(10).addEventListener('abort', Object.assign.bind(null, Set.prototype, { has: Boolean })), 1)"],
  ])('from a model expression: %s that runs during the model request is undone at once', async (_name, later) => {
    const { runner, duringRequest } = await sampledDuringRequest(later);
    expect(duringRequest()).toBe(0);
    // Undone and recorded when it fired during the step; on a slow machine it may fire only once the execution
    // ended (even after run() returned), and is then not called at all (dropped, recorded in the late record).
    await vi.waitFor(() => {
      const recorded = [...runner.ledger.select({ kind: 'trace.anomaly' }).map((e) => e.status), ...runner.anomalies.map((a) => a.anomalyKind)];
      expect(recorded.some((k) => k === 'builtin_modified' || k === 'expression_code_outside_execution')).toBe(true);
    }, { timeout: 5_000, interval: 10 });
  });

  it('inside its operation an expression adds, fires and removes EventTarget listeners as usual', async () => {
    const use =
      "(() => { let n = 0; const f = () => { n++; }; const c = new AbortController(); c.signal.addEventListener('abort', f); c.signal.addEventListener('abort', f); " +
      "const d = new AbortController(); d.signal.addEventListener('abort', f); d.signal.removeEventListener('abort', f); c.abort(); d.abort(); return n; })()";
    const { runner } = scriptedRunner([() => ({ toolCalls: [scriptedToolCall('nh_evaluate', { expression: use }), finish()] })]);
    await runner.run(() => step({ program: 'execute\nGo.' }));
    // Added twice to one signal: once (EventTarget dedupes the same listener); removed from the other: never.
    expect((runner.ledger.select({ kind: 'operation' })[0]!.data as { valuePreview?: string }).valuePreview).toBe('1');
  });

  it.each([
    ['an interval of built-ins', 'setInterval(Object.assign, 1, Set.prototype, { has: Boolean });'],
    ['a promise reaction of built-ins', 'new Promise((r) => setTimeout(r, 10)).then(Object.assign.bind(null, Set.prototype, { has: Boolean }));'],
    ['a listener of built-ins on a timeout signal', "AbortSignal.timeout(10).addEventListener('abort', Object.assign.bind(null, Set.prototype, { has: Boolean }));"],
  ])('from generated code: %s its module leaves after the node ended is not called, and the drop is recorded', async (_name, leave) => {
    const { runner } = scriptedRunner([]);
    await runner.run(async (ctx) => {
      await ctx.dispatch({ language: 'javascript', intent: 'define', source: `${leave} export const x = 1;` });
      expect(await polluted(30)).toBe(0);
    });
    // In the run's ledger, or (fired only after the run ended, on a slow machine) in its late record.
    await polluted(30);
    // A callback of built-ins generated code left runs no more once its node ended (late-callbacks.ts).
    const dropped = [...runner.ledger.select({ kind: 'trace.anomaly' }).map((e) => e.status), ...runner.anomalies.map((a) => a.anomalyKind)].filter((k) => k === 'generated_code_outside_dispatch');
    expect(dropped.length).toBeGreaterThan(0);
    expect(Set.prototype.has).toBe(realHas);
  });
});

describe('the re-checks of decisions that await, alone (the callback is the operator code\'s own, which is not bound)', () => {
  const confined = new Set<string>();

  it('a composition that leaves a listener of built-ins behind and a branch running does not get cessation established', async () => {
    const runner = new Runner({ executor: new AgentExecutor({ model: new ScriptedModel([]) }), termination: listedTermination(10) });
    const source = `export async function background() { await new Promise((resolve) => setTimeout(resolve, 100)); }
    export function run() { void background(); return 'done'; }`;
    try {
      const outcome = await runner
        .run(async (ctx) => {
          const m = await ctx.dispatch({ language: 'javascript', intent: 'define', source });
          AbortSignal.timeout(5).addEventListener('abort', Object.assign.bind(null, Set.prototype, { has: Boolean }) as () => void);
          return (m.exports.run as () => string)();
        })
        .then((v) => v, (e: unknown) => e);
      expectNoCessation(runner, outcome);
    } finally {
      await new Promise((r) => setTimeout(r, 150));
      Set.prototype.has = realHas;
    }
  });

  it('a composition whose listener fires while the confinement service awaits does not get an unconfined dispatch confirmed', async () => {
    const probe = { ran: [] as string[] };
    const runner = new Runner({
      executor: new AgentExecutor({ model: new ScriptedModel([]) }),
      confinement: { identity: 'test-sandbox', confirm: async (request: ConfinementRequest) => (await new Promise((r) => setTimeout(r, 10)), confined.has(request.definitionId)) },
    });
    try {
      const outcome = await runner
        .run(
          async (ctx) => {
            AbortSignal.timeout(5).addEventListener('abort', Object.assign.bind(null, Set.prototype, { has: Boolean }) as () => void);
            return ctx.dispatch({ language: 'javascript', intent: 'define', source: "probe.ran.push('unconfined'); export const x = 1;", dependencies: [{ name: 'probe', kind: 'reference', type: 'object' }] });
          },
          { grant: { references: { probe } } },
        )
        .then(() => 'ok', (e: unknown) => e);
      expect(outcome).toBeInstanceOf(DispatchRejectedError);
      expect(probe.ran).toEqual([]);
    } finally {
      Set.prototype.has = realHas;
    }
  });
});

describe('a termination service that awaits establishes cessation on the built-ins the host loaded with', () => {
  it('from a model expression: a step left running whose listener makes every Set lookup say yes does not get itself declared ceased', async () => {
    const termination = listedTermination(100);
    // The listener fires 50 ms in, while the service works; the step waits on its model meanwhile.
    const leave = "(AbortSignal.timeout(50).addEventListener('abort', Object.assign.bind(null, Set.prototype, { has: Boolean })), 1)";
    const model = new ScriptedModel([
      () => ({ toolCalls: [scriptedToolCall('nh_evaluate', { expression: leave })] }),
      async () => (await new Promise((r) => setTimeout(r, 300)), { toolCalls: [finish()] }),
    ]);
    const runner = new Runner({ executor: new AgentExecutor({ model }), termination });
    try {
      const outcome = await runner
        .run(async () => {
          void step({ program: 'execute\nGo.' }).catch(() => undefined);
          await new Promise((r) => setTimeout(r, 20));
          return 'done';
        })
        .then((v) => v, (e: unknown) => e);
      expectNoCessation(runner, outcome);
    } finally {
      await new Promise((r) => setTimeout(r, 400));
      Set.prototype.has = realHas;
    }
  });

  it('from generated code: a branch left running whose listener makes every Set lookup say yes does not get itself declared ceased', async () => {
    const termination = listedTermination(10);
    const runner = new Runner({ executor: new AgentExecutor({ model: new ScriptedModel([]) }), termination });
    // A listener on a timeout signal fires through Node's own timer and an EventTarget: bound (undone at once), and
    // the check when the service answers would void the claim anyway.
    const source = `export async function background() {
      AbortSignal.timeout(5).addEventListener('abort', Object.assign.bind(null, Set.prototype, { has: Boolean }));
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    export function run() { void background(); return 'done'; }`;
    try {
      const outcome = await runner
        .run(async (ctx) => {
          const m = await ctx.dispatch({ language: 'javascript', intent: 'define', source });
          return (m.exports.run as () => string)();
        })
        .then((v) => v, (e: unknown) => e);
      expectNoCessation(runner, outcome);
    } finally {
      await new Promise((r) => setTimeout(r, 200));
      Set.prototype.has = realHas;
    }
  });
});

describe('a finalization callback of built-ins an expression registers runs under the same check', () => {
  it('the wrapped constructor is transparent: instanceof, prototype, constructor and subclasses are as before', () => {
    const registry = new FinalizationRegistry(() => {});
    expect(registry).toBeInstanceOf(FinalizationRegistry);
    expect(Object.getPrototypeOf(registry)).toBe(FinalizationRegistry.prototype);
    expect(registry.constructor).toBe(FinalizationRegistry);
    class Named extends FinalizationRegistry<string> {}
    const named = new Named(() => {});
    expect(named).toBeInstanceOf(Named);
    expect(named).toBeInstanceOf(FinalizationRegistry);
    expect(() => (FinalizationRegistry as unknown as () => unknown)()).toThrow(TypeError);
  });

  it('collected after the run (its execution committed), it is not called: dropped and recorded in the late record', () => {
    // In a child process with --expose-gc, so a collection can be asked for.
    ensureBuilt(() => {});
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
    const entry = pathToFileURL(path.join(root, 'dist', 'kernel', 'src', 'index.js')).href;
    const testing = pathToFileURL(path.join(root, 'dist', 'kernel', 'src', 'testing.js')).href;
    const script = `
      const { Runner, AgentExecutor, step } = await import(${JSON.stringify(entry)});
      const { ScriptedModel, toolCall } = await import(${JSON.stringify(testing)});
      const realHas = Set.prototype.has;
      const leave = "((globalThis.__nhRegistry = new FinalizationRegistry(Object.assign.bind(null, Set.prototype))).register({}, { has: Boolean }), 1)";
      const model = new ScriptedModel([() => ({ toolCalls: [toolCall('nh_evaluate', { expression: leave }), toolCall('nh_output', { result: { kind: 'pass' } })] })]);
      const runner = new Runner({ executor: new AgentExecutor({ model }) });
      await runner.run(() => step({ program: 'execute\\nGo.' }));
      let polluted = 0;
      for (let i = 0; i < 40; i++) {
        globalThis.gc();
        await new Promise((r) => setTimeout(r, 5));
        if (Set.prototype.has !== realHas) polluted++;
      }
      // After the run's end: recorded in the Runner's late record.
      const dropped = runner.anomalies.filter((a) => a.anomalyKind === 'expression_code_outside_execution' && a.detail.callback === 'dropped').length;
      console.log(JSON.stringify({ polluted, dropped }));
    `;
    const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' });
    const seen = JSON.parse(out.trim().split('\n').at(-1)!) as { polluted: number; dropped: number };
    expect(seen.polluted).toBe(0);
    expect(seen.dropped).toBe(1);
  });
});
