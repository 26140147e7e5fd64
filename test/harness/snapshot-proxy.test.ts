/**
 * The ledger never walks a proxy: walking runs its traps, functions a model may have written, in host code outside
 * any operation and without the interior mark, where the run-time raw-dynamic tier does not apply (red team A:
 * a trap reached the real Function constructor). A proxy is recorded as an unrepresentable descriptor.
 */
import { describe, expect, it } from 'vitest';
import { snapshot } from '../../kernel/src/harness/index.js';

describe('a proxy in a snapshot', () => {
  it('is described, its traps never run', () => {
    let ran = 0;
    const traps = Object.fromEntries(['ownKeys', 'get', 'getOwnPropertyDescriptor', 'getPrototypeOf', 'has'].map((t) => [t, (...args: unknown[]) => (ran++, (Reflect as unknown as Record<string, (...a: unknown[]) => unknown>)[t]!(...args))]));
    const taken = snapshot({ value: new Proxy({ a: 1 }, traps), list: [new Proxy([1], traps)] });
    expect(taken).toEqual({
      value: { $kind: 'unrepresentable', reason: expect.stringContaining('Proxy') },
      list: [{ $kind: 'unrepresentable', reason: expect.stringContaining('Proxy') }],
    });
    expect(ran).toBe(0);
  });
});
