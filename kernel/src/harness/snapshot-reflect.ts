/**
 * Reflection for `snapshot` that never runs user code: built-in getters are called directly on the
 * target (so overrides are skipped) and properties are read through descriptors (so accessors are not invoked).
 * Everything here was captured when the harness loaded: interior code may replace built-ins in the shared
 * realm during an operation, and a record walk that asked the replacements would copy what they chose to show.
 */
import { types } from 'node:util';
import type { CallableDescriptor, SnapshotPrimitive } from './snapshot.js';
import { StringCtor, builtinGetter, functionToString, getOwnPropertyDescriptor, getPrototypeOf, objectHasOwn, reflectApply, regExpTest, stringSlice } from './intrinsics.js';

// util.types is a shared, writable object: its predicates are taken now.
export const {
  isAsyncFunction,
  isGeneratorFunction,
  isProxy,
  isNumberObject,
  isStringObject,
  isBooleanObject,
  isBigIntObject,
  isDate,
  isMap,
  isSet,
  isTypedArray,
  isArrayBuffer,
  isSharedArrayBuffer,
  isDataView,
  isNativeError,
  isRegExp,
  isBoxedPrimitive,
  isPromise,
  isWeakMap,
  isWeakSet,
} = types;

const numberValueOf = Number.prototype.valueOf;
const stringValueOf = String.prototype.valueOf;
const booleanValueOf = Boolean.prototype.valueOf;
const bigintValueOf = BigInt.prototype.valueOf;
const symbolValueOf = Symbol.prototype.valueOf;
const weakRefDeref = WeakRef.prototype.deref;
const CLASS_SOURCE = /^class\b/;

export function callableKind(fn: Function): CallableDescriptor['callableKind'] {
  if (isAsyncFunction(fn)) return isGeneratorFunction(fn) ? 'async-generator' : 'async-function';
  if (isGeneratorFunction(fn)) return 'generator';
  if (isProxy(fn)) return 'proxy';
  return regExpTest(CLASS_SOURCE, functionToString(fn)) ? 'class' : 'function';
}

export function unbox(value: object): SnapshotPrimitive {
  if (isNumberObject(value)) return reflectApply(numberValueOf, value, []) as number;
  if (isStringObject(value)) return reflectApply(stringValueOf, value, []) as string;
  if (isBooleanObject(value)) return reflectApply(booleanValueOf, value, []) as boolean;
  if (isBigIntObject(value)) return reflectApply(bigintValueOf, value, []) as bigint;
  return reflectApply(symbolValueOf, value, []) as symbol;
}

/** The class name of a non-plain object, or undefined for plain and null-prototype objects (in any realm). */
export function classNameOf(value: object): string | undefined {
  const proto = getPrototypeOf(value);
  if (proto === null) return undefined;
  const ctor = dataValue(proto, 'constructor');
  const name = typeof ctor === 'function' ? dataValue(ctor, 'name') : undefined;
  if (name === 'Object' && getPrototypeOf(proto) === null) return undefined;
  return typeof name === 'string' && name !== '' ? name : '(anonymous)';
}

const TYPED_ARRAY_PROTOTYPE = getPrototypeOf(Uint8Array.prototype) as object;
export const typedArrayLength = builtinGetter(TYPED_ARRAY_PROTOTYPE, 'length') as (view: ArrayBufferView) => number;
export const typedArrayTag = builtinGetter(TYPED_ARRAY_PROTOTYPE, Symbol.toStringTag) as (view: ArrayBufferView) => string;
export const dataViewBuffer = builtinGetter(DataView.prototype, 'buffer') as (view: object) => ArrayBuffer;
export const dataViewByteOffset = builtinGetter(DataView.prototype, 'byteOffset') as (view: object) => number;
export const dataViewByteLength = builtinGetter(DataView.prototype, 'byteLength') as (view: object) => number;
const regexpSource = builtinGetter(RegExp.prototype, 'source');
/** [letter, getter] for each flag this Node's RegExp has, in `flags` order. */
const REGEXP_FLAGS: readonly (readonly [string, (re: object) => unknown])[] = (() => {
  const names = [
    ['hasIndices', 'd'],
    ['global', 'g'],
    ['ignoreCase', 'i'],
    ['multiline', 'm'],
    ['dotAll', 's'],
    ['unicode', 'u'],
    ['unicodeSets', 'v'],
    ['sticky', 'y'],
  ] as const;
  const out: (readonly [string, (re: object) => unknown])[] = [];
  for (let i = 0; i < names.length; i++) {
    const [name, letter] = names[i]!;
    if (getOwnPropertyDescriptor(RegExp.prototype, name)) out.push([letter, builtinGetter(RegExp.prototype, name)]);
  }
  return out;
})();

export function regexpParts(value: object): { source: string; flags: string } {
  let flags = '';
  for (let i = 0; i < REGEXP_FLAGS.length; i++) if (REGEXP_FLAGS[i]![1](value)) flags += REGEXP_FLAGS[i]![0];
  return { source: StringCtor(regexpSource(value)), flags };
}

/** An own data property's value without invoking an accessor. */
export function dataValue(target: object, key: string): unknown {
  const descriptor = getOwnPropertyDescriptor(target, key);
  // hasOwn, not `in`: a `value` added to Object.prototype would make an accessor's descriptor read as data.
  return descriptor !== undefined && objectHasOwn(descriptor, 'value') ? descriptor.value : undefined;
}

/** The first data property found along the prototype chain (accessors stop the search). */
export function inheritedData(target: object, key: string): unknown {
  for (let o: object | null = target, hops = 0; o !== null && hops < 64; o = getPrototypeOf(o), hops++) {
    const descriptor = getOwnPropertyDescriptor(o, key);
    if (descriptor) return objectHasOwn(descriptor, 'value') ? descriptor.value : undefined;
  }
  return undefined;
}

/** Brand check through the built-in method (it throws for anything else); the name test keeps the throw off the hot path. */
export function isWeakRef(value: object): boolean {
  if (classNameOf(value) !== 'WeakRef') return false;
  try {
    reflectApply(weakRefDeref, value, []);
    return true;
  } catch {
    return false;
  }
}

/**
 * Describes a thrown value without trusting it: the value may itself be hostile. Throws only when the stack
 * is exhausted, so a walk that overflowed can describe the failure in a shallower frame instead.
 */
export function describeThrown(error: unknown): string {
  if (isNativeError(error)) {
    const name = inheritedData(error, 'name');
    const message = dataValue(error, 'message');
    return `${typeof name === 'string' ? name : 'Error'}: ${typeof message === 'string' ? stringSlice(message, 0, 400) : ''}`;
  }
  if (typeof error === 'string') return stringSlice(error, 0, 400);
  if (error === null || (typeof error !== 'object' && typeof error !== 'function')) return StringCtor(error);
  return `thrown ${typeof error}`;
}

/** `describeThrown` that never throws. */
export function safeDescribe(error: unknown): string {
  try {
    return describeThrown(error);
  } catch {
    return 'unknown failure';
  }
}
