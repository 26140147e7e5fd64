import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { snapshot, toJSONSafe, type Snapshot } from '../../kernel/src/harness/snapshot.js';
import { expectDeeplyFrozen } from './snapshot-helpers.js';

describe('snapshot', () => {
  it('mutating the original after snapshot does not change the snapshot', () => {
    const original = { list: [1, { deep: 'a' }], map: new Map([['k', { v: 1 }]]), set: new Set([1]), date: new Date(0) };
    const taken = snapshot(original);
    const before = JSON.stringify(toJSONSafe(taken));
    (original.list[1] as { deep: string }).deep = 'changed';
    original.list.push(3);
    original.map.get('k')!.v = 2;
    original.map.set('new', { v: 9 });
    original.set.add(2);
    original.date.setTime(1000);
    expect(JSON.stringify(toJSONSafe(taken))).toBe(before);
    expect(taken).toEqual({
      list: [1, { deep: 'a' }],
      map: { $kind: 'map', entries: [['k', { v: 1 }]] },
      set: { $kind: 'set', values: [1] },
      date: { $kind: 'date', epochMs: 0, iso: '1970-01-01T00:00:00.000Z' },
    });
  });

  it('the snapshot is frozen at every level', () => {
    const taken = snapshot({ a: [{ b: [new Map([[{ k: 1 }, [2]]])] }], e: new Error('x', { cause: { c: [1] } }) });
    expectDeeplyFrozen(taken);
    expect(() => {
      ((taken as { a: { b: unknown[] }[] }).a[0]!.b as unknown[]).push(1);
    }).toThrow(TypeError);
  });

  it('primitives are kept as they are, including bigint, symbols, NaN and -0', () => {
    const sym = Symbol('s');
    for (const value of [null, undefined, true, 0, -0, NaN, Infinity, 'text', 10n, sym]) {
      expect(Object.is(snapshot(value), value)).toBe(true);
    }
  });

  it('built-in values are represented with a type tag', () => {
    expect(snapshot(new Date(Number.NaN))).toEqual({ $kind: 'date', epochMs: Number.NaN, iso: null });
    expect(snapshot(new BigInt64Array([1n, -2n]))).toEqual({ $kind: 'typed-array', type: 'BigInt64Array', values: [1n, -2n] });
    expect(snapshot(new Uint8Array([1, 2]).buffer)).toEqual({ $kind: 'typed-array', type: 'ArrayBuffer', values: [1, 2] });
    expect(snapshot(/a.b/gimsuy)).toEqual({ $kind: 'regexp', source: 'a.b', flags: 'gimsuy' });
    expect(snapshot(Object(5n))).toEqual({ $kind: 'boxed', value: 5n });
    expect(snapshot(Promise.resolve(1))).toMatchObject({ $kind: 'unrepresentable' });
  });

  it('errors keep name, message, cause and aggregated errors', () => {
    const error = new AggregateError([new RangeError('inner')], 'outer', { cause: 'why' });
    expect(snapshot(error)).toMatchObject({
      $kind: 'error',
      name: 'AggregateError',
      message: 'outer',
      cause: 'why',
      errors: [{ $kind: 'error', name: 'RangeError', message: 'inner' }],
    });
  });

  it('class instances are copied with their class name and own data properties only', () => {
    let getterCalls = 0;
    class Account {
      id = 'acc-1';
      balance = 10;
      get secret(): string {
        getterCalls++;
        return 'hidden';
      }
    }
    const account = new Account();
    Object.defineProperty(account, 'live', { enumerable: true, get: () => getterCalls++ });
    expect(snapshot(account)).toEqual({
      $kind: 'instance',
      className: 'Account',
      properties: { id: 'acc-1', balance: 10, live: { $kind: 'accessor', getter: true, setter: false } },
    });
    expect(getterCalls).toBe(0);
  });

  it('plain objects from another realm stay plain objects', () => {
    const foreign: unknown = runInNewContext('({ a: [1, { b: new Date(0) }], c: Object.create(null) })');
    expect(snapshot(foreign)).toEqual({ a: [1, { b: { $kind: 'date', epochMs: 0, iso: '1970-01-01T00:00:00.000Z' } }], c: {} });
  });

  it('an accessor on an array index is described, never invoked', () => {
    let calls = 0;
    const list = [1, 2];
    Object.defineProperty(list, 1, { enumerable: true, get: () => ++calls });
    expect(snapshot(list)).toEqual([1, { $kind: 'accessor', getter: true, setter: false }]);
    expect(calls).toBe(0);
  });

  it('nesting beyond the call stack still yields a snapshot when the depth bound is lifted', () => {
    let value: unknown = 'bottom';
    for (let i = 0; i < 200_000; i++) value = [value];
    const taken = snapshot(value, { maxDepth: Number.POSITIVE_INFINITY, maxNodes: Number.POSITIVE_INFINITY });
    let innermost: unknown = taken;
    while (Array.isArray(innermost)) innermost = innermost[0];
    expect(innermost).toMatchObject({ $kind: 'unrepresentable', reason: expect.stringContaining('call stack') });
  });

  it('a plain object that looks like a descriptor is wrapped so it cannot be mistaken for one', () => {
    expect(snapshot({ $kind: 'cycle' })).toEqual({ $kind: 'object', properties: { $kind: 'cycle' } });
  });

  it('functions become callable descriptors', () => {
    function plain(): void {}
    expect(snapshot([plain, async () => {}, function* gen() {}, class Widget {}])).toEqual([
      { $kind: 'callable', name: 'plain', callableKind: 'function' },
      { $kind: 'callable', name: '', callableKind: 'async-function' },
      { $kind: 'callable', name: 'gen', callableKind: 'generator' },
      { $kind: 'callable', name: 'Widget', callableKind: 'class' },
    ]);
  });

  it('describeCallable records generated functions by definition identity', () => {
    const generated = (): number => 1;
    const other = (): number => 2;
    const taken = snapshot({ generated, other }, {
      describeCallable: (fn) => (fn === generated ? { definitionId: 'def_01', name: 'helper' } : undefined),
    });
    expect(taken).toEqual({
      generated: { $kind: 'callable', name: 'helper', callableKind: 'function', definitionId: 'def_01' },
      other: { $kind: 'callable', name: 'other', callableKind: 'function' },
    });
  });

  it('cycles become cycle markers naming the ancestor', () => {
    const node: { name: string; self?: unknown; children: unknown[] } = { name: 'root', children: [] };
    node.self = node;
    node.children.push({ parent: node });
    expect(snapshot(node)).toEqual({
      name: 'root',
      self: { $kind: 'cycle', target: '$' },
      children: [{ parent: { $kind: 'cycle', target: '$' } }],
    });
  });

  it('a shared but acyclic reference is copied at each place, not marked as a cycle', () => {
    const shared = { v: 1 };
    expect(snapshot([shared, shared])).toEqual([{ v: 1 }, { v: 1 }]);
  });
});

describe('snapshot bounds', () => {
  it('nesting deeper than maxDepth is marked truncated', () => {
    expect(snapshot({ a: { b: { c: 1 } } }, { maxDepth: 2 })).toEqual({ a: { b: { $kind: 'truncated', reason: 'depth' } } });
  });

  it('containers longer than maxEntries keep their head and count the rest', () => {
    expect(snapshot([1, 2, 3, 4], { maxEntries: 2 })).toEqual([1, 2, { $kind: 'truncated', reason: 'entries', omitted: 2 }]);
    expect(snapshot({ a: 1, b: 2, c: 3 }, { maxEntries: 2 })).toEqual({ $kind: 'object', properties: { a: 1, b: 2 }, omitted: 1 });
    expect(snapshot(new Set([1, 2, 3]), { maxEntries: 1 })).toEqual({ $kind: 'set', values: [1], omitted: 2 });
  });

  it('the total object count is bounded by maxNodes', () => {
    const taken = snapshot([[1], [2], [3]], { maxNodes: 3 }) as readonly Snapshot[];
    expect(taken).toEqual([[1], [2], { $kind: 'truncated', reason: 'size' }]);
  });

  it('an exponentially shared graph stays bounded', () => {
    let value: unknown = { leaf: true };
    for (let i = 0; i < 40; i++) value = [value, value];
    const text = JSON.stringify(toJSONSafe(snapshot(value, { maxNodes: 500, maxDepth: 64 })));
    expect(text.length).toBeLessThan(100_000);
    expect(text).toContain('"reason":"size"');
  });

  it('long strings are truncated with a preview and their length', () => {
    expect(snapshot('abcdef', { maxStringLength: 3 })).toEqual({ $kind: 'truncated', reason: 'string-length', length: 6, preview: 'abc' });
  });
});

describe('toJSONSafe', () => {
  it('tags what JSON cannot carry and round-trips through JSON.stringify', () => {
    const json = toJSONSafe(snapshot({ u: undefined, n: NaN, z: -0, i: -Infinity, b: 12n, s: Symbol('d'), list: [undefined] }));
    expect(JSON.parse(JSON.stringify(json))).toEqual({
      u: { $kind: 'undefined' },
      n: { $kind: 'number', value: 'NaN' },
      z: { $kind: 'number', value: '-0' },
      i: { $kind: 'number', value: '-Infinity' },
      b: { $kind: 'bigint', value: '12' },
      s: { $kind: 'symbol', description: 'd' },
      list: [{ $kind: 'undefined' }],
    });
  });

  it('keeps an own __proto__ key as data', () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}}') as object;
    const json = toJSONSafe(snapshot(value)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(json)).toBe(Object.prototype);
    expect(JSON.stringify(json)).toBe('{"__proto__":{"polluted":true}}');
  });
});
