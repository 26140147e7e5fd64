/**
 * Core's membrane (model-facing.ts) on its own, outside any run: what a read of operator data makes must not raise
 * anything the operator did not (a promise's rejection), and the host's own read-only collections are looked through.
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { FrozenMap, FrozenSet, modelFacing, operatorValue, operatorValueDeep } from '../../kernel/src/core/index.js';

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
});
