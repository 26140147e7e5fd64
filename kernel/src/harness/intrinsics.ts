/**
 * Built-in functions captured when the harness loads, for the host's guard and record paths: interior
 * code can replace `RegExp.prototype.test`, `Set.prototype.has` or `Reflect.apply` in the shared realm,
 * and a check that calls the replacement would answer what the replacement says.
 */
const apply = Reflect.apply;
const uncurry =
  <A extends unknown[], R>(fn: (...args: A) => R) =>
  (self: unknown, ...args: A): R =>
    apply(fn as (...a: unknown[]) => R, self, args);

export const reflectApply = apply;
export const reflectConstruct = Reflect.construct;
export const setHas: (set: ReadonlySet<unknown>, value: unknown) => boolean = uncurry(Set.prototype.has) as never;
export const weakSetHas: (set: WeakSet<object>, value: object) => boolean = uncurry(WeakSet.prototype.has) as never;
export const weakSetAdd: (set: WeakSet<object>, value: object) => WeakSet<object> = uncurry(WeakSet.prototype.add) as never;
export const regExpTest: (re: RegExp, text: string) => boolean = uncurry(RegExp.prototype.test) as never;
export const stringStartsWith: (s: string, prefix: string) => boolean = uncurry(String.prototype.startsWith) as never;
export const stringSlice: (s: string, start: number, end?: number) => string = uncurry(String.prototype.slice) as never;
export const stringIndexOf: (s: string, search: string) => number = uncurry(String.prototype.indexOf) as never;
export const StringCtor = String;

// Reflection and encoding for the realm check and the private JSON encoder.
export const getOwnPropertyDescriptor = Reflect.getOwnPropertyDescriptor;
export const ownKeys = Reflect.ownKeys;
export const defineProperty = Reflect.defineProperty;
export const deleteProperty = Reflect.deleteProperty;
export const getPrototypeOf = Reflect.getPrototypeOf;
export const setPrototypeOf = Reflect.setPrototypeOf;
export const isExtensible = Reflect.isExtensible;
export const objectIs = Object.is;
export const objectKeys = Object.keys;
export const objectFreeze = Object.freeze;
export const isArray = Array.isArray;
export const jsonStringify = JSON.stringify;
export const isFiniteNumber = Number.isFinite;
