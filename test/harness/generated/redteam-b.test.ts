/**
 * Red-team B (workspace/redteam-b): attacks on dispatch of generated code that got past its guards. Each
 * case runs through a real Runner and checks the dispatch guarantees: generated code runs only inside a
 * live node, every node has exactly one dispatch.end, nothing follows run.end, and every refused attempt
 * leaves a trace.anomaly (after run.end: in the Runner's late record) without ending the process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentExecutor, RetainedFunction, Runner, defineCapability, executeCodeCapability, step, type LedgerEvent } from '../../../kernel/src/index.js';
import { instrumentGenerated } from '../../../kernel/src/harness/generated/index.js';
import { ScriptedModel, toolCall } from '../../../kernel/src/testing.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const runnerOf = () => new Runner({ executor: new AgentExecutor({ model: new ScriptedModel([]), maxRequestsPerStep: 10 }) });
type Dispatchable = { dispatch: (p: unknown) => Promise<{ exports: Record<string, unknown> }> };
const sinkDep = [{ name: 'sink', kind: 'reference', type: 'array' }] as const;

/** Refusals that reached the event loop: a recorded (marked) refusal is absorbed before any listener. */
const escaped: string[] = [];
const onEscape = (e: unknown) => void escaped.push(`${(e as Error)?.name}: ${(e as Error)?.message}`);
beforeAll(() => {
  process.on('unhandledRejection', onEscape);
  process.on('uncaughtException', onEscape);
});
afterAll(() => {
  process.off('unhandledRejection', onEscape);
  process.off('uncaughtException', onEscape);
});

/** Every trace.anomaly kind of the runner's runs, in the ledger or in the late record. */
function anomalyKinds(runner: Runner): string[] {
  return [...runner.ledger.events().filter((e) => e.kind === 'trace.anomaly').map((e) => String(e.status)), ...runner.anomalies.map((a) => a.anomalyKind)];
}

/** Nodes without exactly one dispatch.end, nodes started under an ended parent, and events after run.end. */
function structuralViolations(events: readonly LedgerEvent[]): string[] {
  const out: string[] = [];
  const ended = new Set<string>();
  let runEnded = false;
  for (const e of events) {
    if (runEnded) out.push(`${e.kind} after run.end`);
    if (e.kind === 'run.end') runEnded = true;
    if (e.kind === 'dispatch.start' && ended.has(e.parentId!)) out.push(`${e.subjectId} started under ended ${e.parentId}`);
    if (e.kind === 'dispatch.end') ended.add(e.subjectId);
  }
  for (const s of events.filter((e) => e.kind === 'dispatch.start')) {
    const ends = events.filter((e) => e.kind === 'dispatch.end' && e.subjectId === s.subjectId).length;
    if (ends !== 1) out.push(`${s.subjectId} has ${ends} dispatch.end`);
  }
  if (!runEnded) out.push('no run.end');
  return out;
}

describe('red-team B: resumption after yield (a1)', () => {
  const source = `
    import { setTimeout as sleep } from 'node:timers/promises';
    async function* g() {
      sink.push('start');
      yield 1;
      sink.push('after yield');
      yield sleep(20);
      sink.push('after yield sleep');
    }
    async function* d() {
      sink.push('start');
      yield* [1];
      sink.push('after delegation');
    }
    export function run() { const it = g(); it.next(); it.next(); it.next(); it.next(); return 'returned'; }
    export function delegate() { const it = d(); it.next(); it.next(); it.next(); return 'returned'; }`;

  for (const entry of ['run', 'delegate'] as const) {
    it(`${entry}: a queued next() does not resume an async generator past its yield after the node ended`, async () => {
      const sink: string[] = [];
      const runner = runnerOf();
      await runner.run(
        async (ctx) => {
          const m = await (ctx as unknown as Dispatchable).dispatch({ language: 'javascript', intent: 'define', source, dependencies: sinkDep });
          (m.exports[entry] as () => unknown)();
          await sleep(60);
          return 'done';
        },
        { grant: { references: { sink } } },
      );
      expect(sink).toEqual(['start']);
      expect(anomalyKinds(runner)).toContain('generated_code_outside_dispatch');
      expect(structuralViolations(runner.ledger.events())).toEqual([]);
      expect(escaped).toEqual([]);
    });
  }

  it('after run.end the resumption is refused into the late record', async () => {
    const sink: string[] = [];
    const runner = runnerOf();
    await runner.run(
      async (ctx) => {
        const m = await (ctx as unknown as Dispatchable).dispatch({ language: 'javascript', intent: 'define', source, dependencies: sinkDep });
        return (m.exports.run as () => unknown)();
      },
      { grant: { references: { sink } } },
    );
    await sleep(80);
    expect(sink).toEqual(['start']);
    expect(anomalyKinds(runner)).toContain('generated_code_outside_dispatch');
    expect(structuralViolations(runner.ledger.events())).toEqual([]);
    expect(escaped).toEqual([]);
  });

  it('every yield and yield* resumption in sync and async generators passes the guard', () => {
    const out = instrumentGenerated({
      language: 'javascript',
      intent: 'define',
      source: 'function* s(x) { const a = yield 1; yield* x; yield; } async function* t(x) { yield 1; yield* x; } export function f() { return [s, t]; }',
    });
    expect(out.match(/__nh_resume\(yield(?!\*)/g)).toHaveLength(3);
    expect(out.match(/__nh_resume\(yield\*/g)).toHaveLength(2);
  });
});

describe('red-team B: host reads of exports run under the interior mark (a4)', () => {
  const k = "const k = 'constr' + 'uctor';";
  const raw = "const F = (function () {})[k]; F('sink', 'sink.push(\"raw text code ran\")')(sink);";
  const cases = {
    'a getter on exports': `export let run = 1; ${k} Object.defineProperty(exports, 'run', { enumerable: true, configurable: true, get() { ${raw} return () => 1; }, set(v) {} });`,
    'a proxy prototype of exports': `export let run = 1; ${k} delete exports.run; Object.setPrototypeOf(exports, new Proxy({}, { get() { ${raw} return 1; } }));`,
    "a Symbol.toStringTag getter on an export's function": `${k} function make() { const f = function () { return 1; }; Object.defineProperty(f, Symbol.toStringTag, { get() { ${raw} return 'Function'; } }); return f; } export const run = make();`,
  };
  for (const [name, source] of Object.entries(cases)) {
    it(`${name}: the text-to-code intrinsic is refused and recorded`, async () => {
      const sink: string[] = [];
      const runner = runnerOf();
      await runner
        .run(async (ctx) => (await (ctx as unknown as Dispatchable).dispatch({ language: 'javascript', intent: 'define', source, dependencies: sinkDep })).exports.run, { grant: { references: { sink } } })
        .catch(() => undefined);
      await sleep(20);
      expect(sink).toEqual([]);
      expect(anomalyKinds(runner)).toContain('raw_dynamic_execution');
      expect(structuralViolations(runner.ledger.events())).toEqual([]);
    });
  }
});

describe('red-team B: an async result always ends its node (a9)', () => {
  const sources = {
    'Object.create(Promise.prototype)': 'export function run() { return Object.create(Promise.prototype); }',
    'a promise with an own then': 'export function run() { const p = Promise.resolve(7); p.then = Boolean; return p; }',
    // SpeciesConstructor throws for a constructor that is neither undefined nor an object.
    'a promise whose constructor makes then throw': "export function run() { const p = Promise.resolve(7); const k = 'constr' + 'uctor'; p[k] = 5; return p; }",
  };
  for (const [name, source] of Object.entries(sources)) {
    it(`${name}: exactly one dispatch.end and a run.end`, async () => {
      const runner = runnerOf();
      const handle = runner.start(async (ctx) => {
        const m = await (ctx as unknown as Dispatchable).dispatch({ language: 'javascript', intent: 'define', source });
        try {
          await (m.exports.run as () => unknown)();
        } catch {
          /* the value is not the point */
        }
        return 'done';
      });
      await handle.result.catch(() => undefined);
      expect(structuralViolations(runner.ledger.events())).toEqual([]);
    });
  }

  it('then throwing on the real promise fails the node with an anomaly', async () => {
    const runner = runnerOf();
    await runner
      .run(async (ctx) => {
        const m = await (ctx as unknown as Dispatchable).dispatch({ language: 'javascript', intent: 'define', source: sources['a promise whose constructor makes then throw'] });
        return (m.exports.run as () => unknown)();
      })
      .catch(() => undefined);
    const ends = runner.ledger.events().filter((e) => e.kind === 'dispatch.end');
    expect(ends.map((e) => e.status)).toEqual(['completed', 'failed']);
    expect(anomalyKinds(runner)).toContain('dispatch_result_unobservable');
  });

  it('from a model tool call (execute_code, define-and-invoke) the run still ends', async () => {
    const source = 'export function run() { const p = Promise.resolve(7); p.then = Boolean; return p; }';
    const model = new ScriptedModel([
      () => ({ toolCalls: [toolCall('execute_code', { language: 'javascript', intent: 'define-and-invoke', entry: 'run', source }), toolCall('nh_output', { result: { kind: 'pass' } })] }),
    ]);
    const runner = new Runner({ executor: new AgentExecutor({ model, maxRequestsPerStep: 10 }) });
    const handle = runner.start(
      async () => {
        await step({ program: 'execute\nCompute with generated code.' });
        return 'done';
      },
      { grant: { capabilities: [executeCodeCapability()] } },
    );
    await handle.result.catch(() => undefined);
    expect(structuralViolations(runner.ledger.events())).toEqual([]);
  });
});

describe('red-team B: an export wrapper left in a timer (a10)', () => {
  it('does not start a node under its ended parent; the refusal is recorded', async () => {
    const sink: string[] = [];
    const source = `
      let n = 0;
      export function tick() { sink.push('tick ' + (++n)); if (n < 4) setTimeout(tick, 5); return n; }
      export function run() { setTimeout(tick, 5); return 'returned'; }`;
    const runner = runnerOf();
    await runner.run(
      async (ctx) => {
        const m = await (ctx as unknown as Dispatchable).dispatch({ language: 'javascript', intent: 'define', source, dependencies: sinkDep });
        (m.exports.run as () => unknown)();
        await sleep(80);
        return 'done';
      },
      { grant: { references: { sink } } },
    );
    expect(sink).toEqual([]);
    expect(anomalyKinds(runner)).toContain('generated_export_outside_dispatch');
    expect(structuralViolations(runner.ledger.events())).toEqual([]);
    expect(escaped).toEqual([]);
  });
});

describe('red-team B: a capability dependency left in a timer (a2, a3)', () => {
  function tracked() {
    const calls: unknown[] = [];
    const capability = defineCapability({ name: 'lookup', description: 'test', request: z.object({ target: z.string() }), run: (args) => (calls.push(args), { done: args.target }) });
    return { capability, calls };
  }
  const source = "export function run() { setTimeout(lookup, 10, { target: 'late' }); return 'ok'; }";

  it('after its node ended (run still open): refused and recorded, no capability.call', async () => {
    const { capability, calls } = tracked();
    const runner = runnerOf();
    await runner.run(
      async (ctx) => {
        const m = await (ctx as unknown as Dispatchable).dispatch({ language: 'javascript', intent: 'define', source, dependencies: [{ name: 'lookup', kind: 'capability', type: capability.signature }] });
        (m.exports.run as () => unknown)();
        await sleep(60);
        return 'done';
      },
      { grant: { capabilities: [capability] } },
    );
    expect(calls).toEqual([]);
    expect(runner.ledger.events().filter((e) => e.kind === 'capability.call')).toEqual([]);
    expect(anomalyKinds(runner)).toContain('capability_outside_dispatch');
    expect(structuralViolations(runner.ledger.events())).toEqual([]);
    expect(escaped).toEqual([]);
  });

  it('after run.end: recorded in the late record, and the refusal does not reach the event loop', async () => {
    const { capability, calls } = tracked();
    const runner = runnerOf();
    await runner.run(
      async (ctx) => {
        const m = await (ctx as unknown as Dispatchable).dispatch({ language: 'javascript', intent: 'define', source, dependencies: [{ name: 'lookup', kind: 'capability', type: capability.signature }] });
        return (m.exports.run as () => unknown)();
      },
      { grant: { capabilities: [capability] } },
    );
    await sleep(60);
    expect(calls).toEqual([]);
    expect(runner.anomalies.map((a) => a.anomalyKind)).toContain('capability_outside_dispatch');
    expect(structuralViolations(runner.ledger.events())).toEqual([]);
    expect(escaped).toEqual([]);
  });

  it('called inside its live node it still runs', async () => {
    const { capability, calls } = tracked();
    const runner = runnerOf();
    const value = await runner.run(
      async (ctx) => {
        const m = await (ctx as unknown as Dispatchable).dispatch({
          language: 'javascript',
          intent: 'define',
          source: "export async function run() { return await lookup({ target: 'now' }); }",
          dependencies: [{ name: 'lookup', kind: 'capability', type: capability.signature }],
        });
        return await (m.exports.run as () => Promise<unknown>)();
      },
      { grant: { capabilities: [capability] } },
    );
    expect(value).toEqual({ done: 'now' });
    expect(calls).toEqual([{ target: 'now' }]);
  });
});

describe('red-team B: a retained definition is immutable (a6)', () => {
  it('the proposal is deep-frozen, so the next materialize dispatches the retained definition', async () => {
    const runner = runnerOf();
    const retained = await runner.run(
      async (ctx) =>
        RetainedFunction.retain(
          (await (ctx as unknown as Dispatchable).dispatch({
            language: 'javascript',
            intent: 'define',
            source: 'export function f() { return typeof extra; }',
            dependencies: [{ name: 'extra', kind: 'reference', type: 'string' }],
          })) as never,
          'f',
        ),
      { grant: { references: { extra: 'a' } } },
    );
    const deps = retained.proposal.dependencies as unknown as Record<string, unknown>[];
    expect(() => ((deps[0] as Record<string, unknown>).type = 'number')).toThrow(TypeError);
    expect(() => (deps as unknown as unknown[]).push({ name: 'secret', kind: 'reference', type: 'object' })).toThrow(TypeError);
    const materialization = await runnerOf().run(async () => (await retained.materialize()).materialization, { grant: { references: { extra: 'b', secret: {} } } });
    expect(materialization.originalDefinitionId).toBe(retained.definitionId);
    expect(materialization.definitionId).toBe(retained.definitionId);
    expect(Object.isFrozen(materialization.proposal.dependencies)).toBe(true);
    expect(Object.isFrozen(materialization.proposal.dependencies![0])).toBe(true);
  });

  it('retaining copies and freezes a proposal whose lists are still mutable', async () => {
    const runner = runnerOf();
    const dependencies = [{ name: 'extra', kind: 'reference', type: 'string' }];
    const retained = await runner.run(
      async (ctx) => {
        const m = (await (ctx as unknown as Dispatchable).dispatch({ language: 'javascript', intent: 'define', source: 'export function f() { return typeof extra; }', dependencies })) as unknown as { proposal: object };
        return RetainedFunction.retain({ ...m, proposal: { ...m.proposal, dependencies } } as never, 'f');
      },
      { grant: { references: { extra: 'a' } } },
    );
    dependencies[0]!.type = 'number';
    dependencies.push({ name: 'secret', kind: 'reference', type: 'object' });
    expect(retained.proposal.dependencies).toEqual([{ name: 'extra', kind: 'reference', type: 'string' }]);
    expect(Object.isFrozen(retained.proposal.dependencies)).toBe(true);
    expect(Object.isFrozen(retained.proposal.dependencies![0])).toBe(true);
  });
});

describe('red-team B: statically refused guard evasion is recorded (a5)', () => {
  const bodies = {
    'naming the reserved guard': '__nh_guard = () => {}; return 1;',
    'arguments.callee': 'return arguments.callee;',
    debugger: 'debugger; return 1;',
  };
  for (const [name, body] of Object.entries(bodies)) {
    it(`${name}: rejected with a trace.anomaly`, async () => {
      const runner = runnerOf();
      const error = await runner.run((ctx) => (ctx as unknown as Dispatchable).dispatch({ language: 'javascript', intent: 'define', source: `export function f() { ${body} }` })).catch((e: unknown) => e);
      expect((error as Error).name).toBe('GeneratedSourceRejectedError');
      expect(runner.ledger.events().find((e) => e.kind === 'dispatch.end')?.status).toBe('rejected');
      expect(anomalyKinds(runner)).toContain('generated_guard_evasion');
    });
  }
});

describe('red-team B: built-in callbacks generated code leaves behind (data changed after its node ended)', () => {
  // Each `run()` returns at once; what it left fires after its node ended, when the host has read its result.
  const cases: Array<[string, string]> = [
    ['a timer', "setTimeout(Array.prototype.push.bind(sink, 'delete_all'), 20);"],
    ['an interval', "setInterval(Array.prototype.push.bind(sink, 'delete_all'), 10);"],
    ['a listener object on a timeout signal', "AbortSignal.timeout(20).addEventListener('abort', { handleEvent: Array.prototype.push.bind(sink, 'delete_all') });"],
    ['a promise reaction on a later promise', "new Promise((resolve) => setTimeout(resolve, 20)).then(Array.prototype.push.bind(sink, 'delete_all'));"],
    ['a tick', "process.nextTick(Array.prototype.push.bind(sink, 'delete_all'));"],
    ['a stream write callback', "process.stdout.write('', Array.prototype.push.bind(sink, 'delete_all'));"],
  ];
  for (const [what, left] of cases) {
    it(`${what}: not called once the node ended, and recorded`, async () => {
      const sink: string[] = [];
      const source = `export function run() { ${left} return 'returned'; }`;
      const runner = runnerOf();
      await runner.run(
        async (ctx) => {
          const m = await (ctx as unknown as Dispatchable).dispatch({ language: 'javascript', intent: 'define', source, dependencies: sinkDep });
          expect((m.exports.run as () => unknown)()).toBe('returned');
          await sleep(80);
          return 'done';
        },
        { grant: { references: { sink } } },
      );
      expect(sink).toEqual([]);
      const dropped = [...runner.ledger.events(), ...runner.anomalies.map((a) => ({ kind: 'trace.anomaly', status: a.anomalyKind, data: a.detail }))].filter(
        (e) => e.kind === 'trace.anomaly' && e.status === 'generated_code_outside_dispatch' && (e.data as { callback?: unknown } | undefined)?.callback === 'dropped',
      );
      // The promise case drops the timer's resolve (a built-in), so its reaction never comes.
      expect(dropped.length).toBeGreaterThanOrEqual(1);
      expect(structuralViolations(runner.ledger.events())).toEqual([]);
      expect(escaped).toEqual([]);
    });
  }
});
