/**
 * Operator data holding a SessionFunction, as model code sees it (core's model-facing.ts): through a membrane that
 * reads and writes the operator's own object and hands out the model-facing function in place of the adapter. What
 * a model does with the data otherwise (read, mutate, serialize, assign it to a write binding, return it for the
 * ledger) works as on the object itself; data holding no SessionFunction is handed out as it is. And the attacks on
 * the membrane: the public unwrapping refused to model code, pinning the operator's object refused.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

const finish = () => toolCall('nh_output', { result: { kind: 'pass' } });

/** Runs one step of a SessionFunction where the model makes `calls` in its first response, then finishes. */
async function inSession(calls: ReturnType<typeof toolCall>[], references: (helper: unknown) => Record<string, unknown>, writes?: Record<string, z.ZodType>) {
  const model = new ScriptedModel((_m, info) => (info.requestNumber === 1 ? { toolCalls: [...calls, finish()] } : { toolCalls: [finish()] }));
  const session = new nh.Session({ executor: new nh.AgentExecutor({ model }) });
  const helperCalls: unknown[][] = [];
  const { helper } = session.materialized(session.submit('async function helper(...a) {}'), { helper: async (...a: unknown[]) => (helperCalls.push(a), 'ran') });
  const refs = references(helper);
  let bindings: Readonly<Record<string, unknown>> = {};
  const { work } = session.materialized(session.submit('async function work() {}'), {
    work: async () => {
      const program = `execute\nWork.${Object.keys(writes ?? {}).map((name) => ` Set <:${name}>.`).join('')}`;
      ({ bindings } = await nh.step({ program, references: refs, ...(writes ? { writes } : {}) }));
    },
  });
  await work!();
  return { session, helper, refs, helperCalls, bindings: () => bindings };
}

/**
 * Operator code calling each function the model wrapped around what it got, after the run: none reaches the
 * SessionFunction (its calls stay those made in the run), none starts a run, each is refused as a hook.
 */
async function expectEachRefused(session: nh.Session, wrapped: unknown, count: number, helperCalls: unknown[][]): Promise<void> {
  const fns = wrapped as Array<() => Promise<unknown>>;
  expect(fns).toHaveLength(count);
  const inRun = [...helperCalls];
  const runs = session.ledger.select({ kind: 'run.entry' }).length;
  const hooks = session.anomalies.filter((a) => a.anomalyKind === 'session_function_as_protocol_hook').length;
  for (const w of fns) await w().catch(() => undefined);
  expect(helperCalls).toEqual(inRun);
  expect(session.ledger.select({ kind: 'run.entry' }).length).toBe(runs);
  expect(session.anomalies.filter((a) => a.anomalyKind === 'session_function_as_protocol_hook').length - hooks).toBe(count);
}

describe('operator data holding a SessionFunction, seen by model code', () => {
  it('reads, writes and serializes as the operator object does, and the operator sees the changes', async () => {
    const probe: Record<string, unknown> = {};
    const expression = `(
      tools.count += 1, tools.items.push('from-model'), tools.nested.flag = true, delete tools.gone,
      probe.keys = Object.keys(tools).join(','), probe.json = JSON.stringify(tools), probe.isArray = Array.isArray(tools.items),
      probe.spread = { ...tools }.count, probe.has = 'helper' in tools, probe.joined = tools.items.map((x) => x + '!').join(' '),
      probe.called = tools.helper('in-run'), 1)`;
    const { refs, helperCalls } = await inSession([toolCall('nh_evaluate', { expression })], (helper) => ({
      tools: { helper, count: 1, items: ['a'], nested: { flag: false }, gone: 1 },
      probe,
    }));
    const tools = refs['tools'] as Record<string, unknown>;
    expect(tools['count']).toBe(2);
    expect(tools['items']).toEqual(['a', 'from-model']);
    expect(tools['nested']).toEqual({ flag: true });
    expect('gone' in tools).toBe(false);
    expect(probe).toMatchObject({ keys: 'helper,count,items,nested', json: '{"count":2,"items":["a","from-model"],"nested":{"flag":true}}', isArray: true, spread: 2, has: true, joined: 'a! from-model!' });
    expect(helperCalls).toEqual([['in-run']]);
  });

  it('assigned to a write binding, the operator receives its own object; the ledger records its data', async () => {
    const object = z.custom<object>((v) => typeof v === 'object' && v !== null);
    const { refs, bindings, session } = await inSession(
      [
        toolCall('nh_assign', { target_path: 'picked', expression: 'tools' }),
        toolCall('nh_assign', { target_path: 'listed', expression: '[tools]' }),
        toolCall('nh_assign', { target_path: 'format', expression: 'tools.format' }),
        toolCall('nh_evaluate', { expression: '(tools)' }),
      ],
      (helper) => ({ tools: { helper, items: [1, 2], format: (n: number) => `#${n}` } }),
      { picked: object, listed: object, format: z.custom<(n: number) => string>((v) => typeof v === 'function') },
    );
    expect(bindings()['picked']).toBe(refs['tools']);
    expect(bindings()['format']).toBe((refs['tools'] as { format: unknown }).format);
    const evaluated = session.ledger.select({ kind: 'operation' }).map((e) => JSON.stringify(e.data)).find((d) => d.includes('(tools)'));
    expect(evaluated).toContain('items');
    // A value the model built around it (`[tools]`) is recorded with the operator's data in it, not as a proxy the
    // host would not walk.
    const committed = JSON.stringify(session.ledger.select({ kind: 'execution.end' })[0]!.data);
    expect(committed).toContain('listed');
    expect(committed).not.toContain('unrepresentable');
    expect(committed.match(/items/g)).toHaveLength(4); // proposed and committed, each picked and listed
  });

  it('data holding no SessionFunction is handed out as it is', async () => {
    const probe: Record<string, unknown> = {};
    const data = { rows: [{ id: 1 }, { id: 2 }], meta: { n: 2 } };
    await inSession([toolCall('nh_evaluate', { expression: '(probe.data = data, probe.row = data.rows[1], 1)' })], () => ({ data, probe }));
    expect(probe['data']).toBe(data);
    expect(probe['row']).toBe(data.rows[1]);
  });

  it('what an operator function returns (a function too), or hands a callback, is seen the same way', async () => {
    const probe: Record<string, unknown> = {};
    const expression = `(async () => {
      const got = [lookup('helper'), api.lookup('helper'), await api.lookupLater('helper'), Object.getOwnPropertyDescriptor(api, 'current').get(), api.current, api.lookupFor()('helper')];
      api.each((h) => got.push(h));
      probe.wrapped = got.map((h) => Function.prototype.bind.call(h, null, 'chosen'));
      probe.inRun = await got[0]('in-run');
      return 1;
    })()`;
    const { session, helperCalls } = await inSession([toolCall('nh_evaluate', { expression })], (helper) => {
      const registry: Record<string, unknown> = { helper };
      const lookup = (name: string) => registry[name];
      return {
        lookup,
        api: { lookup, lookupLater: async (name: string) => registry[name], get current() { return helper; }, each: (f: (h: unknown) => void) => f(helper), lookupFor: () => lookup },
        probe,
      };
    });
    expect(helperCalls).toEqual([['in-run']]);
    await expectEachRefused(session, probe['wrapped'], 7, helperCalls);
  });

  it('a Map, Set, WeakMap or generator holding it hands out the model-facing function, and works as itself', async () => {
    const probe: Record<string, unknown> = {};
    const expression = `(async () => {
      const got = [registry.get('helper'), [...registry.values()][0], [...registry][0][1], [...bag][0], weak.get(key), nested.inner.get('helper'), gen.next().value];
      registry.forEach((h) => got.push(h));
      for (const h of bag) got.push(h);
      probe.wrapped = got.map((h) => Function.prototype.bind.call(h, null, 'chosen'));
      probe.size = registry.size; probe.isMap = registry instanceof Map; probe.tag = Object.prototype.toString.call(registry);
      registry.set('added', 1); probe.hasKey = weak.has(key);
      probe.inRun = await got[0]('in-run');
      return 1;
    })()`;
    const key = { id: 'k' };
    let registry: Map<string, unknown> | undefined;
    const { session, helperCalls } = await inSession([toolCall('nh_evaluate', { expression })], (helper) => {
      registry = new Map<string, unknown>([['helper', helper]]);
      return {
        registry,
        bag: new Set([helper]),
        weak: new WeakMap([[key, helper]]),
        key,
        nested: { inner: new Map([['helper', helper]]) },
        gen: (function* () { yield helper; })(),
        probe,
      };
    });
    expect(helperCalls).toEqual([['in-run']]);
    expect(probe).toMatchObject({ size: 1, isMap: true, tag: '[object Map]', hasKey: true });
    expect(registry!.get('added')).toBe(1);
    await expectEachRefused(session, probe['wrapped'], 9, helperCalls);
  });

  it("operator functions receive the operator's own objects and behave as themselves", async () => {
    const probe: Record<string, unknown> = {};
    class Counter {
      #n = 0;
      add(k: number): number {
        return (this.#n += k);
      }
    }
    const expression = `(probe.same = same(tools), probe.sameInside = tools.same(tools.items), probe.counted = new tools.Counter().add(2),
      probe.isCounter = new tools.Counter() instanceof tools.Counter, probe.name = tools.same.name, probe.length = tools.same.length,
      probe.identity = tools.same === tools.same, probe.handedBack = tools.same, 1)`;
    const tools = { helper: undefined as unknown, items: [1], Counter, same: (x: unknown) => x === tools || x === tools.items };
    const same = (x: unknown) => x === tools;
    await inSession([toolCall('nh_evaluate', { expression })], (helper) => ((tools.helper = helper), { tools, same, probe }));
    expect(probe).toMatchObject({ same: true, sameInside: true, counted: 2, isCounter: true, name: 'same', length: 1, identity: true });
    // Handed back into operator data, it is what model code saw: the operator's function with model-facing results.
    expect(typeof probe['handedBack']).toBe('function');
    expect((probe['handedBack'] as (x: unknown) => boolean)(tools)).toBe(true);
  });

  it("an instance of the operator's class is seen through the membrane and behaves as itself", async () => {
    const probe: Record<string, unknown> = {};
    class Item {
      #weight: number;
      constructor(readonly name: string, weight: number) {
        this.#weight = weight;
      }
      get weight(): number {
        return this.#weight;
      }
      set weight(w: number) {
        this.#weight = w;
      }
      heavier(other: Item): boolean {
        return this.#weight > other.#weight;
      }
      toJSON(): unknown {
        return { name: this.name, weight: this.#weight };
      }
    }
    const items = [new Item('a', 1), new Item('b', 5), new Item('c', 3)];
    const when = new Date(0);
    const bytes = new Uint8Array([1, 2]);
    const boom = () => {
      throw new RangeError('too heavy');
    };
    const expression = `(async () => {
      items[2].weight = 4;
      probe.weights = items.map((i) => i.weight).join(',');
      probe.heavier = items[1].heavier(items[0]);
      probe.isItem = items[0] instanceof Item && items[0].constructor === Item && Object.getPrototypeOf(items[0]) === Item.prototype
        && items[0] instanceof Object && Item.name === 'Item' && Item.length === 2 && new Item('d', 2).weight === 2;
      probe.keys = Object.keys(items[0]).join(',');
      probe.json = JSON.stringify(items[0]);
      probe.sameRead = items[0] === items[0];
      probe.later = (await later()).name;
      try { boom(); } catch (e) { probe.caught = e instanceof RangeError && e.message; }
      probe.when = when; probe.bytes = bytes;
      return 1;
    })()`;
    const { bindings } = await inSession(
      [toolCall('nh_evaluate', { expression }), toolCall('nh_assign', { target_path: 'picked', expression: 'items.filter((i) => i.weight > 2)' }), toolCall('nh_assign', { target_path: 'first', expression: 'items[0]' })],
      () => ({ items, Item, later: async () => items[1], boom, when, bytes, probe }),
      { picked: z.array(z.instanceof(Item)), first: z.instanceof(Item) },
    );
    expect(probe).toMatchObject({ weights: '1,5,4', heavier: true, isItem: true, keys: 'name', json: '{"name":"a","weight":1}', sameRead: true, later: 'b', caught: 'too heavy' });
    // Built-ins that keep their state in internal slots, and hold nothing, are handed out as they are.
    expect(probe['when']).toBe(when);
    expect(probe['bytes']).toBe(bytes);
    // What the model assigns is the operator's own items, also inside the array it built.
    expect(bindings()['first']).toBe(items[0]);
    expect(bindings()['picked']).toEqual([items[1], items[2]]);
    expect((bindings()['picked'] as Item[])[0]).toBe(items[1]);
    expect(items[2]!.weight).toBe(4);
  });

  it("a promise in the operator's data settles with the model-facing function", async () => {
    const probe: Record<string, unknown> = {};
    const expression = `(async () => {
      const got = [await store.pending, await Promise.all([store.pending]).then((l) => l[0])];
      probe.wrapped = got.map((h) => Function.prototype.bind.call(h, null, 'chosen'));
      probe.inRun = await got[0]('in-run');
      return 1;
    })()`;
    const { session, helperCalls } = await inSession([toolCall('nh_evaluate', { expression })], (helper) => ({ store: { pending: Promise.resolve(helper) }, probe }));
    expect(helperCalls).toEqual([['in-run']]);
    await expectEachRefused(session, probe['wrapped'], 2, helperCalls);
  });

  it("what generated code returns holds the operator's own items for operator code, and only model-facing ones for generated code", async () => {
    const probe: Record<string, unknown> = {};
    const session = new nh.Session({ executor: new nh.AgentExecutor({ model: new ScriptedModel([]) }) });
    const helperCalls: unknown[][] = [];
    const { helper } = session.materialized(session.submit('async function helper(...a) {}'), { helper: async (...a: unknown[]) => (helperCalls.push(a), 'ran') });
    class Item {
      readonly #tool = helper;
      constructor(readonly weight: number) {}
      tool(): unknown {
        return this.#tool;
      }
    }
    const items = [new Item(1), new Item(5), new Item(3)];
    let picked: unknown;
    await session.runner.run(
      async (ctx) => {
        const { exports } = await ctx.dispatch({
          language: 'javascript',
          intent: 'define',
          source: `export function pick() { return { heavy: items.filter((i) => i.weight > 2) }; }
            export function first() { return [items[0]]; }
            export function plant() { probe.planted = first().map((i) => Function.prototype.bind.call(i.tool(), null, 'chosen')); return 1; }`,
          dependencies: [{ name: 'items', kind: 'reference', type: 'array' }, { name: 'probe', kind: 'reference', type: 'object' }],
        });
        picked = (exports.pick as () => unknown)();
        (exports.plant as () => unknown)();
      },
      { grant: { references: { items, probe } } },
    );
    expect((picked as { heavy: Item[] }).heavy).toHaveLength(2);
    expect((picked as { heavy: Item[] }).heavy[0]).toBe(items[1]);
    await expectEachRefused(session, probe['planted'], 1, helperCalls);
  });

  it('data too large to look through is seen through the membrane, each part decided as it is read', async () => {
    const probe: Record<string, unknown> = {};
    const rows = Array.from({ length: 70_000 }, (_, id) => ({ id }));
    const expression = `(probe.row = rows[10], probe.count = rows.filter((r) => r.id % 2 === 0).length,
      probe.wrapped = [Function.prototype.bind.call(rows[69999].helper, null, 'chosen')], 1)`;
    const { session, helperCalls } = await inSession([toolCall('nh_evaluate', { expression })], (helper) => {
      (rows[69999] as Record<string, unknown>)['helper'] = helper;
      return { rows, probe };
    });
    expect(probe['row']).toBe(rows[10]);
    expect(probe['count']).toBe(35_000);
    await expectEachRefused(session, probe['wrapped'], 1, helperCalls);
  });

  it("model code may not pin the operator's object, nor unwrap it through the public module; a prototype change reaches the object", async () => {
    const probe: Record<string, unknown> = {};
    const expression = `(
      probe.freeze = (() => { try { Object.freeze(tools); return 'frozen'; } catch (e) { return e.name; } })(),
      probe.define = (() => { try { Object.defineProperty(tools, 'pinned', { value: 1, configurable: false }); return 'defined'; } catch (e) { return e.name; } })(),
      probe.proto = (() => { try { Object.setPrototypeOf(tools, null); return 'set'; } catch (e) { return e.name; } })(),
      probe.unwrapped = (() => { try { return nhm.operatorValue(tools).helper; } catch (e) { return e.name; } })(),
      probe.unwrappedByCall = (() => { try { return nhm.modelFacingFunction((t) => t.helper)(tools); } catch (e) { return e.name; } })(),
      1)`;
    const { refs, session, helper } = await inSession([toolCall('nh_evaluate', { expression })], (helper) => ({ tools: { helper }, probe, nhm: nh }));
    const tools = refs['tools'] as Record<string, unknown>;
    expect(probe).toMatchObject({ freeze: 'TypeError', define: 'TypeError', proto: 'set', unwrapped: 'HostIntegrityError', unwrappedByCall: 'HostIntegrityError' });
    expect(Object.isFrozen(tools)).toBe(false);
    expect('pinned' in tools).toBe(false);
    // A prototype change is the operator's object's (as without the membrane), so the host's checks of its own objects see it.
    expect(Object.getPrototypeOf(tools)).toBe(null);
    expect(tools['helper']).toBe(helper);
    const refusals = session.ledger.select({ kind: 'trace.anomaly' }).map((e) => JSON.stringify(e.data));
    expect(refusals.filter((d) => d.includes('operatorValue'))).toHaveLength(1);
    const pins = session.ledger.select({ kind: 'trace.anomaly' }).filter((e) => e.status === 'operator_data_pin');
    expect(pins.map((e) => e.data)).toMatchObject([{ action: 'prevent-extensions' }, { action: 'define-non-configurable', key: 'pinned' }]);
    expect(refusals.filter((d) => d.includes('modelFacingFunction'))).toHaveLength(1);
    // The operator's own unwrapping (a no-op on its own object) is not refused.
    expect(nh.operatorValue(tools)).toBe(tools);
  });

  it('generated code may not unwrap it through the public module either', async () => {
    const session = new nh.Session({ executor: new nh.AgentExecutor({ model: new ScriptedModel([]) }) });
    const { helper } = session.materialized(session.submit('async function helper() {}'), { helper: async () => 'ran' });
    const tools = { helper };
    const outcome = await session.runner.run(
      async (ctx) => {
        const { exports } = await ctx.dispatch({
          language: 'javascript',
          intent: 'define',
          source: `export function unwrap() {
            const tries = [() => nhm.operatorValue(tools).helper, () => nhm.modelFacingFunction((t) => t.helper)(tools)];
            return tries.map((t) => { try { return t() === undefined ? 'undefined' : 'got it'; } catch (e) { return e.name; } });
          }`,
          dependencies: [{ name: 'nhm', kind: 'reference', type: 'object' }, { name: 'tools', kind: 'reference', type: 'object' }],
        });
        return (exports.unwrap as () => string[])();
      },
      { grant: { references: { nhm: nh, tools } } },
    );
    expect(outcome).toEqual(['HostIntegrityError', 'HostIntegrityError']);
    const refusals = session.ledger.select({ kind: 'trace.anomaly' }).map((e) => JSON.stringify(e.data));
    expect(refusals.filter((d) => d.includes('operatorValue') || d.includes('modelFacingFunction'))).toHaveLength(2);
  });

  it("generated code may not pin the operator's object or class either: refused and recorded", async () => {
    const session = new nh.Session({ executor: new nh.AgentExecutor({ model: new ScriptedModel([]) }) });
    const { helper } = session.materialized(session.submit('async function helper() {}'), { helper: async () => 'ran' });
    class Box {
      open(): number {
        return 1;
      }
    }
    const tools = { helper, box: new Box(), Box };
    const outcome = await session.runner.run(
      async (ctx) => {
        const { exports } = await ctx.dispatch({
          language: 'javascript',
          intent: 'define',
          source: `export function pin() {
            const tries = [() => Object.freeze(tools), () => Object.seal(tools.box), () => Object.defineProperty(tools.Box, 'pinned', { value: 1 })];
            return tries.map((t) => { try { t(); return 'pinned'; } catch (e) { return e.name; } });
          }`,
          dependencies: [{ name: 'tools', kind: 'reference', type: 'object' }],
        });
        return (exports.pin as () => string[])();
      },
      { grant: { references: { tools } } },
    );
    expect(outcome).toEqual(['TypeError', 'TypeError', 'TypeError']);
    expect(Object.isFrozen(tools) || Object.isSealed(tools.box) || 'pinned' in Box).toBe(false);
    const pins = session.ledger.select({ kind: 'trace.anomaly' }).filter((e) => e.status === 'operator_data_pin');
    expect(pins.map((e) => e.data)).toMatchObject([{ action: 'prevent-extensions' }, { action: 'prevent-extensions' }, { action: 'define-non-configurable', key: 'pinned' }]);
  });
});
