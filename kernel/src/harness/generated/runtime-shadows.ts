/**
 * The run-time layer of the raw-dynamic-execution rule. Generated code is compiled with `eval`,
 * `Function`, the global object names and the string-accepting timers bound to host shadows, so a
 * spelling the parser could not see (an aliased global object indexed by a key computed at run time,
 * a descriptor lookup, a timer handed a string variable) meets a stub that records a
 * `raw_dynamic_execution` anomaly and throws.
 *
 * These shadows alone cannot catch what is reached without those names (`Reflect.get(fn, k)` with `k`
 * computed as 'constructor', a global object handed in by the host). Under a live dispatch node the
 * run-time tier (`raw-dynamic-runtime.ts`) catches those too; compiled outside a dispatch (as in the
 * unit tests of this module) only the shadows apply.
 */
import { createRequire, isBuiltin } from 'node:module';
import { facingStructuredClone, isInstance } from '../../core/index.js';
import { GeneratedModuleRefusedError, RawDynamicExecutionError, type RuntimeSpelling } from './errors.js';
import { FORBIDDEN_MODULES } from './forbidden-names.js';

export interface RuntimeShadowOptions {
  readonly definitionId: string;
  readonly report: (spelling: RuntimeSpelling, detail: string) => void;
  readonly resolveModule?: (specifier: string) => unknown;
}

/** Global object names that exist in this realm; only those are shadowed so `typeof window` keeps its meaning. */
const GLOBAL_ALIASES = ['global', 'self', 'window'].filter((name) => Object.prototype.hasOwnProperty.call(globalThis, name));
const TIMERS = ['setTimeout', 'setInterval', 'setImmediate'] as const;
const hostRequire = createRequire(import.meta.url);

/**
 * Parameter names, in order, under which the shadows are bound. `structuredClone` is no refusal: the engine's cannot
 * clone the operator data the code sees through the membrane (facingStructuredClone).
 */
export const SHADOW_NAMES: readonly string[] = ['eval', 'Function', 'globalThis', ...GLOBAL_ALIASES, ...TIMERS, 'require', 'structuredClone'];

function defaultResolveModule(specifier: string): unknown {
  if (isBuiltin(specifier)) return hostRequire(specifier);
  throw new GeneratedModuleRefusedError({ specifier, reason: 'unavailable' });
}

export function createRuntimeShadows(options: RuntimeShadowOptions): unknown[] {
  // The refusal stands even when recording it fails, so a throwing recorder cannot turn it into success.
  const report = (spelling: RuntimeSpelling, detail: string): void => {
    try {
      options.report(spelling, detail);
    } catch {
      /* the thrown refusal below is the outcome */
    }
  };
  const refuse = (spelling: RuntimeSpelling, detail: string): never => {
    report(spelling, detail);
    throw new RawDynamicExecutionError({ definitionId: options.definitionId, spelling, detail });
  };
  const evalStub = (spelling: RuntimeSpelling) =>
    ({
      eval(..._args: unknown[]): never {
        return refuse(spelling, 'eval was called');
      },
    }).eval;
  const functionStub = (spelling: RuntimeSpelling): unknown => {
    const stub = function Function(): never {
      return refuse(spelling, 'the Function constructor was called');
    };
    // `x instanceof Function` and `Function.prototype` keep working through the shadow.
    Object.defineProperty(stub, 'prototype', { value: Function.prototype });
    return stub;
  };
  const timers = TIMERS.map((name) => {
    const real = globalThis[name] as (...args: unknown[]) => unknown;
    return {
      [name](callback: unknown, ...rest: unknown[]): unknown {
        if (typeof callback !== 'function') return refuse('timer-string', `${name} was given a ${typeof callback} instead of a function`);
        return real(callback, ...rest);
      },
    }[name];
  });

  const replaced = new Map<PropertyKey, unknown>([
    ['eval', evalStub('global-eval')],
    ['Function', functionStub('global-Function')],
    ['structuredClone', facingStructuredClone],
    ...TIMERS.map((name, i) => [name, timers[i]] as const),
  ]);
  const globalShadow: object = new Proxy(globalThis, {
    get: (target, key) => (replaced.has(key) ? replaced.get(key) : Reflect.get(target, key)),
    set: (target, key, value) => Reflect.set(target, key, value),
    getOwnPropertyDescriptor: (target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(target, key);
      if (descriptor && 'value' in descriptor && descriptor.configurable && replaced.has(key)) return { ...descriptor, value: replaced.get(key) };
      return descriptor;
    },
  });
  for (const name of ['globalThis', ...GLOBAL_ALIASES]) replaced.set(name, globalShadow);

  const resolve = options.resolveModule ?? defaultResolveModule;
  const requireShadow = (specifier: unknown): unknown => {
    const spec = String(specifier);
    if (FORBIDDEN_MODULES.has(spec)) {
      report('forbidden-module', `module '${spec}' was required`);
      throw new GeneratedModuleRefusedError({ specifier: spec, reason: 'forbidden' });
    }
    // A module the host does not provide (including a data: or remote specifier) is an undeclared import: evidence, then refusal.
    let resolved: unknown;
    try {
      resolved = resolve(spec);
    } catch (error) {
      if (isInstance(error, GeneratedModuleRefusedError)) report('undeclared-module', `module '${spec}' is not provided`);
      throw error;
    }
    if (resolved === undefined || resolved === null) {
      report('undeclared-module', `module '${spec}' is not provided`);
      throw new GeneratedModuleRefusedError({ specifier: spec, reason: 'unavailable' });
    }
    return resolved;
  };

  return [evalStub('eval'), functionStub('Function'), globalShadow, ...GLOBAL_ALIASES.map(() => globalShadow), ...timers, requireShadow, facingStructuredClone];
}
