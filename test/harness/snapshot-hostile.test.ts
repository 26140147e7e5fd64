import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { snapshot, toJSONSafe } from '../../kernel/src/harness/snapshot.js';
import { expectDeeplyFrozen } from './snapshot-helpers.js';

function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

const throwingTraps = new Proxy({}, {
  ownKeys: () => {
    throw new Error('ownKeys trap');
  },
  getPrototypeOf: () => {
    throw new Error('getPrototypeOf trap');
  },
});

/** Throws a value that is itself hostile, so describing the failure must not trust it either. */
const throwsHostile = new Proxy({}, {
  ownKeys: () => {
    throw revokedProxy();
  },
});

class ThrowingGetter {
  get boom(): never {
    throw new Error('getter');
  }
}
const ownThrowingGetter = Object.defineProperty({}, 'boom', {
  enumerable: true,
  get: () => {
    throw new Error('own getter');
  },
});
const overriddenSize = Object.defineProperty(new Map([[1, 2]]), 'size', {
  get: () => {
    throw new Error('size override');
  },
});
const hostileDescribe = Object.assign(() => 1, {});

describe('snapshot of hostile values', () => {
  it.each([
    ['a revoked proxy', revokedProxy()],
    ['a proxy whose traps throw', throwingTraps],
    ['a proxy that throws a revoked proxy', throwsHostile],
  ])('%s becomes an unrepresentable descriptor', (_label, value) => {
    const taken = snapshot(value);
    expect(taken).toMatchObject({ $kind: 'unrepresentable', reason: expect.any(String) });
    expectDeeplyFrozen(taken);
  });

  it('a getter that throws is described, never invoked', () => {
    expect(snapshot({ a: ownThrowingGetter, b: new ThrowingGetter() })).toEqual({
      a: { boom: { $kind: 'accessor', getter: true, setter: false } },
      b: { $kind: 'instance', className: 'ThrowingGetter', properties: {} },
    });
  });

  it('an overridden built-in getter on a Map is not consulted', () => {
    expect(snapshot(overriddenSize)).toEqual({ $kind: 'map', entries: [[1, 2]] });
  });

  it('a describeCallable hook that throws yields an unrepresentable descriptor for that function only', () => {
    const taken = snapshot({ f: hostileDescribe, ok: 1 }, {
      describeCallable: () => {
        throw new Error('hook failed');
      },
    });
    expect(taken).toEqual({ f: { $kind: 'unrepresentable', reason: 'describeCallable failed: Error: hook failed' }, ok: 1 });
  });

  it('a hostile value nested deep in ordinary data does not spoil its siblings', () => {
    const taken = snapshot({ list: [1, revokedProxy(), { ok: true }] });
    expect(taken).toEqual({
      list: [1, { $kind: 'unrepresentable', reason: expect.stringContaining('revoked') }, { ok: true }],
    });
  });
});

// fast-check probes generated values for a clone method, which a revoked proxy refuses, so the
// arbitrary produces slots and the property swaps the hostile values in.
const hostileValues: readonly unknown[] = [
  revokedProxy(),
  throwingTraps,
  throwsHostile,
  ownThrowingGetter,
  new ThrowingGetter(),
  overriddenSize,
  new WeakMap(),
  Promise.resolve(1),
  new Proxy([1, 2], {}),
  new Proxy(() => 1, {}),
];
class HostileSlot {
  constructor(readonly index: number) {}
}
const hostile = fc.nat({ max: hostileValues.length - 1 }).map((index) => new HostileSlot(index));

const anything = fc.anything({
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withTypedArray: true,
  withSparseArray: true,
  withUnicodeString: true,
});

/** Trees of ordinary values with hostile slots; `materialize` fills the slots and adds cycles. */
const mixed = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    anything,
    hostile,
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(fc.string(), tie('node'), { maxKeys: 4 }),
  ),
})).node;

function materialize(value: unknown, root: object): unknown {
  if (value instanceof HostileSlot) return hostileValues[value.index];
  if (Array.isArray(value)) return [...value.map((item) => materialize(item, root)), root];
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = { self: root };
    for (const [key, item] of Object.entries(value)) {
      Object.defineProperty(out, key, { value: materialize(item, root), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}

describe('snapshot properties', () => {
  it('snapshot never throws and always returns a deeply frozen value (fc.anything)', () => {
    fc.assert(
      fc.property(anything, (value) => {
        const taken = snapshot(value);
        expectDeeplyFrozen(taken);
        JSON.stringify(toJSONSafe(taken));
      }),
      { numRuns: 1500 },
    );
  });

  it('snapshot never throws and always returns a deeply frozen value (hostile leaves and cycles)', () => {
    fc.assert(
      fc.property(mixed, (plan) => {
        const root: { value?: unknown } = {};
        root.value = materialize(plan, root);
        const taken = snapshot(root, { maxNodes: 200 });
        expectDeeplyFrozen(taken);
        JSON.stringify(toJSONSafe(taken));
      }),
      { numRuns: 1500 },
    );
  });

  it('JSON data snapshots to an equal value that later mutation of the original cannot change', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        fc.pre(!JSON.stringify(value).includes('"$kind"'));
        const taken = snapshot(value);
        expect(taken).toEqual(value);
        const persisted = JSON.stringify(toJSONSafe(taken));
        scramble(value);
        expect(JSON.stringify(toJSONSafe(taken))).toBe(persisted);
      }),
      { numRuns: 1000 },
    );
  });
});

/** Mutates every container reachable from `value` in place. */
function scramble(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) scramble(item);
    value.push('extra');
    value[0] = 'replaced';
  } else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      scramble(record[key]);
      record[key] = 'replaced';
    }
    record.added = 1;
  }
}
