/**
 * The host's read-only collections refuse every write the way the engine refuses a write to a frozen value: a
 * native TypeError whose message the host recognises (so a model's attempt is told "that value is frozen" and
 * recorded as `frozen_value_write`), built without running anything the caller handed in.
 */
import { describe, expect, it } from 'vitest';
import { FrozenMap, FrozenSet, frozenWriteMessage, isFrozenWriteMessage } from '../../kernel/src/core/index.js';

/** The error `write` throws (it must throw). */
function refusal(write: () => unknown): unknown {
  try {
    write();
  } catch (error) {
    return error;
  }
  throw new Error('the write did not throw');
}

describe('FrozenSet and FrozenMap refuse writes as frozen values do', () => {
  const set = new FrozenSet(['read', 'egress']);
  const map = new FrozenMap<string, number>([['limit', 1]]);

  it.each([
    ['FrozenSet add', () => set.add('shell'), 'Cannot add property shell, object is not extensible'],
    ['FrozenSet delete', () => set.delete('egress'), "Cannot delete property 'egress' of #<FrozenSet>"],
    ['FrozenSet clear', () => set.clear(), "Cannot delete property '*' of #<FrozenSet>"],
    ['FrozenMap set', () => map.set('limit', 1e9), "Cannot assign to read only property 'limit' of object '#<FrozenMap>'"],
    ['FrozenMap delete', () => map.delete('limit'), "Cannot delete property 'limit' of #<FrozenMap>"],
    ['FrozenMap clear', () => map.clear(), "Cannot delete property '*' of #<FrozenMap>"],
    // The built-in mutators refuse them as receivers (they are no Set or Map): a refused write too.
    ['Set.prototype.add called on one', () => Set.prototype.add.call(set as never, 'shell'), 'Method Set.prototype.add called on incompatible receiver #<FrozenSet>'],
    ['Set.prototype.clear called on one', () => Reflect.apply(Set.prototype.clear, set, []), 'Method Set.prototype.clear called on incompatible receiver #<FrozenSet>'],
    ['Map.prototype.set called on one', () => Map.prototype.set.call(map as never, 'limit', 2), 'Method Map.prototype.set called on incompatible receiver #<FrozenMap>'],
    ['Map.prototype.delete called on a FrozenSet', () => Map.prototype.delete.call(set as never, 'read'), 'Method Map.prototype.delete called on incompatible receiver #<FrozenSet>'],
  ])('%s: a native TypeError the host reads as a refused write; nothing changes', (_what, write, message) => {
    const error = refusal(write);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toContain(message);
    expect(frozenWriteMessage(error)).toBe((error as Error).message);
    expect([...set]).toEqual(['read', 'egress']);
    expect([...map]).toEqual([['limit', 1]]);
  });

  it('other incompatible receivers are not writes to a frozen value', () => {
    expect(isFrozenWriteMessage('Method Set.prototype.add called on incompatible receiver #<Object>')).toBe(false);
    expect(isFrozenWriteMessage('Method Map.prototype.get called on incompatible receiver #<FrozenMap>')).toBe(false);
  });

  it("a key is named without running its code, and a long one is cut short", () => {
    let ran = 0;
    const key = { toString: () => ((ran += 1), 'shell'), [Symbol.toPrimitive]: () => ((ran += 1), 'shell') };
    expect((refusal(() => set.add(key as never)) as Error).message).toContain('Cannot add property an object,');
    expect((refusal(() => map.set((() => 1) as never, 1)) as Error).message).toContain("property 'a function'");
    expect((refusal(() => set.delete(Symbol('s') as never)) as Error).message).toContain("property 'a symbol'");
    expect(ran).toBe(0);
    const long = (refusal(() => set.add('x'.repeat(10_000))) as Error).message;
    expect(long.length).toBeLessThan(200);
    expect(frozenWriteMessage(refusal(() => set.add('x'.repeat(10_000))))).toBe(long);
  });

  it('replaced globals (TypeError, String.prototype.slice) change neither the error nor its message', () => {
    const saved = { TypeError: globalThis.TypeError, slice: String.prototype.slice };
    try {
      (globalThis as { TypeError: unknown }).TypeError = class Fake extends Error {};
      String.prototype.slice = () => 'forged';
      const error = refusal(() => set.add('y'.repeat(500)));
      expect(Object.getPrototypeOf(error)).toBe(saved.TypeError.prototype);
      expect((error as Error).message).toMatch(/^Cannot add property y{80}…, object is not extensible/);
    } finally {
      globalThis.TypeError = saved.TypeError;
      String.prototype.slice = saved.slice;
    }
    expect(frozenWriteMessage(refusal(() => set.add('z')))).toBeDefined();
  });
});
