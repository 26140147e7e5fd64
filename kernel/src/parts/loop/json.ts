/** JSON values for event payloads, and a total copy that makes any value one (seed 001: ledger values are snapshots). */
import { describeError } from '../../core/index.js';
import type { JsonValue } from '../../harness/index.js';

export type { JsonValue };

/** What an unrepresentable value becomes, so recording never throws (compare section 4.9: snapshotting is total). */
export interface UnserialisableValue {
  readonly $kind: 'unserialisable';
  readonly reason: string;
}

/**
 * Deep-copies `value` through JSON and freezes the copy, so later mutation of the original (for example by a
 * hook) cannot change a recorded event. A value JSON cannot carry becomes an `UnserialisableValue` descriptor.
 */
export function snapshotJson(value: unknown): JsonValue {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    return unserialisable(describeError(error));
  }
  if (text === undefined) return unserialisable(`${typeof value} has no JSON form`);
  return deepFreeze(JSON.parse(text) as JsonValue);
}

function unserialisable(reason: string): JsonValue {
  return Object.freeze({ $kind: 'unserialisable', reason } satisfies UnserialisableValue);
}

/** Freezes a JSON tree in place and returns it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
