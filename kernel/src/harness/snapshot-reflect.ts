/**
 * Reflection for `snapshot` that never runs user code: built-in getters are called directly on the
 * target (so overrides are skipped) and properties are read through descriptors (so accessors are not invoked).
 */
import { types } from 'node:util';
import type { CallableDescriptor, SnapshotPrimitive } from './snapshot.js';

export function callableKind(fn: Function): CallableDescriptor['callableKind'] {
  if (types.isAsyncFunction(fn)) return types.isGeneratorFunction(fn) ? 'async-generator' : 'async-function';
  if (types.isGeneratorFunction(fn)) return 'generator';
  if (types.isProxy(fn)) return 'proxy';
  const source = Function.prototype.toString.call(fn);
  return /^class\b/.test(source) ? 'class' : 'function';
}

export function unbox(value: object): SnapshotPrimitive {
  if (types.isNumberObject(value)) return Number.prototype.valueOf.call(value);
  if (types.isStringObject(value)) return String.prototype.valueOf.call(value);
  if (types.isBooleanObject(value)) return Boolean.prototype.valueOf.call(value);
  if (types.isBigIntObject(value)) return BigInt.prototype.valueOf.call(value);
  return Symbol.prototype.valueOf.call(value);
}

/** The class name of a non-plain object, or undefined for plain and null-prototype objects (in any realm). */
export function classNameOf(value: object): string | undefined {
  const proto = Object.getPrototypeOf(value) as object | null;
  if (proto === null) return undefined;
  const ctor = dataValue(proto, 'constructor');
  const name = typeof ctor === 'function' ? dataValue(ctor, 'name') : undefined;
  if (name === 'Object' && Object.getPrototypeOf(proto) === null) return undefined;
  return typeof name === 'string' && name !== '' ? name : '(anonymous)';
}

export const TYPED_ARRAY_PROTOTYPE = Object.getPrototypeOf(Uint8Array.prototype) as object;
const REGEXP_FLAGS = [
  ['hasIndices', 'd'],
  ['global', 'g'],
  ['ignoreCase', 'i'],
  ['multiline', 'm'],
  ['dotAll', 's'],
  ['unicode', 'u'],
  ['unicodeSets', 'v'],
  ['sticky', 'y'],
] as const;

export function regexpParts(value: object): { source: string; flags: string } {
  let flags = '';
  for (const [name, letter] of REGEXP_FLAGS) {
    if (Object.getOwnPropertyDescriptor(RegExp.prototype, name) && intrinsic(RegExp.prototype, name, value)) flags += letter;
  }
  return { source: String(intrinsic(RegExp.prototype, 'source', value)), flags };
}

/** Calls a built-in getter directly, so an override on the instance or a subclass is never invoked. */
export function intrinsic(proto: object, key: PropertyKey, target: object): unknown {
  return Reflect.apply(Object.getOwnPropertyDescriptor(proto, key)!.get!, target, []);
}

/** An own data property's value without invoking an accessor. */
export function dataValue(target: object, key: string): unknown {
  const descriptor = Object.getOwnPropertyDescriptor(target, key);
  return descriptor && 'value' in descriptor ? descriptor.value : undefined;
}

/** The first data property found along the prototype chain (accessors stop the search). */
export function inheritedData(target: object, key: string): unknown {
  for (let o: object | null = target, hops = 0; o !== null && hops < 64; o = Object.getPrototypeOf(o) as object | null, hops++) {
    const descriptor = Object.getOwnPropertyDescriptor(o, key);
    if (descriptor) return 'value' in descriptor ? descriptor.value : undefined;
  }
  return undefined;
}

/** Brand check through the built-in method (it throws for anything else); the name test keeps the throw off the hot path. */
export function isWeakRef(value: object): boolean {
  if (classNameOf(value) !== 'WeakRef') return false;
  try {
    WeakRef.prototype.deref.call(value as WeakRef<object>);
    return true;
  } catch {
    return false;
  }
}

/** Describes a thrown value without trusting it: the value may itself be hostile. */
export function safeDescribe(error: unknown): string {
  try {
    if (types.isNativeError(error)) {
      const name = inheritedData(error, 'name');
      const message = dataValue(error, 'message');
      return `${typeof name === 'string' ? name : 'Error'}: ${typeof message === 'string' ? message.slice(0, 400) : ''}`;
    }
    if (typeof error === 'string') return error.slice(0, 400);
    if (error === null || (typeof error !== 'object' && typeof error !== 'function')) return String(error);
    return `thrown ${typeof error}`;
  } catch {
    return 'unknown failure';
  }
}
