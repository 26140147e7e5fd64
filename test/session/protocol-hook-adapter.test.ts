/**
 * A SessionFunction adapter a model reached in a run (a step reference) and left as a value-protocol hook of a value
 * it hands back: `then`, `toJSON`, `toString`/`valueOf`, `Symbol.toPrimitive`, `Symbol.iterator`. Operator code that
 * later awaits, serializes, interpolates or spreads the value calls the adapter outside any run, where a call counts
 * as the operator's and would start a fresh run with the Session's grant: the model would choose when an approved
 * function runs with the Session's authority. The adapter refuses a call made as such a hook (found on its `this`
 * under a protocol key, or with the two resolving functions of a thenable's adoption) and records it
 * (`session_function_as_protocol_hook`); the operator's own calls, direct or as a method of a namespace, still run.
 */
import { describe, expect, it } from 'vitest';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

/** Each touch as operator code makes it, the refusal (or the protocol's own complaint) swallowed; then late work settles. */
async function touchEach(touches: ReadonlyArray<() => unknown>): Promise<void> {
  for (const touch of touches) {
    try {
      const out = touch();
      if (out instanceof Promise) await out.catch(() => undefined);
    } catch {
      // the protocol's own complaint about a promise where it wanted a value, or the refusal itself
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 20));
}

/**
 * A Session whose `work` runs one step where the model evaluates `expression` (with `helper`, an adapter recording
 * its calls, and `probe` as references) and finishes; resolved once that run ended.
 */
async function modelEvaluatedInRun(expression: string) {
  const probe: Record<string, unknown> = {};
  const calls: unknown[][] = [];
  const model = new ScriptedModel((_m, info) => (info.requestNumber === 1 ? { toolCalls: [toolCall('nh_evaluate', { expression })] } : { toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] }));
  const session = new nh.Session({ executor: new nh.AgentExecutor({ model }) });
  const { helper } = session.materialized(session.submit('async function helper(...a) {}'), { helper: async (...a: unknown[]) => (calls.push(a), 'ran') });
  const { work } = session.materialized(session.submit('async function work() {}'), { work: async () => nh.step({ program: 'execute\nWork.', references: { helper, probe } }) });
  await work!();
  return { session, helper: helper!, probe, calls };
}

const hookRefusals = (session: nh.Session): number => session.anomalies.filter((a) => a.anomalyKind === 'session_function_as_protocol_hook').length;

const PLANT = `(
  probe.thenable = { then: helper },
  probe.boundThenable = { then: helper.bind(null) },
  probe.json = { toJSON: helper },
  probe.str = { toString: helper, valueOf: helper },
  probe.prim = { [Symbol.toPrimitive]: helper },
  probe.iter = { [Symbol.iterator]: helper },
  probe.inherited = Object.create({ then: helper }),
  1)`;

describe('a SessionFunction adapter left as a value-protocol hook', () => {
  it('is refused when operator code touches the value after the run, and recorded; operator calls still run', async () => {
    const probe: Record<string, unknown> = {};
    let helperRuns = 0;
    const model = new ScriptedModel((_m, info) => (info.requestNumber === 1 ? { toolCalls: [toolCall('nh_evaluate', { expression: PLANT })] } : { toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] }));
    const session = new nh.Session({ executor: new nh.AgentExecutor({ model }) });
    const { helper } = session.materialized(session.submit('async function helper() {}'), { helper: async () => (helperRuns++, 'ran') });
    const { work } = session.materialized(session.submit('async function work() {}'), { work: async () => nh.step({ program: 'execute\nWork.', references: { helper, probe } }) });
    await work!();
    const runsBefore = session.ledger.select({ kind: 'run.entry' }).length;
    const tick = () => new Promise((resolve) => setTimeout(resolve, 20));
    const swallow = (f: () => unknown) => {
      try {
        const out = f();
        if (out instanceof Promise) out.catch(() => undefined);
      } catch {
        // the protocol's own complaint about a promise where it wanted a value
      }
    };
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      swallow(() => Promise.resolve(probe.thenable));
      swallow(() => Promise.resolve(probe.boundThenable));
      swallow(() => Promise.resolve(probe.inherited));
      swallow(() => JSON.stringify(probe.json));
      swallow(() => `${String(probe.str)}`);
      swallow(() => `${probe.prim as string}`);
      swallow(() => [...(probe.iter as Iterable<unknown>)]);
      await tick();
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
    expect(helperRuns).toBe(0);
    expect(session.ledger.select({ kind: 'run.entry' }).length).toBe(runsBefore);
    expect(session.anomalies.filter((a) => a.anomalyKind === 'session_function_as_protocol_hook').length).toBeGreaterThanOrEqual(7);
    // The operator's own calls: direct, and as a method of a namespace object (how a later cell reaches an earlier cell's export).
    await expect(helper!()).resolves.toBe('ran');
    const cellExports = { helper };
    await expect(cellExports.helper!()).resolves.toBe('ran');
    expect(helperRuns).toBe(2);
  });
});

/**
 * The same attack without `this` to show where the adapter was found: bound to arguments the model chose
 * (`helper.bind(null, 'chosen')`, the natural way to fix them), or left as a getter, a setter or a proxy's trap. An
 * adapter bound by a run's code works while a run calls it and is refused outside any run; a getter, setter or trap
 * is recognised by its `this` (the object holding the accessor, the proxy's handler) and the trap's arguments (a
 * `get` or `set` trap, whose receiver is the proxy).
 */
const PLANT_UNBOUND = `(
  probe.boundJson = { toJSON: helper.bind(null, 'chosen-json') },
  probe.boundStr = { toString: helper.bind(null, 'chosen-str') },
  probe.boundPrim = { [Symbol.toPrimitive]: helper.bind(null, 'chosen-prim') },
  probe.boundInspect = { [Symbol.for('nodejs.util.inspect.custom')]: helper.bind(null, 'chosen-inspect') },
  probe.getter = Object.defineProperty({}, 'summary', { get: helper, enumerable: true }),
  probe.setter = Object.defineProperty({}, 'summary', { set: helper }),
  probe.inheritedGetter = Object.create(Object.defineProperty({}, 'summary', { get: helper })),
  probe.proxyGet = new Proxy({}, { get: helper }),
  probe.proxySet = new Proxy({}, { set: helper }),
  probe.inRun = helper.bind(null, 'in-run'),
  probe.inRun().then(() => 1))`;

describe('a SessionFunction adapter left bound, or as a getter, setter or proxy trap', () => {
  it('is refused when operator code touches the value after the run, and recorded; a run may still call what it bound', async () => {
    const { inspect } = await import('node:util');
    const { session, probe, calls } = await modelEvaluatedInRun(PLANT_UNBOUND);
    // Called inside its run: joined it.
    expect(calls).toEqual([['in-run']]);
    const runsBefore = session.ledger.select({ kind: 'run.entry' }).length;
    const before = hookRefusals(session);
    const touches: Array<() => unknown> = [
      () => JSON.stringify(probe.boundJson),
      () => String(probe.boundStr),
      () => `${probe.boundPrim as string}`,
      () => inspect(probe.boundInspect),
      () => (probe.getter as { summary: unknown }).summary,
      () => ((probe.setter as { summary: unknown }).summary = 'chosen-set'),
      () => (probe.inheritedGetter as { summary: unknown }).summary,
      () => (probe.proxyGet as Record<string, unknown>)['anything'],
      () => ((probe.proxySet as Record<string, unknown>)['anything'] = 'chosen-set'),
      () => (probe.inRun as () => Promise<unknown>)(),
    ];
    await touchEach(touches);
    expect(calls).toEqual([['in-run']]);
    expect(session.ledger.select({ kind: 'run.entry' }).length).toBe(runsBefore);
    expect(hookRefusals(session) - before).toBe(touches.length);
  });

  it("the operator's own bind, getter and namespace calls still start runs", async () => {
    const calls: unknown[][] = [];
    const session = new nh.Session({ executor: new nh.AgentExecutor({ model: new ScriptedModel([]) }) });
    const { helper } = session.materialized(session.submit('async function helper(...a) {}'), { helper: async (...a: unknown[]) => (calls.push(a), 'ran') });
    const call = helper as unknown as (...a: unknown[]) => Promise<unknown>;
    const bound = call.bind(null, 'operator-bound');
    await expect(bound()).resolves.toBe('ran');
    // Method names a proxy handler would use, with a trap's shape: the operator's call, not a trap's.
    const store = { get: call, fetch: call };
    await expect(store.get({ id: 1 }, 'k', 2)).resolves.toBe('ran');
    await expect(store.fetch('k')).resolves.toBe('ran');
    expect(calls).toEqual([['operator-bound'], [{ id: 1 }, 'k', 2], ['k']]);
    expect(session.anomalies).toEqual([]);
  });
});

/**
 * The same attack through what the engine builds around a function, which no method of the adapter sees: the
 * intrinsic `Function.prototype.bind`, `Reflect.apply` or `Function.prototype.call` bound around it, a proxy with the
 * default apply. Model code never holds the adapter itself (core's MODEL_FACING): what it holds joins its run when
 * called inside one and is refused outside any, so everything built around it is too. Planted by a model expression
 * and by generated code; a SessionFunction body is approved code, which holds the adapter itself.
 */
const WRAPPERS = (tag: string) => `[
  Function.prototype.bind.call(helper, null, '${tag}-intrinsic-bind'),
  Reflect.apply.bind(null, helper, null, ['${tag}-reflect-apply']),
  Function.prototype.call.bind(helper, null, '${tag}-call-bound'),
  new Proxy(helper, {}),
  { toJSON: new Proxy(helper, {}) },
]`;

/** A Session whose model proposes nothing (the composition dispatches generated code), its `helper` recording its calls, and a probe. */
function sessionForGeneratedCode() {
  const probe: Record<string, unknown> = {};
  const calls: unknown[][] = [];
  const session = new nh.Session({ executor: new nh.AgentExecutor({ model: new ScriptedModel([]) }) });
  const { helper } = session.materialized(session.submit('async function helper(...a) {}'), { helper: async (...a: unknown[]) => (calls.push(a), 'ran') });
  return { probe, calls, session, helper: helper! };
}

/** Calls each of WRAPPERS' five the way operator code would later. */
const touchAll = (planted: unknown[]): Promise<void> =>
  touchEach([
    () => (planted[0] as () => unknown)(),
    () => (planted[1] as () => unknown)(),
    () => (planted[2] as () => unknown)(),
    () => (planted[3] as (...a: unknown[]) => unknown)('chosen-proxy'),
    () => JSON.stringify(planted[4]),
  ]);
/** Touching each planted wrapper after its run: no call reaches the function, no run starts, each is recorded. */
const expectRefusedAfterRun = (session: nh.Session, planted: unknown[], calls: unknown[][]): Promise<void> => expectTouchesRefused(session, () => touchAll(planted), calls, 5);
/** Each planted function called after its run: as expectRefusedAfterRun, one refusal each. */
const expectEachRefused = (session: nh.Session, planted: unknown, calls: unknown[][]): Promise<void> => {
  const each = planted as Array<() => unknown>;
  return expectTouchesRefused(session, () => touchEach(each.map((w) => () => w())), calls, each.length);
};
async function expectTouchesRefused(session: nh.Session, touch: () => Promise<void>, calls: unknown[][], refusals: number): Promise<void> {
  const inRun = [...calls];
  const runsBefore = session.ledger.select({ kind: 'run.entry' }).length;
  const before = hookRefusals(session);
  await touch();
  expect(calls).toEqual(inRun);
  expect(session.ledger.select({ kind: 'run.entry' }).length).toBe(runsBefore);
  expect(hookRefusals(session) - before).toBe(refusals);
}

describe('a SessionFunction adapter wrapped by built-ins model code calls', () => {
  it('planted by a model expression: each works inside its run and is refused, recorded, after it', async () => {
    const { session, helper, probe, calls } = await modelEvaluatedInRun(`(probe.planted = ${WRAPPERS('expr')}, probe.planted[0]().then(() => 1))`);
    // Called inside its run: joined it.
    expect(calls).toEqual([['expr-intrinsic-bind']]);
    await expectRefusedAfterRun(session, probe.planted as unknown[], calls);
    // What the model held is not the operator's entry: handed back, it does not start a run either.
    await expect(Promise.resolve().then(() => (probe.planted as unknown[])[3] as () => unknown).then((f) => f())).rejects.toThrow(/value-protocol hook/);
    await expect((helper as unknown as (...a: unknown[]) => Promise<unknown>)('operator')).resolves.toBe('ran');
  });

  it('planted by generated code the composition dispatched with the adapter as a reference', async () => {
    const { probe, calls, session, helper } = sessionForGeneratedCode();
    await session.runner.run(
      async (ctx) => {
        const { exports } = await ctx.dispatch({
          language: 'javascript',
          intent: 'define',
          source: `export async function plant() { probe.planted = ${WRAPPERS('gen')}; return probe.planted[1](); }`,
          dependencies: [{ name: 'helper', kind: 'reference', type: 'function' }, { name: 'probe', kind: 'reference', type: 'object' }],
        });
        await (exports.plant as () => Promise<unknown>)();
      },
      { grant: { references: { helper, probe } } },
    );
    expect(calls).toEqual([['gen-reflect-apply']]);
    await expectRefusedAfterRun(session, probe.planted as unknown[], calls);
  });
});

/**
 * The same wrappers around an adapter the model reached through the operator's plain data rather than as a reference
 * itself: a namespace object, a frozen one, a null-prototype one, an array, nested. Model code sees such data through
 * a membrane (core's model-facing.ts) that hands out the model-facing function for every read, also by descriptor or
 * by `Object.values`; the operator's own object is unchanged and its own calls still start runs.
 */
/**
 * A Session whose `work` runs one step where the model wraps (WRAPPERS) what `path` reaches among the references
 * `refs` builds around `helper` (a SessionFunction recording its calls), calls the first wrapper inside the run and
 * leaves them all in `probe`; resolved once the run ended, after checking that call joined it.
 */
async function plantedThrough<R extends Record<string, unknown>>(path: string, refs: (helper: unknown) => R) {
  const probe: Record<string, unknown> = {};
  const calls: unknown[][] = [];
  const model = new ScriptedModel((_m, info) =>
    info.requestNumber === 1
      ? { toolCalls: [toolCall('nh_evaluate', { expression: `(probe.planted = ${WRAPPERS('data').replaceAll('helper', `(${path})`)}, probe.planted[0]().then(() => 1))` })] }
      : { toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] },
  );
  const session = new nh.Session({ executor: new nh.AgentExecutor({ model }) });
  const { helper } = session.materialized(session.submit('async function helper(...a) {}'), { helper: async (...a: unknown[]) => (calls.push(a), 'ran') });
  const references = { ...refs(helper), probe };
  const { work } = session.materialized(session.submit('async function work() {}'), { work: async () => nh.step({ program: 'execute\nWork.', references }) });
  await work!();
  expect(calls).toEqual([['data-intrinsic-bind']]);
  await expectRefusedAfterRun(session, probe.planted as unknown[], calls);
  return { helper: helper!, references };
}

const REACHED = [
  ['a namespace object', 'tools.helper'],
  ['a frozen namespace', 'frozen.helper'],
  ['a null-prototype namespace', 'bare.helper'],
  ['an array', 'list[0]'],
  ['nested plain data', 'nested.deep.tools.helper'],
  ['a property descriptor', "Object.getOwnPropertyDescriptor(tools, 'helper').value"],
  ['Object.values', 'Object.values(frozen)[0]'],
  ['destructuring', '(({ helper }) => helper)(tools)'],
  // Model code's own functions and getters stored in operator data are its own when read back: called with operator
  // data, they get what model code sees of it, not the operator's objects.
  ['a function of its own, stored in operator data and called with it', '(tools.f = (t) => (probe.raw = t.helper, 0), tools.f(tools), probe.raw)'],
  ['a function of its own, stored inside data it built', '(tools.kit = { f: (t) => (probe.raw = t.helper, 0) }, tools.kit.f(tools), probe.raw)'],
  ['a function of its own, in a Map it built', "(tools.m = new Map([['f', (t) => (probe.raw = t.helper, 0)]]), tools.m.get('f')(tools), probe.raw)"],
  ['a function of its own, in a Set it built', '(tools.s = new Set([(t) => (probe.raw = t.helper, 0)]), [...tools.s][0](tools), probe.raw)'],
  ['a method of its own class, on an instance stored in operator data', '(tools.o = new (class { f(t) { probe.raw = t.helper; return 0; } })(), tools.o.f(tools), probe.raw)'],
  ['a class of its own, stored in operator data and constructed with it', '(tools.K = class { constructor(t) { probe.raw = t.helper; } }, new tools.K(tools), probe.raw)'],
  ['an async function of its own, in a Map it built', "(tools.am = new Map([['f', async (t) => (probe.raw = t.helper, 0)]]), tools.am.get('f')(tools), probe.raw)"],
  // Data the model read before the operator stored the adapter in it (a registry filled once a tool is enabled).
  ['an object the operator fills after the model read it', '((r) => (enable(), r.helper))(registry)'],
  ['an array the operator fills after the model read it', '((l) => (enable(), l[0]))(slots)'],
  ['a Map the operator fills after the model read it', "((m) => (enable(), m.get('helper')))(toolMap)"],
  ['a getter of its own, defined on operator data', "(Object.defineProperty(tools, 'peek', { get() { probe.raw = this.helper; return 0; }, configurable: true }), tools.peek, probe.raw)"],
] as const;

/** Empty containers and the operator function that stores `helper` in each of them once called. */
function lateRegistry(helper: unknown) {
  const registry: Record<string, unknown> = {};
  const slots: unknown[] = [];
  const toolMap = new Map<string, unknown>();
  const enable = (): void => {
    registry.helper = helper;
    slots.push(helper);
    toolMap.set('helper', helper);
  };
  return { registry, slots, toolMap, enable };
}

describe('a SessionFunction adapter reached through operator data', () => {
  for (const [where, path] of REACHED) {
    it(`reached through ${where}: what the model wraps works inside its run and is refused after it`, async () => {
      const { helper, references } = await plantedThrough(path, (helper) => ({
        ...lateRegistry(helper),
        tools: { helper, other: 1 },
        frozen: Object.freeze({ helper }),
        bare: Object.assign(Object.create(null) as Record<string, unknown>, { helper }),
        list: [helper],
        nested: { deep: { tools: { helper } } },
      }));
      // The operator's objects hold the adapter itself: its calls through them still start runs.
      const { tools, nested } = references;
      expect(tools.helper).toBe(helper);
      await expect((tools.helper as (a: string) => Promise<unknown>)('operator')).resolves.toBe('ran');
      await expect((nested.deep.tools.helper as (a: string) => Promise<unknown>)('operator-nested')).resolves.toBe('ran');
    });
  }
});

/**
 * Beyond plain data: an adapter kept as a property of an operator function or class, held by a class instance (a
 * public field, a private one a method returns, a getter), inherited from operator data, or thrown by an operator
 * function (itself, in plain data, on an error). Model code sees such an instance through the same membrane in its
 * methods form: a method runs on the instance itself (private fields work), with model-facing results.
 */
/** An operator class whose prototype the operator froze, holding `helper` as a static and as what its method returns. */
function sealedClass(helper: unknown) {
  class Sealed {
    static shared = helper;
    tool(): unknown {
      return helper;
    }
  }
  Object.freeze(Sealed.prototype);
  return Sealed;
}

const REACHED_BEYOND_DATA = [
  ['a property of an operator function', 'api.helper'],
  ['a static field of an operator class', 'Toolbox.shared'],
  ['a public field of a class instance', 'box.helper'],
  ['a method returning a private field', "box.get('helper')"],
  ['a getter of a class', 'box.current'],
  ["an instance's prototype", 'Object.getPrototypeOf(box).constructor.shared'],
  ["a class's prototype", 'Toolbox.prototype.constructor.shared'],
  ["a static method a subclass inherits", 'Sub.tool()'],
  ['a class instance inside plain data', 'holder.box.helper'],
  ['an object inheriting from operator data', 'child.helper'],
  ['a value an operator function throws', '(() => { try { raise(); } catch (e) { return e; } })()'],
  ['plain data an operator function throws', '(() => { try { raiseData(); } catch (e) { return e.helper; } })()'],
  ['an error an operator function throws', '(() => { try { raiseError(); } catch (e) { return e.helper; } })()'],
  // The operator froze them: a frozen prototype, class or object is seen through a membrane too.
  ["a frozen prototype's constructor", 'Object.getPrototypeOf(sealedBox).constructor.shared'],
  ["a frozen prototype's method, called on the prototype", 'Sealed.prototype.tool()'],
  ['a static field of a frozen class', 'FrozenToolbox.shared'],
  ['a getter of a frozen object', 'frozenData.current'],
  // Proxies the operator built (a reactive store, an immutable-data draft) are seen through a membrane too.
  ["a proxy of the operator's over plain data", 'store.helper'],
  ["a proxy of the operator's whose trap hands it out", 'reactive.anything'],
  ["a function proxy of the operator's", 'wrapped.helper'],
  // Subclasses of built-ins that keep their state in internal slots (an error, a date, a Map): what the subclass adds
  // (a method, a getter, a static) is the operator's, whatever the instance's own properties hold.
  ['a method of an error subclass', 'toolError.tool()'],
  ['a getter of a date subclass', 'toolDate.current'],
  ["a static of an error subclass's constructor", 'toolError.constructor.shared'],
  ["a static of an error subclass's parent class", 'Object.getPrototypeOf(leafError.constructor).shared'],
  ['a method of a Map subclass', "registry.lookup('helper')"],
  ['a method of a Set subclass', 'toolSet.first()'],
  // Typed arrays and buffers are handed out as they are for their numbers: not for a property the operator added.
  ['a property added to a typed array', 'bytes.helper'],
  ['a property added to a Buffer', 'nodeBuffer.helper'],
  ['a property added to an ArrayBuffer', 'arrayBuffer.helper'],
] as const;

describe('a SessionFunction adapter reached through operator functions, class instances and thrown values', () => {
  /** The operator's objects of REACHED_BEYOND_DATA, each holding `helper` its own way. */
  const beyondData = (helper: unknown) => {
    class Toolbox {
      static shared = helper;
      static tool(): unknown {
        return Toolbox.shared;
      }
      helper = helper;
      readonly #tools = new Map<string, unknown>([['helper', helper]]);
      get(name: string): unknown {
        return this.#tools.get(name);
      }
      get current(): unknown {
        return this.#tools.get('helper');
      }
    }
    class Sub extends Toolbox {}
    const box = new Toolbox();
    const Sealed = sealedClass(helper);
    class ToolError extends Error {
      static shared = helper;
      tool(): unknown {
        return helper;
      }
    }
    class LeafError extends ToolError {}
    class ToolDate extends Date {
      get current(): unknown {
        return helper;
      }
    }
    class Registry extends Map<string, unknown> {
      readonly #tools = new Map<string, unknown>([['helper', helper]]);
      lookup(name: string): unknown {
        return this.#tools.get(name);
      }
    }
    class ToolSet extends Set<unknown> {
      first(): unknown {
        return helper;
      }
    }
    return {
      bytes: Object.assign(new Uint8Array([1, 2, 3]), { helper }),
      nodeBuffer: Object.assign(Buffer.from('abc'), { helper }),
      arrayBuffer: Object.assign(new ArrayBuffer(8), { helper }),
      toolError: new ToolError('with a tool'),
      leafError: new LeafError('a leaf'),
      toolDate: new ToolDate(0),
      registry: new Registry([['plain', 1]]),
      toolSet: new ToolSet([1, 2]),
      store: new Proxy({ helper }, {}),
      reactive: new Proxy({}, { get: () => helper }),
      wrapped: new Proxy(Object.assign(() => 'wrapped', { helper }), {}),
      Sealed,
      sealedBox: new Sealed(),
      FrozenToolbox: Object.freeze(class {
        static shared = helper;
      }),
      frozenData: Object.freeze({
        get current(): unknown {
          return helper;
        },
      }),
      api: Object.assign(() => 'api', { helper }),
      Toolbox,
      Sub,
      box,
      holder: { box },
      child: Object.create({ helper }) as unknown,
      raise: (): never => {
        throw helper;
      },
      raiseData: (): never => {
        throw { helper };
      },
      raiseError: (): never => {
        throw Object.assign(new Error('with a tool'), { helper });
      },
    };
  };
  for (const [where, path] of REACHED_BEYOND_DATA) {
    it(`reached through ${where}: what the model wraps works inside its run and is refused after it`, async () => {
      const { helper, references } = await plantedThrough(path, beyondData);
      // The operator's own objects are unchanged: its calls through them still start runs.
      const { box } = references;
      expect(box.helper).toBe(helper);
      expect(box.get('helper')).toBe(helper);
      await expect((box.current as (a: string) => Promise<unknown>)('operator')).resolves.toBe('ran');
    });
  }
});

describe('a SessionFunction adapter reached through operator data by generated code', () => {
  it('planted by generated code from a namespace reference: works inside its run, refused and recorded after it', async () => {
    const { probe, calls, session, helper } = sessionForGeneratedCode();
    const tools = { helper, nested: [{ helper }] };
    await session.runner.run(
      async (ctx) => {
        const { exports } = await ctx.dispatch({
          language: 'javascript',
          intent: 'define',
          source: `export async function plant() { probe.planted = ${WRAPPERS('gen').replaceAll('helper', '(tools.nested[0].helper)')}; return probe.planted[1](); }`,
          dependencies: [{ name: 'tools', kind: 'reference', type: 'object' }, { name: 'probe', kind: 'reference', type: 'object' }],
        });
        await (exports.plant as () => Promise<unknown>)();
      },
      { grant: { references: { tools, probe } } },
    );
    expect(calls).toEqual([['gen-reflect-apply']]);
    await expectRefusedAfterRun(session, probe.planted as unknown[], calls);
    expect(tools.nested[0]!.helper).toBe(helper);
  });
});

describe('a SessionFunction adapter reached through a class instance or a thrown value by generated code', () => {
  it("planted by generated code from an instance, a method, a function property, a throw, a frozen prototype, a proxy, subclasses of a Map and an error, a typed array's own property, containers the operator fills after they were read, and functions of its own stored in operator data: refused and recorded after its run", async () => {
    const { probe, calls, session, helper } = sessionForGeneratedCode();
    class Toolbox {
      readonly #helper = helper;
      get(): unknown {
        return this.#helper;
      }
    }
    const box = new Toolbox();
    const sealed = new (sealedClass(helper))();
    const store = new Proxy({ helper }, {});
    const api = Object.assign(() => 'api', { helper });
    class Registry extends Map<string, unknown> {
      lookup(): unknown {
        return helper;
      }
    }
    class ToolError extends Error {
      get tool(): unknown {
        return helper;
      }
    }
    const subclassed = new Registry();
    const toolError = new ToolError('with a tool');
    const bytes = Object.assign(new Uint8Array(4), { helper });
    const { registry, toolMap, enable } = lateRegistry(helper);
    const raise = (): never => {
      throw helper;
    };
    const paths = ['box.get()', 'api.helper', '(() => { try { raise(); } catch (e) { return e; } })()', 'Object.getPrototypeOf(sealed).tool.call(sealed)', 'Object.getPrototypeOf(sealed).tool()', 'store.helper', '(api.f = (t) => (probe.raw = t.helper, 0), api.f(api), probe.raw)', 'subclassed.lookup()', 'toolError.tool', 'bytes.helper', '((r) => (enable(), r.helper))(registry)', "((m) => (enable(), m.get('helper')))(toolMap)", "(api.m = new Map([['f', (t) => (probe.raw = t.helper, 0)]]), api.m.get('f')(api), probe.raw)"];
    await session.runner.run(
      async (ctx) => {
        const { exports } = await ctx.dispatch({
          language: 'javascript',
          intent: 'define',
          source: `export async function plant() {
            probe.planted = [${paths.map((p, i) => `Function.prototype.bind.call(${p}, null, 'gen-${i}')`).join(', ')}];
            return probe.planted[0]();
          }`,
          dependencies: [
            { name: 'box', kind: 'reference', type: 'object' },
            { name: 'api', kind: 'reference', type: 'function' },
            { name: 'raise', kind: 'reference', type: 'function' },
            { name: 'sealed', kind: 'reference', type: 'object' },
            { name: 'store', kind: 'reference', type: 'object' },
            { name: 'subclassed', kind: 'reference', type: 'object' },
            { name: 'toolError', kind: 'reference', type: 'object' },
            { name: 'bytes', kind: 'reference', type: 'object' },
            { name: 'registry', kind: 'reference', type: 'object' },
            { name: 'toolMap', kind: 'reference', type: 'object' },
            { name: 'enable', kind: 'reference', type: 'function' },
            { name: 'probe', kind: 'reference', type: 'object' },
          ],
        });
        await (exports.plant as () => Promise<unknown>)();
      },
      { grant: { references: { box, api, raise, sealed, store, subclassed, toolError, bytes, registry, toolMap, enable, probe } } },
    );
    expect(calls).toEqual([['gen-0']]);
    await expectEachRefused(session, probe.planted, calls);
    expect(box.get()).toBe(helper);
  });
});

describe('a SessionFunction adapter in operator data the operator hands a generated export', () => {
  it('the export sees it model-facing, as a callback of the model is called: what it wraps is refused after the run; the operator gets its own objects back', async () => {
    const { probe, calls, session, helper } = sessionForGeneratedCode();
    const tools = { helper, rows: [{ id: 1 }] };
    const registry = new Map<string, unknown>([['helper', helper]]);
    let returned: unknown;
    await session.runner.run(
      async (ctx) => {
        const { exports } = await ctx.dispatch({
          language: 'javascript',
          intent: 'define',
          source: `export function take(t, r) {
            probe.planted = [Function.prototype.bind.call(t.helper, null, 'gen-arg'), Function.prototype.bind.call(r.get('helper'), null, 'gen-map')];
            return [t.rows[0], t];
          }`,
          dependencies: [{ name: 'probe', kind: 'reference', type: 'object' }],
        });
        returned = (exports.take as (t: unknown, r: unknown) => unknown)(tools, registry);
        await (probe.planted as Array<() => unknown>)[0]!();
      },
      { grant: { references: { probe } } },
    );
    expect(calls).toEqual([['gen-arg']]);
    expect(returned).toEqual([tools.rows[0], tools]);
    expect((returned as unknown[])[0]).toBe(tools.rows[0]);
    expect((returned as unknown[])[1]).toBe(tools);
    await expectEachRefused(session, probe.planted, calls);
  });
});

describe('an adapter model code receives from a SessionFunction, or a retained function it is handed', () => {
  it('a SessionFunction that returns another, or calls back with it, hands model code the model-facing function', async () => {
    const probe: Record<string, unknown> = {};
    const calls: unknown[][] = [];
    const expression = `(async () => {
      const got = [await getTool('helper'), getToolNow('helper')];
      await withTool((h) => { got.push(h); });
      probe.planted = got.map((h) => Function.prototype.bind.call(h, null, 'chosen'));
      return got[0]('in-run');
    })()`;
    const model = new ScriptedModel((_m, info) => (info.requestNumber === 1 ? { toolCalls: [toolCall('nh_evaluate', { expression })] } : { toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] }));
    const session = new nh.Session({ executor: new nh.AgentExecutor({ model }) });
    const { helper } = session.materialized(session.submit('async function helper(...a) {}'), { helper: async (...a: unknown[]) => (calls.push(a), 'ran') });
    const { getTool, getToolNow, withTool } = session.materialized(session.submit('async function getTool() {}\nfunction getToolNow() {}\nasync function withTool() {}'), {
      getTool: async () => helper,
      getToolNow: () => helper,
      withTool: async (f: (h: unknown) => void) => f(helper),
    });
    const { work } = session.materialized(session.submit('async function work() {}'), {
      work: async () => nh.step({ program: 'execute\nWork.', references: { getTool, getToolNow, withTool, probe } }),
    });
    await work!();
    expect(calls).toEqual([['in-run']]);
    await expectEachRefused(session, probe.planted, calls);
  });

  it('a SessionFunction that returns a container and one that fills it later: what the model kept hands out only the model-facing function', async () => {
    const probe: Record<string, unknown> = {};
    const calls: unknown[][] = [];
    const expression = `(async () => {
      const [registry, slots, toolMap] = [await getRegistry(), await getSlots(), await getToolMap()];
      await enable();
      probe.planted = [registry.helper, slots[0], toolMap.get('helper')].map((h) => Function.prototype.bind.call(h, null, 'kept'));
      return probe.planted[0]();
    })()`;
    const model = new ScriptedModel((_m, info) => (info.requestNumber === 1 ? { toolCalls: [toolCall('nh_evaluate', { expression })] } : { toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] }));
    const session = new nh.Session({ executor: new nh.AgentExecutor({ model }) });
    const { helper } = session.materialized(session.submit('async function helper(...a) {}'), { helper: async (...a: unknown[]) => (calls.push(a), 'ran') });
    const late = lateRegistry(helper);
    const bodies = session.materialized(session.submit('async function getRegistry() {}\nasync function getSlots() {}\nasync function getToolMap() {}\nasync function enable() {}'), {
      getRegistry: async () => late.registry,
      getSlots: async () => late.slots,
      getToolMap: async () => late.toolMap,
      enable: async () => late.enable(),
    });
    const { work } = session.materialized(session.submit('async function work() {}'), {
      work: async () => nh.step({ program: 'execute\nWork.', references: { ...bodies, probe } }),
    });
    await work!();
    expect(calls).toEqual([['kept']]);
    await expectEachRefused(session, probe.planted, calls);
    expect(late.registry.helper).toBe(helper);
  });

  // (Inside its run a model expression's call re-materializes nothing either: that is a dispatch, refused to model code.)
  it("a retained function's adapter: what the model wraps is refused after its run", async () => {
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model: new ScriptedModel([]) }) });
    const materialization = await runner.run((ctx) => ctx.dispatch({ language: 'typescript', intent: 'define', source: 'export function add(a: number, b: number): number { return a + b; }' }));
    const retained = nh.RetainedFunction.retain(materialization, 'add');
    const probe: Record<string, unknown> = {};
    const model = new ScriptedModel((_m, info) =>
      info.requestNumber === 1
        ? { toolCalls: [toolCall('nh_evaluate', { expression: `(probe.planted = [Function.prototype.bind.call(add, null, 40, 2), new Proxy(add, {})], 1)` })] }
        : { toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] },
    );
    const session = new nh.Session({ executor: new nh.AgentExecutor({ model }) });
    const add = session.retain(retained, 'add');
    const { work } = session.materialized(session.submit('async function work() {}'), { work: async () => nh.step({ program: 'execute\nWork.', references: { add, probe } }) });
    await work!();
    const runsBefore = session.ledger.select({ kind: 'run.entry' }).length;
    const before = hookRefusals(session);
    const planted = probe.planted as Array<(...a: unknown[]) => unknown>;
    await touchEach([() => planted[0]!(), () => planted[1]!(1, 2)]);
    expect(session.ledger.select({ kind: 'run.entry' }).length).toBe(runsBefore);
    expect(hookRefusals(session) - before).toBe(2);
    // The operator's own call still starts a run.
    await expect((add as unknown as (a: number, b: number) => Promise<number>)(1, 2)).resolves.toBe(3);
  });
});
