/**
 * Core's membrane (model-facing.ts) on its own, outside any run: what a read of operator data makes must not raise
 * anything the operator did not (a promise's rejection), and the host's own read-only collections are looked through.
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { claimReflectWriteAnswer, FrozenMap, FrozenSet, modelFacing, operatorValue, operatorValueDeep } from '../../kernel/src/core/index.js';

describe('the membrane, read by itself', () => {
  it('a rejected promise the operator handles, read through the membrane and never awaited, is no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const failed = Promise.reject(new Error('handled by the operator'));
      failed.catch(() => undefined);
      const seen = modelFacing({ failed, f: () => 1 }) as { failed: Promise<unknown> };
      expect(seen.failed).not.toBe(failed);
      expect(operatorValue(seen.failed)).toBe(failed);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
      // Awaited by model code, it still rejects as the operator's promise does.
      await expect(seen.failed).rejects.toThrow('handled by the operator');
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it("the host's FrozenSet and FrozenMap are handed out as they are unless they hold a function", () => {
    const names = new FrozenSet(['egress']);
    expect(modelFacing(names)).toBe(names);
    const f = () => 1;
    const tools = new FrozenMap([['f', f]]);
    const seen = modelFacing(tools) as FrozenMap<string, unknown>;
    expect(seen).not.toBe(tools);
    expect(seen.get('f')).not.toBe(f);
    expect(seen.size).toBe(1);
  });

  it("a subclass of a built-in is handed out as it is only while what it adds holds no function: else it is seen through the membrane", () => {
    const tool = () => 'tool';
    class Coded extends Error {
      static code = 'E_CODED';
    }
    Object.defineProperty(Coded.prototype, 'name', { value: 'Coded' });
    class Leaf extends Coded {}
    const bare = [new Coded('a'), new Leaf('b'), Buffer.from('ab'), new DataView(new ArrayBuffer(2)), new Uint8Array(2)];
    for (const value of bare) expect(modelFacing(value)).toBe(value);

    class Method extends Error {
      tool(): unknown {
        return tool;
      }
    }
    class Getter extends Date {
      get tool(): unknown {
        return tool;
      }
    }
    class Static extends Set<unknown> {
      static tool = tool;
    }
    class Held extends Map<string, unknown> {
      static defaults = { tool };
    }
    class Bytes extends Uint8Array {
      tool(): unknown {
        return tool;
      }
    }
    // A subclass layer whose constructor does not match its prototype chain (a static reached through another parent).
    const Rewired = class extends Error {};
    Object.setPrototypeOf(Rewired, Object.assign(function Other() {}, { tool }));
    const made = [new Method('m'), new Getter(0), new Static(), new Held(), new Bytes(2), new Rewired('r'), new (class extends Method {})('leaf')];
    for (const value of made) {
      const seen = modelFacing(value) as object;
      expect(seen).not.toBe(value);
      expect(operatorValue(seen)).toBe(value);
    }
    // A typed array, a buffer or a view is looked through past its elements: a property the operator added is read.
    for (const value of [Object.assign(new Uint8Array([7, 8]), { tool }), Object.assign(Buffer.from('hi'), { tool }), Object.assign(new ArrayBuffer(4), { tool })]) {
      const seen = modelFacing(value) as { tool: unknown };
      expect(seen).not.toBe(value);
      expect(seen.tool).not.toBe(tool);
    }
    const bytes = modelFacing(Object.assign(new Uint8Array([7, 8]), { tool })) as Uint8Array;
    expect([bytes[0], bytes[1], bytes.length]).toEqual([7, 8, 2]);
    // Past the scan budget its keys are not listed (a million element keys take ~0.3 s): seen through the membrane.
    const large = new Uint8Array(70_000);
    expect(modelFacing(large)).not.toBe(large);
    expect((modelFacing(large) as Uint8Array).length).toBe(70_000);
    const method = modelFacing(new Method('m')) as Method;
    expect(method.tool()).not.toBe(tool);
    expect((method.tool() as () => string)()).toBe('tool');
    expect(method.message).toBe('m');
    expect(method instanceof Error).toBe(true);
  });

  it('data the operator may still write (plain data not frozen, a Map, a Set) is seen through the membrane even while it holds no function; deep-frozen data is handed out as it is', () => {
    const rows = [{ id: 1 }, { id: 2 }];
    const seen = modelFacing(rows) as typeof rows;
    expect(seen).not.toBe(rows);
    expect(operatorValue(seen)).toBe(rows);
    expect(seen.map((r) => r.id)).toEqual([1, 2]);
    // What the operator stores later is model-facing when read through what the model kept.
    const tool = () => 'tool';
    const registry: Record<string, unknown> = {};
    const kept = modelFacing(registry) as Record<string, unknown>;
    registry.tool = tool;
    expect(kept.tool).not.toBe(tool);
    const map = new Map<string, unknown>();
    const keptMap = modelFacing(map) as Map<string, unknown>;
    map.set('tool', tool);
    expect(keptMap.get('tool')).not.toBe(tool);
    class Tools extends Map<string, unknown> {}
    const sub = new Tools();
    expect(modelFacing(sub)).not.toBe(sub);
    // Frozen all the way down: nothing can be stored in it later, so it keeps its identity.
    const snapshot = Object.freeze({ rows: Object.freeze([Object.freeze({ id: 1 })]) });
    expect(modelFacing(snapshot)).toBe(snapshot);
    const halfFrozen = Object.freeze({ inner: { id: 1 } });
    expect(modelFacing(halfFrozen)).not.toBe(halfFrozen);
  });

  it('plain data the model built around operator objects is copied with them unwrapped; data without any keeps its identity', () => {
    class Item {
      method(): number {
        return 1;
      }
    }
    const item = new Item();
    const seen = modelFacing(item);
    expect(seen).not.toBe(item);
    const built = { picked: [seen, 2], note: 'n' };
    const handed = operatorValueDeep(built);
    expect(handed).not.toBe(built);
    expect(handed.picked[0]).toBe(item);
    expect(built.picked[0]).toBe(seen);
    const clean = { rows: [{ id: 1 }] };
    expect(operatorValueDeep(clean)).toBe(clean);
  });

  it("inspected (console.log), a membrane shows the operator's object, not its empty shadow", () => {
    class Box {
      readonly size = 2;
      open(): number {
        return 1;
      }
    }
    const seen = modelFacing({ box: new Box(), list: [1, 2], f: function named() {} }) as { box: Box; list: number[] };
    expect(inspect(seen)).toBe("{ box: Box { size: 2 }, list: [ 1, 2 ], f: [Function: named] }");
    expect(inspect(seen.box)).toBe('Box { size: 2 }');
  });

  it("making an array's length read-only through the membrane is refused, and the operator's array stays writable", () => {
    const list: unknown[] = [() => 1, 2];
    const seen = modelFacing(list) as unknown[];
    expect(() => Object.defineProperty(seen, 'length', { writable: false })).toThrow(TypeError);
    expect(Object.getOwnPropertyDescriptor(list, 'length')!.writable).toBe(true);
    seen.push(3);
    expect(list).toHaveLength(3);
  });

  it("a frozen operator object is seen frozen: freezing it again is accepted, each read gives the same model-facing value, and a write is the engine's own refusal", () => {
    const f = function named(): number {
      return 1;
    };
    const frozen = Object.freeze({ f, n: 1, nested: { g: f } });
    const seen = modelFacing(frozen) as typeof frozen;
    expect(seen).not.toBe(frozen);
    expect(operatorValue(seen)).toBe(frozen);
    expect(Object.isFrozen(seen)).toBe(true);
    expect(Object.freeze(seen)).toBe(seen);
    expect(seen.f).not.toBe(f);
    expect(seen.f).toBe(seen.f);
    expect(seen.f()).toBe(1);
    expect(Object.getOwnPropertyDescriptor(seen, 'f')!.value).toBe(seen.f);
    expect(seen.nested.g).not.toBe(f);
    expect(Object.keys(seen)).toEqual(['f', 'n', 'nested']);
    expect(Object.getPrototypeOf(seen)).toBe(Object.prototype);
    const writable = seen as unknown as Record<string, unknown>;
    expect(() => (writable['n'] = 2)).toThrow(/^Cannot assign to read only property 'n'/);
    expect(() => Object.defineProperty(seen, 'm', { value: 1 })).toThrow(/^Cannot define property m, object is not extensible/);
    expect(() => delete writable['n']).toThrow(/^Cannot delete property 'n'/);
    expect(() => Object.setPrototypeOf(seen, null)).toThrow(/is not extensible$/);
    // A Reflect write as the harness's recording Reflect methods make it is answered false, as on the object itself;
    // the means is claimed once (the harness claims it as it loads; only the core is loaded here).
    const answeringReflectWrite = claimReflectWriteAnswer()!;
    expect(claimReflectWriteAnswer()).toBeUndefined();
    expect(answeringReflectWrite(Reflect.set, Reflect, [seen, 'n', 2])).toBe(false);
    expect(answeringReflectWrite(Reflect.deleteProperty, Reflect, [seen, 'n'])).toBe(false);
    expect(() => Reflect.set(seen, 'n', 2)).toThrow(/^Cannot assign to read only property 'n'/);
    expect(frozen.n).toBe(1);
    expect(inspect(seen)).toBe('{ f: [Function: named], n: 1, nested: { g: [Function: named] } }');
  });

  it('a frozen array is seen frozen: its items model-facing, its length read-only, and an added item refused by the engine', () => {
    const f = (): number => 1;
    const list = Object.freeze([f, 2]);
    const seen = modelFacing(list) as typeof list;
    expect(Array.isArray(seen)).toBe(true);
    expect(Object.isFrozen(seen)).toBe(true);
    expect(seen).toHaveLength(2);
    expect(seen[0]).not.toBe(f);
    expect(seen.map((x) => (typeof x === 'function' ? x() : x))).toEqual([1, 2]);
    expect(Object.getOwnPropertyDescriptor(seen, 'length')).toEqual({ value: 2, writable: false, enumerable: false, configurable: false });
    expect(() => (seen as unknown as unknown[]).push(3)).toThrow(/^Cannot add property 2, object is not extensible/);
    expect(list).toHaveLength(2);
  });

  it("a class's frozen prototype is model-facing: its constructor, its statics and its methods' results are not the operator's, and instanceof holds", () => {
    const f = (): number => 1;
    class Tools {
      static shared = f;
      tool(): unknown {
        return f;
      }
    }
    Object.freeze(Tools.prototype);
    const seen = modelFacing(new Tools()) as Tools;
    const proto = Object.getPrototypeOf(seen) as Tools & { constructor: typeof Tools };
    expect(proto).not.toBe(Tools.prototype);
    expect(operatorValue(proto)).toBe(Tools.prototype);
    expect(Object.isFrozen(proto)).toBe(true);
    expect(proto.constructor).not.toBe(Tools);
    expect(proto.constructor.shared).not.toBe(f);
    expect(proto.tool()).not.toBe(f);
    expect(seen).toBeInstanceOf(proto.constructor);
    expect(proto.constructor.prototype).toBe(proto);
  });
});
