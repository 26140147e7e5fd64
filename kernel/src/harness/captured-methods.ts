/**
 * Operator-built objects the host calls into (the step executor, a perimeter audit store, a ledger store, the
 * confinement and termination services), by value: their methods are read once, when the Runner or Ledger that
 * uses them is built (operator code, before any run), and called
 * with the object as `this` from then on. The object itself stays reachable to any code holding a reference, and
 * a method the host looked up at each call could be shadowed (an own property, a prototype layer slipped in) to
 * take the host's writes. `modified()` names the methods that would now resolve elsewhere, read without running
 * any getter, so the host can record the attempt.
 */
import { getOwnPropertyDescriptor, getPrototypeOf, objectFreeze, reflectApply as apply } from './intrinsics.js';
import { UsageError } from '../core/index.js';
import type { PerimeterAuditStore } from './audit-store.js';
import type { ConfinementService } from './termination.js';

export interface CapturedMethods<T> {
  /** The methods as they were at capture, bound to the object. */
  readonly methods: T;
  /** Methods that no longer resolve to the captured ones (shadowed by an own property, or the prototype changed). */
  modified(): readonly string[];
}

export function captureMethods<T extends object, K extends keyof T & string>(target: T, names: readonly K[], what: string): CapturedMethods<Pick<T, K>> {
  const proto: unknown = getPrototypeOf(target);
  const methods = {} as Record<string, unknown>;
  /** Each method's own property descriptor at capture (undefined: inherited then). */
  const atCapture: (PropertyDescriptor | undefined)[] = [];
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const fn: unknown = target[name];
    if (typeof fn !== 'function') throw new UsageError(`${what} has no ${name}() method: it must implement every method of its interface.`);
    methods[name] = (...args: unknown[]) => apply(fn as (...a: unknown[]) => unknown, target, args);
    atCapture[i] = getOwnPropertyDescriptor(target, name);
  }
  objectFreeze(methods);
  return objectFreeze({
    methods: methods as Pick<T, K>,
    modified(): readonly string[] {
      const out: string[] = [];
      const protoChanged = getPrototypeOf(target) !== proto;
      for (let i = 0; i < names.length; i++) {
        if (protoChanged || !sameDescriptor(atCapture[i], getOwnPropertyDescriptor(target, names[i]!))) out[out.length] = names[i]!;
      }
      return objectFreeze(out);
    },
  });
}

/** Same own property as at capture: both absent, or the same value, getter and setter (nothing is called). */
function sameDescriptor(before: PropertyDescriptor | undefined, now: PropertyDescriptor | undefined): boolean {
  if (before === undefined || now === undefined) return before === now;
  return before.value === now.value && before.get === now.get && before.set === now.set;
}

const AUDIT_METHODS = ['recordAttempt', 'recordCompletion', 'get', 'list', 'close'] as const;

export interface CapturedAuditStore extends CapturedMethods<PerimeterAuditStore> {
  readonly methods: PerimeterAuditStore;
}

/** The perimeter audit store as the host calls it: methods and `durable` read once (see the module comment). */
export function captureAuditStore(store: PerimeterAuditStore): CapturedAuditStore {
  const captured = captureMethods(store, AUDIT_METHODS, 'The perimeter audit store');
  const durable = store.durable === true;
  return objectFreeze({ methods: objectFreeze({ ...captured.methods, durable }), modified: captured.modified });
}

export interface CapturedConfinement extends CapturedMethods<ConfinementService> {
  readonly methods: ConfinementService;
}

/** The confinement service as dispatch asks it: `confirm` and `identity` read once. */
export function captureConfinement(service: ConfinementService): CapturedConfinement {
  const captured = captureMethods(service, ['confirm'], 'The confinement service');
  const identity = String(service.identity);
  return objectFreeze({ methods: objectFreeze({ confirm: captured.methods.confirm, identity }), modified: captured.modified });
}
