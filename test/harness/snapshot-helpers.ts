import { expect } from 'vitest';

/** Asserts every object reachable through own properties is frozen. */
export function expectDeeplyFrozen(value: unknown): void {
  const seen = new Set<object>();
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (current === null || (typeof current !== 'object' && typeof current !== 'function')) continue;
    if (seen.has(current)) continue;
    seen.add(current);
    expect(Object.isFrozen(current)).toBe(true);
    for (const key of Reflect.ownKeys(current)) {
      const descriptor = Object.getOwnPropertyDescriptor(current, key)!;
      expect('value' in descriptor).toBe(true);
      pending.push(descriptor.value);
    }
  }
}
