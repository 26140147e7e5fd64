/**
 * Replacing a module's or prototype's function with one that runs a check first (the effect audit and the
 * raw-dynamic tier both install these). The original is called through the captured `Reflect.apply`, so a
 * polluted `Function.prototype.apply` cannot steer the wrapper; names are kept for stack traces.
 */
import { reflectApply } from './intrinsics.js';

type AnyFn = (...args: unknown[]) => unknown;

/** Replaces `target[key]` (when it is a function) with a wrapper that calls `check(args)` first. */
export function wrapMethod(target: Record<string, unknown>, key: string, check: (args: unknown[]) => void): void {
  const original = target[key];
  if (typeof original !== 'function') return;
  const wrapped = {
    [key](this: unknown, ...args: unknown[]): unknown {
      check(args);
      return reflectApply(original as AnyFn, this, args);
    },
  }[key]!;
  target[key] = wrapped;
}

/** Replaces a class export with a subclass whose constructor calls `check(args)` first. */
export function wrapClass(target: Record<string, unknown>, key: string, check: (args: unknown[]) => void): void {
  const Original = target[key] as (new (...args: unknown[]) => object) | undefined;
  if (typeof Original !== 'function') return;
  const Guarded = {
    [key]: class extends Original {
      constructor(...args: unknown[]) {
        check(args);
        super(...args);
      }
    },
  }[key]!;
  Object.defineProperty(target, key, { value: Guarded, writable: true, configurable: true, enumerable: true });
}
