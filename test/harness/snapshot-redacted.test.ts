/**
 * The ledger's one-walk snapshot: it redacts registered secrets from every string and key of the
 * snapshot while it builds it, and reports which secrets it redacted, so the host needs no second walk
 * to redact and no third to find out whether the recorded value carried a secret.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { redactionsIn, redactValue, registerSecret } from '../../kernel/src/core/index.js';
import { snapshot, snapshotRedacted } from '../../kernel/src/harness/snapshot.js';
import { expectDeeplyFrozen } from './snapshot-helpers.js';

const KEY = 'sk-one-walk-0123456789abcdef';
const TOKEN = 'tok-one-walk-fedcba9876543210';

/** Values with a secret in every place a snapshot holds a string. */
function carriers(): Record<string, unknown> {
  const cyclic: Record<string, unknown> = { [`key ${KEY}`]: {} };
  (cyclic[`key ${KEY}`] as Record<string, unknown>).back = cyclic;
  class Holder {
    note = `holder ${TOKEN}`;
  }
  return {
    string: `Bearer ${KEY}`,
    key: { [`header ${KEY}`]: 1 },
    nested: { list: [1, 'plain', [`deep ${TOKEN}`]] },
    error: new Error(`failed with ${KEY}`, { cause: `cause ${TOKEN}` }),
    callable: { [KEY]: function () {} }[KEY],
    map: new Map<unknown, unknown>([[`k ${KEY}`, `v ${TOKEN}`]]),
    set: new Set([`s ${KEY}`]),
    regexp: new RegExp(KEY),
    instance: new Holder(),
    cycle: cyclic,
    boxed: Object(`boxed ${KEY}`) as unknown,
    descriptorLike: { $kind: `forged ${KEY}` },
  };
}

describe('snapshotRedacted: one walk snapshots, redacts and reports', () => {
  beforeAll(() => {
    registerSecret('ONE_WALK_KEY', KEY);
    registerSecret('ONE_WALK_TOKEN', TOKEN);
  });

  for (const [name, value] of Object.entries(carriers())) {
    it(`${name}: the same record as redacting the snapshot afterwards, and the names it redacted`, () => {
      const options = { maxStringLength: 40 };
      const { snapshot: taken, redacted } = snapshotRedacted(value, options);
      const twoWalks = redactValue(snapshot(value, options));
      expect(taken).toEqual(twoWalks);
      expect(JSON.stringify(taken)).not.toContain(KEY.slice(0, 20));
      expect(JSON.stringify(taken)).not.toContain(TOKEN.slice(0, 20));
      expect([...redacted].sort()).toEqual(redactionsIn(twoWalks).sort());
      expect(redacted.length).toBeGreaterThan(0);
      expectDeeplyFrozen(taken);
    });
  }

  it('a value without secrets is recorded as snapshot records it, and reports nothing', () => {
    const value = { a: [1, 'two', { three: new Map([['k', 'v']]) }], e: new Error('plain') };
    const { snapshot: taken, redacted } = snapshotRedacted(value);
    expect(taken).toEqual(snapshot(value));
    expect(redacted).toEqual([]);
  });

  it('a secret the preview bound would cut is redacted before the cut (redacting afterwards left its prefix)', () => {
    const value = `${'x'.repeat(30)}${KEY}`;
    const after = JSON.stringify(redactValue(snapshot(value, { maxStringLength: 40 })));
    expect(after).toContain(KEY.slice(0, 10));
    const { snapshot: taken, redacted } = snapshotRedacted(value, { maxStringLength: 40 });
    expect(JSON.stringify(taken)).not.toContain(KEY.slice(0, 10));
    expect((taken as { preview: string }).preview).toBe(`${'x'.repeat(30)}[redacted:`);
    expect(redacted).toEqual(['ONE_WALK_KEY']);
  });

  it('reports what it redacted, not text that already reads like a redaction', () => {
    const { redacted } = snapshotRedacted({ echoed: '[redacted:ONE_WALK_KEY]', real: TOKEN });
    expect(redacted).toEqual(['ONE_WALK_TOKEN']);
  });

  it('each secret is reported once however often it occurs', () => {
    const { redacted } = snapshotRedacted([KEY, KEY, { [KEY]: KEY }, `${TOKEN}${KEY}`]);
    expect([...redacted].sort()).toEqual(['ONE_WALK_KEY', 'ONE_WALK_TOKEN']);
  });

  it('built-ins replaced by interior code (as during an operation body) neither skip the redaction nor unfreeze the record', () => {
    // The attack: Object.keys answers truthfully for the value handed to the host (so the snapshot copies the
    // secret) and with nothing for the host's own copies (so a redaction asking it would skip them); the
    // other replacements lie the same way, and Object.freeze does nothing.
    const sources = new WeakSet<object>();
    const value = { token: `Bearer ${KEY}`, [`h ${TOKEN}`]: 1, list: [`deep ${KEY}`] };
    sources.add(value);
    sources.add(value.list);
    const real = { keys: Object.keys, gopd: Object.getOwnPropertyDescriptor, isArray: Array.isArray, freeze: Object.freeze, includes: Array.prototype.includes };
    Object.keys = ((o: object) => (sources.has(o) ? real.keys(o) : [])) as typeof Object.keys;
    Array.isArray = ((o: unknown): o is unknown[] => typeof o === 'object' && o !== null && sources.has(o) && real.isArray(o)) as typeof Array.isArray;
    Object.freeze = (<T>(o: T): T => o) as typeof Object.freeze;
    Array.prototype.includes = function () {
      return true;
    };
    let taken: unknown;
    let redacted: readonly string[];
    try {
      ({ snapshot: taken, redacted } = snapshotRedacted(value));
    } finally {
      Object.keys = real.keys;
      Array.isArray = real.isArray;
      Object.freeze = real.freeze;
      Array.prototype.includes = real.includes;
    }
    expect(JSON.stringify(taken)).not.toContain(KEY.slice(0, 20));
    expect(JSON.stringify(taken)).not.toContain(TOKEN.slice(0, 20));
    expect([...redacted!].sort()).toEqual(['ONE_WALK_KEY', 'ONE_WALK_TOKEN']);
    expectDeeplyFrozen(taken);
  });
});
