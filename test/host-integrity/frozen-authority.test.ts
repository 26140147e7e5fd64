/**
 * Red-team round A, defense in depth: the prototypes of the authority classes are frozen at module load, so even a path
 * that leaks model code into host context cannot replace `Ledger.prototype.append` (or any method of the others).
 */
import { describe, expect, it } from 'vitest';
import {
  Allocation,
  Dispatcher,
  InMemoryPerimeterAuditStore,
  Ledger,
  LedgerView,
  RunHost,
  Runner,
  Session,
  SqliteLedgerStore,
  SqlitePerimeterAuditStore,
  StepContext,
} from '../../kernel/src/index.js';

describe('the authority classes cannot be patched', () => {
  it.each([
    ['Ledger', Ledger],
    ['LedgerView', LedgerView],
    ['SqliteLedgerStore', SqliteLedgerStore],
    ['RunHost', RunHost],
    ['StepContext', StepContext],
    ['Allocation', Allocation],
    ['InMemoryPerimeterAuditStore', InMemoryPerimeterAuditStore],
    ['SqlitePerimeterAuditStore', SqlitePerimeterAuditStore],
    ['Session', Session],
    ['Runner', Runner],
    ['Dispatcher', Dispatcher],
  ] as const)('%s.prototype is frozen', (_name, cls) => {
    expect(Object.isFrozen(cls.prototype)).toBe(true);
    expect(() => {
      (cls.prototype as unknown as Record<string, unknown>)['append'] = () => undefined;
    }).toThrow(TypeError);
  });
});
