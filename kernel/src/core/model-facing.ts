/**
 * What model code sees of a value the operator handed it. A value may carry, as an own non-configurable data
 * property under MODEL_FACING, the function model code gets in its place: a SessionFunction adapter carries one
 * that works only inside a run (session.ts), so whatever model code builds around it (a function bound with the
 * intrinsic `bind`, `Reflect.apply` bound to it, a proxy) cannot start a run with the Session's grant when
 * operator code calls it later. Read by descriptor: no getter of the operator's value runs to find it.
 *
 * Such a function is often reached through operator data (`references: { tools: { helper } }`), a class instance (a
 * registry's private field its `lookup('helper')` returns) or thrown by an operator function. Model code sees plain
 * data that holds any function (at any depth of plain data), and every instance of a class with a prototype of its
 * own, through a membrane: a proxy that reads and writes the operator's object, runs its getters and methods on the
 * object itself, and hands out, for each value it reads, that value's model-facing form. An operator function it hands
 * out (and a function a step names itself) is the same function with its own properties, its results, awaited ones
 * too, and what it throws seen the same way, and its arguments passed as the operator's: membranes unwrapped (also
 * inside plain data the model built), and a callback model code passes called with model-facing arguments. So the
 * adapter itself is never one read or call away. Only data that holds no function and can never come to (deep-frozen
 * plain data, such as the harness's snapshots) is handed out as it is (same identity); data the operator may still write
 * is seen through the membrane even while it holds none, so what the operator stores there later is model-facing too.
 * The reads here run while model code does (a step's expression reading a name, a membrane's trap, an operator
 * function it called returning) or on the operator's own values (dispatch's reference check): an operator getter or a
 * proxy trap they reach runs as it would have for the model's own read.
 */
import { isAnyArrayBuffer, isArrayBufferView, isGeneratorObject, isMap, isMapIterator, isPromise, isProxy, isSet, isSetIterator, isTypedArray, isWeakMap, isWeakSet } from 'node:util/types';
import { inspect, type InspectOptions } from 'node:util';
import { frozenWriteMessage } from './frozen-write-sight.js';
import { currentInterior, taintedByModelCode } from './interior.js';
import { reportRefusal } from './refusal-sink.js';

export const MODEL_FACING: unique symbol = Symbol('nighthawk.modelFacing');

const ownDescriptor = Reflect.getOwnPropertyDescriptor;
const ownKeys = Reflect.ownKeys;
const prototypeOf = Reflect.getPrototypeOf;
const reflectGet = Reflect.get;
const reflectSet = Reflect.set;
const reflectHas = Reflect.has;
const reflectDefine = Reflect.defineProperty;
const objectDefineProperty = Object.defineProperty;
const objectSetPrototypeOf = Object.setPrototypeOf;
const objectPreventExtensions = Object.preventExtensions;
const reflectDelete = Reflect.deleteProperty;
const reflectApply = Reflect.apply;
const reflectConstruct = Reflect.construct;
const objectHasOwn = Object.hasOwn;
// Captured at load, as every intrinsic here: model code may replace the globals, and these run as host code.
const objectCreate = Object.create;
const objectFreeze = Object.freeze;
const objectIsFrozen = Object.isFrozen;
const promiseThen = Promise.prototype.then;
const isArray = Array.isArray;
const ObjectPrototype = Object.prototype;
const inspectCustom = inspect.custom;
const ArrayPrototype = Array.prototype;

/** The model-facing function a value carries, if any (never running a getter; a proxy's trap does run). */
function facingOf(value: Function): Function | undefined {
  const d = ownDescriptor(value, MODEL_FACING);
  return d !== undefined && !d.configurable && typeof d.value === 'function' ? (d.value as Function) : undefined;
}

/** Operator object → its membrane, and back. */
const membranes = new WeakMap<object, object>();
const operatorObjects = new WeakMap<object, object>();

/**
 * Data found to hold no function, by the scan epoch it was found in. An epoch is one model
 * expression's evaluation (or one dispatch's references): within it the operator's data is read as it was, and
 * the next one looks again, since operator code may have stored a function since.
 */
const clean = new WeakMap<object, number>();
let epoch = 0;

/** Starts a new scan epoch: called before model code reads a step's or a dispatch's values. */
export function nextModelFacingEpoch(): void {
  epoch++;
}

/**
 * Properties a scan reads before it counts the value as holding a function (fail closed: the membrane then decides
 * per read, so a large array is looked through one element at a time, as model code reads it).
 */
const SCAN_BUDGET = 65_536;

/** A plain object (Object.prototype or no prototype: also a module namespace) or a plain array, not a proxy. */
function isPlainContainer(value: object): boolean {
  if (typeof value !== 'object' || isProxy(value)) return false;
  const proto = prototypeOf(value);
  return isArray(value) ? proto === ArrayPrototype : proto === ObjectPrototype || proto === null;
}

/**
 * Prototypes of the built-ins that keep their state in internal slots, so their own methods can hand out nothing the
 * operator stored but their own properties hold (an error's `cause`, a regexp's `lastIndex`). A WeakRef's `deref` can:
 * it is seen through the membrane whatever it holds.
 */
const slottedPrototypes = new WeakSet<object>(
  [Error, Date, RegExp, Boolean, Number, String, Symbol, BigInt, DataView, WeakRef, FinalizationRegistry].map((c) => c.prototype as object),
);
const WeakRefPrototype = WeakRef.prototype as object;
/**
 * Prototypes of the host's own classes that keep what they hold in private fields and hand out nothing else (the
 * read-only collections): an instance is looked through by the reader its class registered, like a Map.
 */
const heldReaders = new WeakMap<object, (value: object) => unknown[]>();

/** Registers how to read what an instance of a host class holds (scanned like a Map's entries; see objectKind). */
export function lookThroughInstancesOf(prototype: object, held: (value: object) => unknown[]): void {
  heldReaders.set(prototype, held);
}

/** Prototype chains longer than this are not walked: such an object is seen through the membrane. */
const CHAIN_LIMIT = 64;

/** Prototypes of the built-ins whose contents are numbers: a typed array (Node's Buffer among them), a buffer or a view. */
const numericPrototypes = new WeakSet<object>([
  ...[Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array, BigInt64Array, BigUint64Array, ArrayBuffer, SharedArrayBuffer].map((c) => c.prototype as object),
  prototypeOf(Uint8Array.prototype) as object,
  Buffer.prototype as object,
  DataView.prototype as object,
]);

/**
 * Whether `proto` is a layer a subclass adds that hands out nothing: its own properties, and its constructor's, are
 * data holding primitives (a `name`, a static code), besides the two that join them, and its constructor inherits from
 * the next layer's. A method, an accessor, a static holding an object or function, or a class chain that does not
 * match its prototype chain is the operator's own way to hand something out: not such a layer.
 */
function bareLayer(proto: object): boolean {
  const held = ownDescriptor(proto, 'constructor');
  const ctor: unknown = held?.value;
  if (typeof ctor !== 'function' || isProxy(ctor) || ownDescriptor(ctor, 'prototype')?.value !== proto) return false;
  const parent = prototypeOf(ctor);
  if (parent === null || ownDescriptor(parent, 'prototype')?.value !== prototypeOf(proto)) return false;
  return onlyPrimitives(proto, 'constructor') && onlyPrimitives(ctor, 'prototype');
}

/** Whether every own property of `value` but `joined` is a data property holding a primitive. */
function onlyPrimitives(value: object, joined: string): boolean {
  const keys = ownKeys(value);
  for (let i = 0; i < keys.length; i++) {
    if (keys[i] === joined) continue;
    const d = ownDescriptor(value, keys[i]!);
    if (d === undefined) continue;
    if (!('value' in d)) return false;
    const v: unknown = d.value;
    if (typeof v === 'function' || (typeof v === 'object' && v !== null)) return false;
  }
  return true;
}

/**
 * How model code sees an object that is not plain data:
 * - `scan`: seen through the membrane only when what it holds needs to be (needsMembrane): the host's read-only
 *   collections (by the reader their class registered), or a built-in keeping its state in internal slots (an error, a
 *   date), by its own properties; a typed array, a buffer or a view too, past its elements (numbers), by the properties
 *   the operator added;
 * - `always`: seen through the membrane whatever it holds: a Map or Set (the operator may set an entry after model code
 *   read it: see stillWritable), what cannot be looked through without being used up or
 *   without its keys (a WeakMap or WeakSet, a Map's or Set's iterator, a generator, a WeakRef), a proxy (looking
 *   would run its traps; the operator's reactive store or immutable-data draft holds what it holds), and every other object
 *   with a prototype of its own (an instance of the operator's class, Node's, a library's; an object inheriting from
 *   operator data), whose methods or accessors may hand out what no scan of its own properties finds (a private field);
 * - `promise`: its fulfilment seen as model code sees any value.
 * A subclass of a built-in counts as that built-in only while every layer it adds is bare (bareLayer): a method, a
 * getter or a static of the subclass could hand out what neither the instance's own properties nor its entries hold
 * (a private field's registry, the adapter itself), so such an instance is seen through the membrane.
 * Either way through the membrane, methods run on the object itself (its internal slots, its private fields), with
 * model-facing results.
 */
function objectKind(value: object): 'scan' | 'always' | 'promise' {
  if (isProxy(value)) return 'always';
  if (isMap(value) || isSet(value) || isWeakMap(value) || isWeakSet(value) || isMapIterator(value) || isSetIterator(value) || isGeneratorObject(value)) return 'always';
  if (isPromise(value)) return 'promise';
  const numeric = isArrayBufferView(value) || isAnyArrayBuffer(value);
  let proto = prototypeOf(value);
  for (let depth = 0; proto !== null && proto !== ObjectPrototype; depth++) {
    if (depth === CHAIN_LIMIT || isProxy(proto)) return 'always';
    if (numeric) {
      if (numericPrototypes.has(proto)) return 'scan';
    } else if (slottedPrototypes.has(proto) || heldReaders.has(proto)) return proto === WeakRefPrototype ? 'always' : 'scan';
    if (!bareLayer(proto)) return 'always';
    proto = prototypeOf(proto);
  }
  return 'always';
}

const typedArrayLength = ownDescriptor(prototypeOf(Uint8Array.prototype) as object, 'length')!.get!;
const mapEntries = Map.prototype.entries;
const setValues = Set.prototype.values;
const mapIteratorNext = (prototypeOf(new Map().entries()) as Iterator<unknown>).next;
const setIteratorNext = (prototypeOf(new Set().values()) as Iterator<unknown>).next;
/** A Map's keys and values, or a Set's values, read by the intrinsics (a subclass's own methods are not run). */
export function collectionItems(value: Map<unknown, unknown> | Set<unknown>): unknown[] {
  const out: unknown[] = [];
  const map = isMap(value);
  const iterator = reflectApply(map ? mapEntries : setValues, value, []) as Iterator<unknown>;
  const next = map ? mapIteratorNext : setIteratorNext;
  for (;;) {
    const step = reflectApply(next, iterator, []) as IteratorResult<unknown>;
    if (step.done === true) return out;
    if (map) {
      const entry = step.value as unknown[];
      out.push(entry[0], entry[1]);
    } else out.push(step.value);
  }
}

/** What a registered host collection holds (lookThroughInstancesOf); undefined for anything else. */
function heldItems(value: object): unknown[] | undefined {
  for (let proto = prototypeOf(value), depth = 0; proto !== null && depth < CHAIN_LIMIT; proto = prototypeOf(proto), depth++) {
    const read = heldReaders.get(proto);
    if (read !== undefined) return read(value);
  }
  return undefined;
}

/**
 * Whether `value` is plain data the operator may still write (not frozen; a Map or Set is 'always' for the same
 * reason). Handed out as it is, model code would keep the operator's own container, and a function the operator stores
 * there later (a registry filled once a tool is enabled, during the same expression) would reach model code unwrapped,
 * past every membrane. Deep-frozen data (the harness's snapshots) can never come to hold one.
 */
function stillWritable(value: object): boolean {
  return isPlainContainer(value) && !objectIsFrozen(value);
}

/**
 * Whether plain data holds a function at any depth, through own data properties (no getter runs), or could come to
 * hold one (stillWritable): model code then sees it through a membrane. An accessor, a property that cannot be read (a
 * module binding not yet initialized), or more properties than the budget counts as holding one.
 */
function needsMembrane(root: object): boolean {
  // Most values read are small leaves (a row of a table): no set or stack is made for them.
  let stack: object[] | undefined;
  let seen: Set<object> | undefined;
  let value: object | undefined = root;
  let budget = SCAN_BUDGET;
  /** Whether `v` decides it at once; else queues it when it is data to look through. */
  const holds = (v: unknown): boolean => {
    if (typeof v === 'function') return true;
    if (typeof v !== 'object' || v === null || v === root) return false;
    if (membranes.has(v)) return true;
    const kind = isPlainContainer(v) ? 'scan' : objectKind(v);
    if (kind === 'always' || kind === 'promise') return true;
    seen ??= new Set();
    if (seen.has(v)) return false;
    seen.add(v);
    (stack ??= []).push(v);
    return false;
  };
  try {
    while (value !== undefined) {
      if (clean.get(value) !== epoch) {
        if (stillWritable(value)) return true;
        // Listing a long array's keys would itself cost what the budget is there to bound. A typed array's elements
        // are numbers, listed first among its keys: only what follows them is read.
        const elements = isTypedArray(value) ? (reflectApply(typedArrayLength, value, []) as number) : 0;
        if ((isArray(value) && value.length > budget) || elements > budget) return true;
        const keys = ownKeys(value);
        const items = heldItems(value);
        budget -= keys.length + (items?.length ?? 0);
        if (budget < 0) return true;
        for (let i = elements; i < keys.length; i++) {
          const d = ownDescriptor(value, keys[i]!);
          if (d === undefined) continue;
          if (d.get !== undefined || d.set !== undefined) return true;
          if (holds(d.value)) return true;
        }
        if (items !== undefined) for (let i = 0; i < items.length; i++) if (holds(items[i])) return true;
      }
      value = stack?.pop();
    }
  } catch {
    return true;
  }
  clean.set(root, epoch);
  if (seen !== undefined) for (const v of seen) clean.set(v, epoch);
  return false;
}

/**
 * `value`'s model-facing form: a function's model-facing function, plain data holding functions (or still writable:
 * stillWritable) through a membrane,
 * else `value` (a function read this way, not as a step's name or an operator object's own property, is an engine's or
 * a prototype's: an array's `map`, a class's method).
 */
export function modelFacing(value: unknown): unknown {
  if (typeof value === 'function') return facingOf(value) ?? value;
  if (typeof value !== 'object' || value === null) return value;
  const existing = membranes.get(value);
  if (existing !== undefined) return existing;
  if (operatorObjects.has(value)) return value;
  if (isPlainContainer(value)) return needsMembrane(value) ? membrane(value, false) : value;
  const kind = objectKind(value);
  if (kind === 'promise') return facingPromise(value as Promise<unknown>);
  if (kind === 'scan' && !needsMembrane(value)) return value;
  return membrane(value, true);
}

/** A promise of the operator's, as model code sees it: settled with the model-facing form of its value (the same one per promise). */
function facingPromise(promise: Promise<unknown>): Promise<unknown> {
  const facing = reflectApply(promiseThen, promise, [facingOwn, thrownFacing]) as Promise<unknown>;
  // Made by reading, not by the model's call: a rejection no model code awaits is not an unhandled one of its own.
  reflectApply(promiseThen, facing, [undefined, ignoreRejection]);
  membranes.set(promise, facing);
  operatorObjects.set(facing, promise);
  return facing;
}

/**
 * The operator's object behind a membrane, or its function behind facingFunction's proxy (what model code passes back
 * to the host is stored as the operator's own). A SessionFunction's model-facing function stays what it is.
 */
export function operatorValue<T>(value: T): T {
  return (typeof value === 'object' && value !== null) || typeof value === 'function' ? ((operatorObjects.get(value as object) as T | undefined) ?? value) : value;
}

/**
 * `value` as the operator receives it from model code at any depth of plain data the model built: a membrane or an
 * operator function behind its proxy is the operator's own, and a plain container holding one is copied with it
 * unwrapped (the model keeps its container as it saw it). A container holding none keeps its identity: the
 * operator's own data handed back is its own. `[items[0]]` assigned to a binding is then an array of the operator's item.
 */
export function operatorValueDeep<T>(value: T): T {
  if (typeof value === 'function') return operatorValue(value);
  if (typeof value !== 'object' || value === null) return value;
  const own = operatorObjects.get(value);
  if (own !== undefined) return own as T;
  return isPlainContainer(value) ? (unwrapped(value, new Map(), { budget: SCAN_BUDGET }, operatorValue) as T) : value;
}

// Captured at load, as the intrinsics above: model code may replace the global.
const hostStructuredClone = structuredClone;
/**
 * `structuredClone` as model code names it (an expression's scope, generated code's shadows): the engine's cannot clone
 * a proxy, and operator data the operator may still write is seen through one (the membrane), so the clone is made of
 * the operator's data the model sees. A clone is fresh data with no function in it (a function fails the clone as it
 * does on the object itself); an operator getter it reads runs as the model's own read of it would.
 */
export function facingStructuredClone<T>(value: T, options?: Parameters<typeof structuredClone>[1]): T {
  return hostStructuredClone(operatorValueDeep(value), options);
}

/**
 * What model code stores in an operator object (a write or a definition through a membrane) or passes to an operator
 * function, as the operator holds it: operatorValueDeep's unwrapping, and each function of the model's, at any depth of
 * plain data it built, as the operator calls it (operatorCallback). Stored as it is, a function of the model's read
 * back through the membrane would be handed out as an operator function, one that unwraps its arguments: model code
 * calling it with operator data would get the operator's own objects. Operator code calling a membrane (one model
 * code left in its data) passes its own values: they are only unwrapped (a function of its own stays itself).
 */
function operatorStored(value: unknown, byModelCode?: boolean): unknown {
  if (typeof value !== 'function' && (typeof value !== 'object' || value === null)) return value;
  if (!(byModelCode ?? modelCodeCalling())) return operatorValueDeep(value);
  if (typeof value === 'function') return operatorCallback(value);
  const own = operatorObjects.get(value);
  if (own !== undefined) return own;
  return isPlainContainer(value) ? unwrapped(value, new Map(), { budget: SCAN_BUDGET }, operatorCallback) : value;
}

/** Whether model code (marked, or run by an unmarked caller in this job) is what calls into the membrane now. */
function modelCodeCalling(): boolean {
  return currentInterior() !== undefined || taintedByModelCode() !== undefined;
}

/** operatorValueDeep's walk: each container once (a cycle refers to the container as it was), within the scan budget. */
function unwrapped(container: object, done: Map<object, object>, left: { budget: number }, asOperator: (fn: Function) => unknown): object {
  const prior = done.get(container);
  if (prior !== undefined) return prior;
  done.set(container, container);
  const keys = ownKeys(container);
  left.budget -= keys.length;
  if (left.budget < 0) return container;
  let copy: object | undefined;
  for (let i = 0; i < keys.length; i++) {
    const d = ownDescriptor(container, keys[i]!);
    if (d === undefined || !('value' in d)) continue;
    const v: unknown = d.value;
    let next = v;
    if (typeof v === 'function') next = asOperator(v);
    else if (typeof v === 'object' && v !== null) next = operatorObjects.get(v) ?? (isPlainContainer(v) ? unwrapped(v, done, left, asOperator) : v);
    if (next === v) continue;
    copy ??= copyOf(container);
    reflectDefine(copy, keys[i]!, { ...d, value: next });
  }
  if (copy === undefined) return container;
  if (objectIsFrozen(container)) objectFreeze(copy);
  done.set(container, copy);
  return copy;
}

/** A plain container's copy: its prototype and every own property as defined (no getter runs). */
function copyOf(container: object): object {
  const copy: object = isArray(container) ? [] : (objectCreate(prototypeOf(container)) as object);
  const keys = ownKeys(container);
  for (let i = 0; i < keys.length; i++) {
    const d = ownDescriptor(container, keys[i]!)!;
    if (isArray(copy) && keys[i] === 'length') (copy as unknown[]).length = (container as unknown[]).length;
    else reflectDefine(copy, keys[i]!, d);
  }
  return copy;
}

const ignoreRejection = (): undefined => undefined;

/**
 * The membrane a `Reflect` write was called on (the harness's recording Reflect.set, defineProperty, deleteProperty and
 * setPrototypeOf, silent-refusals.ts), taken by the first write trap of that membrane it reaches.
 */
let reflectWriteTarget: unknown;

/**
 * Calls `write`, a `Reflect` write, with `args` (its target first): a membrane's trap then answers the engine's refusal
 * of the write on the operator's object as that `Reflect` method answers it on an unwrapped object (`false`), not as
 * the strict write it makes (a TypeError). A `false` is recorded only by the harness's Reflect methods, so it is
 * theirs alone: claimReflectWriteAnswer.
 */
function answeringReflectWrite(write: Function, self: unknown, args: readonly unknown[]): unknown {
  const prior = reflectWriteTarget;
  reflectWriteTarget = args[0];
  try {
    return reflectApply(write, self, args);
  } finally {
    reflectWriteTarget = prior;
  }
}

let reflectAnswerClaimed = false;

/** answeringReflectWrite for the harness: the first call (silent-refusals.ts, as it loads) gets it; every later one undefined. */
export function claimReflectWriteAnswer(): typeof answeringReflectWrite | undefined {
  if (reflectAnswerClaimed) return undefined;
  reflectAnswerClaimed = true;
  return answeringReflectWrite;
}

/** Whether this trap of `proxy` answers a `Reflect` write (taken once: writes nested under it are ordinary ones). */
function answeringReflect(proxy: object): boolean {
  if (reflectWriteTarget !== proxy) return false;
  reflectWriteTarget = undefined;
  return true;
}

/** A write trap's failure: `false` for the engine's refusal of a `Reflect` write, else thrown on model-facing. */
function refusedWrite(error: unknown, quiet: boolean): false {
  if (quiet && frozenWriteMessage(error) !== undefined) return false;
  thrownFacing(error);
}

/** A value an operator function (or getter) threw, thrown on to model code in its model-facing form. */
function thrownFacing(thrown: unknown): never {
  throw facingOwn(thrown);
}

/** A value a model's callback threw, thrown on to the operator as its own. */
function thrownOperator(thrown: unknown): never {
  throw operatorValue(thrown);
}

/** A model's callback → its wrapper as the operator holds it (operatorObjects maps the wrapper back). */
const callbacks = new WeakMap<Function, Function>();

/**
 * A function model code hands the operator (an argument, or stored in its data: operatorStored), as the operator
 * holds it: its own function for a membrane, a SessionFunction's model-facing function as it is, and any other
 * called with model-facing arguments and its result as the operator's, so an operator that calls back with an adapter
 * hands the model only the adapter's model-facing function. The same wrapper for the same callback (a listener
 * removed later).
 */
function operatorCallback(fn: Function): unknown {
  const own = operatorObjects.get(fn);
  if (own !== undefined) return own;
  if (standIns.has(fn)) return fn;
  let wrapped = callbacks.get(fn);
  if (wrapped === undefined) {
    wrapped = crossing(fn);
    callbacks.set(fn, wrapped);
    operatorObjects.set(wrapped, fn);
  }
  return wrapped;
}

/**
 * A model's callback as the operator calls it: its `this` and arguments model-facing, its result and what it throws
 * the operator's own (the other direction of a function's membrane, which needs no shadow: model code holds the
 * callback itself).
 */
function crossing(fn: Function): Function {
  const proxy: Function = new Proxy(fn, {
    apply: (target, thisArg, values): unknown => {
      let out: unknown;
      try {
        out = reflectApply(target, modelFacing(thisArg), facingArguments(values));
      } catch (error) {
        thrownOperator(error);
      }
      return operatorValue(out);
    },
    construct: (target, values, newTarget): object => {
      let out: object;
      try {
        out = reflectConstruct(target, facingArguments(values), newTarget === proxy ? target : newTarget);
      } catch (error) {
        thrownOperator(error);
      }
      return operatorValue(out);
    },
  });
  return proxy;
}

/** Each of `args` as model code sees it (facingOwn): what a model's callback, or a generated export, is called with. */
export function facingArguments(args: readonly unknown[]): unknown[] {
  const out = new Array<unknown>(args.length);
  for (let i = 0; i < args.length; i++) out[i] = facingOwn(args[i]);
  return out;
}

/** The arguments of a call into an operator function, each as operatorStored makes it (who calls is asked once). */
function operatorArguments(args: unknown[]): unknown[] {
  const out = new Array<unknown>(args.length);
  let byModelCode: boolean | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    out[i] = typeof a !== 'function' && (typeof a !== 'object' || a === null) ? a : operatorStored(a, (byModelCode ??= modelCodeCalling()));
  }
  return out;
}

/**
 * An operator function as model code calls it: the same function (name, length, properties, `prototype`), called
 * with the operator's arguments (operatorArguments) and its `this` unwrapped, its result and what it throws model-facing.
 */
function facingFunction(fn: Function): Function {
  return (membranes.get(fn) ?? membrane(fn, true)) as Function;
}

/**
 * `fn` as model code calls it (facingFunction): for a SessionFunction's model-facing function, so what its body returns
 * or hands a callback of the model's is model-facing too. Host machinery: the public module's refuses model code.
 */
export function modelFacingFunction<F extends Function>(fn: F): F {
  // A plain function, not facingFunction's proxy: a callback a model queues where only built-ins, bound functions and
  // proxies are held back (a tick, a stream's completion) reaches the SessionFunction, which refuses there itself.
  const standIn = function (this: unknown, ...args: unknown[]): unknown {
    let out: unknown;
    try {
      out = reflectApply(fn, operatorValue(this), operatorArguments(args));
    } catch (error) {
      thrownFacing(error);
    }
    return facingOwn(out);
  };
  standIns.add(standIn);
  return standIn as unknown as F;
}

/** What modelFacingFunction made: model-facing already, handed on as it is (not wrapped again, either way). */
const standIns = new WeakSet<Function>();

/**
 * A value read from an operator object's own property (or its accessor) through a membrane, handed by name to a step
 * or a dispatch (exported as `modelFacingReference`), or returned by an operator function: an operator function as
 * facingFunction makes it, a proxy of the operator's included (its traps run as for any read of it). A function this
 * module made is one already, as is a SessionFunction's model-facing function.
 */
function facingOwn(value: unknown): unknown {
  if (typeof value !== 'function') return modelFacing(value);
  // Made here already: a membrane is handed out as it is, a model's callback as the operator holds it
  // (operatorCallback) as the model's own function.
  const own = operatorObjects.get(value);
  if (own !== undefined) return callbacks.get(own as Function) === value ? own : value;
  const facing = facingOf(value);
  if (facing !== undefined) return facing;
  if (standIns.has(value)) return value;
  // An operator function read before has its membrane: its text is read once, the first time.
  return membranes.get(value) ?? (modelDefined(value) ? value : facingFunction(value));
}
export { facingOwn as modelFacingReference };

const functionText = Function.prototype.toString;
/**
 * A call under the reserved prefix: the guards put one in every function model code defines (a model expression's:
 * expression-guard.ts; generated code's: guard-transform.ts). Model text cannot spell such a name itself (both refuse
 * the prefix), and an operator's source does not.
 */
const GUARD_CALL = /\b__nh_\w+\(/;
const modelFunctions = new WeakSet<Function>();

/**
 * Whether model code defined `fn` (its text carries a guard's call): read back from where model code left it inside
 * something it built (a Map, a Set, an instance of its own class) and stored in operator data, it is the model's own,
 * not an operator function that would unwrap its arguments. A bound function or a proxy reads as native code: an
 * operator function, as before (fail closed).
 */
function modelDefined(fn: Function): boolean {
  if (modelFunctions.has(fn)) return true;
  let text: string;
  try {
    text = reflectApply(functionText, fn, []) as string;
  } catch {
    return false;
  }
  if (!GUARD_CALL.test(text)) return false;
  modelFunctions.add(fn);
  return true;
}

/**
 * Refused, and recorded (`operator_data_pin`): a membrane's shadow never becomes non-extensible nor gets a
 * non-configurable property, so it could not report the operator's object pinned. No Nighthawk operation needs either.
 */
function refusePin(action: 'prevent-extensions' | 'define-non-configurable', key?: PropertyKey): false {
  reportRefusal('operator_data_pin', key === undefined ? { action } : { action, key: typeof key === 'symbol' ? 'a symbol' : key });
  return false;
}

/**
 * `methods`: a collection's (or iterator's, or class instance's) inherited functions too are handed out as
 * facingFunction makes them, so they run on the object itself (its internal slots, its private fields) with
 * model-facing results; a plain array's run on the membrane. A function's membrane is callable: called or constructed,
 * it calls the operator's function with the operator's arguments (operatorArguments) and its `this` unwrapped, and hands
 * back its result and what it throws model-facing.
 */
function membrane(target: object, methods: boolean): object {
  // The proxy's own target is a shadow (an empty array for an array, so `Array.isArray` holds; a function of the same
  // kind for a function): the proxy may then report a value other than the operator's own (its model-facing form)
  // without breaking a proxy invariant.
  const shadow = shadowOf(target);
  // A frozen object (an array too) is seen through a frozen shadow holding its properties model-facing (frozenMembrane).
  const frozen = objectIsFrozen(target);
  // Node's `inspect` (console.log) shows a proxy's target, not what its traps report: the shadow shows the operator's
  // object instead. Model code never reads it (every read goes to the operator's object). A frozen shadow has no
  // property the operator's object lacks: it shows its model-facing copy.
  if (!frozen) reflectDefine(shadow, inspectCustom, { value: (depth: number, options: InspectOptions, show: typeof inspect) => (depth < 0 ? '[Object]' : show(target, { ...options, depth })), configurable: true });
  // The shadow's one non-configurable property, writable there (an array's `length`, a function's `prototype`):
  // reported so (a frozen object's shadow is a frozen copy instead, and reports its own).
  const pinnedKey = frozen ? undefined : isArray(target) ? 'length' : typeof target === 'function' && objectHasOwn(target, 'prototype') ? 'prototype' : undefined;
  const handler: ProxyHandler<object> = {
    // An own function is handed out with its results model-facing; an inherited one (an array's `map`) as it is. A
    // getter runs on the operator's object (its private fields), and what it throws is model-facing too.
    // Read through as a prototype (an object model code made inheriting from this one), a getter runs on that object.
    get: (_s, key, receiver) => {
      try {
        const value = reflectGet(target, key, receiver === proxy ? target : receiver);
        if (key === 'prototype' && key === pinnedKey) return facingPrototype(value as object | null);
        return methods || objectHasOwn(target, key) ? facingOwn(value) : modelFacing(value);
      } catch (error) {
        thrownFacing(error);
      }
    },
    // Writes are made as strict code makes them on the operator's object, so a refused one (a frozen value) throws the
    // engine's own TypeError, which the host records as a frozen write, not a proxy's "trap returned falsish". Written
    // through as a prototype, the write is the receiver's, as without the membrane.
    set: (_s, key, value, receiver) => {
      if (receiver !== proxy) return reflectSet(target, key, value, receiver);
      const quiet = answeringReflect(proxy);
      try {
        (target as Record<PropertyKey, unknown>)[key] = operatorStored(value);
      } catch (error) {
        return refusedWrite(error, quiet);
      }
      return true;
    },
    has: (_s, key) => reflectHas(target, key),
    deleteProperty: (_s, key) => {
      const quiet = answeringReflect(proxy);
      try {
        delete (target as Record<PropertyKey, unknown>)[key];
      } catch (error) {
        return refusedWrite(error, quiet);
      }
      return true;
    },
    ownKeys: () => ownKeys(target),
    // A class's prototype (and a subclass's parent) is model-facing too, so its `constructor` is not the class itself;
    // `instanceof` holds, since the class's `prototype` is read the same way.
    getPrototypeOf: () => facingPrototype(prototypeOf(target)),
    // The operator's object changes (the shadow stays extensible, so no invariant ties it): the host's own checks of
    // its objects (a store's prototype) see the change as they would have without the membrane.
    setPrototypeOf: (_s, proto) => {
      const quiet = answeringReflect(proxy);
      try {
        objectSetPrototypeOf(target, operatorValue(proto));
      } catch (error) {
        return refusedWrite(error, quiet);
      }
      return true;
    },
    preventExtensions: () => refusePin('prevent-extensions'),
    defineProperty: (_s, key, d) => {
      // Non-configurable would have to be mirrored on the shadow; model code has no need to pin operator data.
      // The shadow's pinned property stays writable there: made read-only, it would no longer report what it holds.
      // A new property defined without `configurable` is non-configurable (the engine's default). A frozen object has
      // nothing left to pin: the engine takes a definition that changes nothing and refuses any other.
      const pins = !frozen && (d.configurable === false || (d.configurable === undefined && !objectHasOwn(target, key)));
      if ((pins && key !== pinnedKey) || (key === pinnedKey && d.writable === false)) return refusePin('define-non-configurable', key);
      const quiet = answeringReflect(proxy);
      try {
        objectDefineProperty(target, key, storedDescriptor(d));
      } catch (error) {
        return refusedWrite(error, quiet);
      }
      return true;
    },
    getOwnPropertyDescriptor: (_s, key) => {
      const d = ownDescriptor(target, key);
      if (d === undefined) return undefined;
      if (key === pinnedKey) return { value: key === 'prototype' ? facingPrototype(d.value as object | null) : d.value, writable: true, enumerable: d.enumerable, configurable: false };
      // Every other property is reported configurable, as the shadow lacks it.
      if ('value' in d) return { value: facingOwn(d.value), writable: d.writable, enumerable: d.enumerable, configurable: true };
      return { get: facingOwn(d.get) as (() => unknown) | undefined, set: facingOwn(d.set) as ((v: unknown) => void) | undefined, enumerable: d.enumerable, configurable: true };
    },
  };
  if (typeof target === 'function') {
    handler.apply = (_s, thisArg, values): unknown => {
      let out: unknown;
      try {
        out = reflectApply(target, operatorValue(thisArg), operatorArguments(values));
      } catch (error) {
        thrownFacing(error);
      }
      return facingOwn(out);
    };
    handler.construct = (_s, values, newTarget): object => {
      let out: object;
      try {
        out = reflectConstruct(target, operatorArguments(values), newTarget === proxy ? target : operatorValue(newTarget));
      } catch (error) {
        thrownFacing(error);
      }
      return facingOwn(out) as object;
    };
  }
  if (frozen) frozenMembrane(target, shadow, handler);
  const proxy = new Proxy(shadow, handler);
  membranes.set(target, proxy);
  operatorObjects.set(proxy, target);
  return proxy;
}

/**
 * A frozen object's membrane: its shadow becomes, at the first trap, a frozen copy of the object's own properties in
 * their model-facing forms (data values as steadyFacing makes them, accessors as facingOwn does) with the object's
 * prototype as a membrane reports it. The proxy then reports what the engine holds a frozen object to: frozen
 * (`Object.isFrozen`, and `Object.freeze` accepted with nothing to pin), the same value per read, the same prototype,
 * no property added. Writes, deletes, definitions and a prototype set are made on the operator's object, so each is the
 * engine's own refusal, as without the membrane. Filled on first use so a deep frozen structure is copied one level at a time.
 */
function frozenMembrane(target: object, shadow: object, handler: ProxyHandler<object>): void {
  let filled = false;
  const ready = (): void => {
    if (filled) return;
    filled = true;
    // A function's own properties the operator's lacks (a `name` it deleted before freezing) go first.
    for (const key of ownKeys(shadow)) if (!objectHasOwn(target, key)) reflectDelete(shadow, key);
    for (const key of ownKeys(target)) {
      const d = ownDescriptor(target, key);
      if (d === undefined) continue;
      reflectDefine(
        shadow,
        key,
        'value' in d
          ? { value: key === 'prototype' && typeof target === 'function' ? facingPrototype(d.value as object | null) : steadyFacing(d.value), writable: false, enumerable: d.enumerable, configurable: false }
          : { get: facingOwn(d.get) as (() => unknown) | undefined, set: facingOwn(d.set) as ((v: unknown) => void) | undefined, enumerable: d.enumerable, configurable: false },
      );
    }
    objectSetPrototypeOf(shadow, facingPrototype(prototypeOf(target)));
    objectPreventExtensions(shadow);
  };
  const { get, set, deleteProperty, setPrototypeOf, defineProperty } = handler;
  // An own data property reads as the copy holds it (the engine holds the proxy to that); a getter or an inherited
  // property reads as any membrane reads it.
  handler.get = (s, key, receiver) => {
    ready();
    const d = ownDescriptor(shadow, key);
    return d !== undefined && 'value' in d ? d.value : get!(s, key, receiver);
  };
  handler.set = (s, key, value, receiver) => (ready(), set!(s, key, value, receiver));
  handler.deleteProperty = (s, key) => (ready(), deleteProperty!(s, key));
  handler.setPrototypeOf = (s, proto) => (ready(), setPrototypeOf!(s, proto));
  handler.defineProperty = (s, key, d) => (ready(), defineProperty!(s, key, d));
  handler.getOwnPropertyDescriptor = (_s, key) => (ready(), ownDescriptor(shadow, key));
  handler.ownKeys = () => (ready(), ownKeys(shadow));
  handler.getPrototypeOf = () => (ready(), prototypeOf(shadow));
  handler.isExtensible = () => (ready(), false);
  // Frozen already: freezing it again pins nothing.
  handler.preventExtensions = () => (ready(), true);
}

/**
 * A property model code defines on an operator object, as the operator's object holds it: its value as operatorStored
 * makes it, and a getter or setter of the model's as the operator's reads call it (with the membrane as `this`).
 */
function storedDescriptor(d: PropertyDescriptor): PropertyDescriptor {
  const own: PropertyDescriptor = { ...d };
  if ('value' in d) own.value = operatorStored(d.value);
  if (typeof d.get === 'function') own.get = operatorCallback(d.get) as () => unknown;
  if (typeof d.set === 'function') own.set = operatorCallback(d.set) as (v: unknown) => void;
  return own;
}

/**
 * A frozen object's property as its membrane's copy holds it: the same for every read, so plain data and slotted
 * built-ins are seen through a membrane whether or not they hold a function now (the operator may store one later).
 */
function steadyFacing(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || membranes.has(value) || operatorObjects.has(value)) return facingOwn(value);
  const plain = isPlainContainer(value);
  return plain || objectKind(value) === 'scan' ? membrane(value, !plain) : facingOwn(value);
}

/**
 * A membrane's shadow: an empty array, a null-prototype object, or a function that is callable and constructible as
 * the operator's is and has a `prototype` exactly when it does.
 */
function shadowOf(target: object): object {
  if (isArray(target)) return [];
  if (typeof target !== 'function') return objectCreate(null) as object;
  if (objectHasOwn(target, 'prototype')) return function () {};
  return isConstructor(target) ? reflectApply(functionBind, function () {}, [null]) : () => {};
}

const functionBind = Function.prototype.bind;

/** Whether `fn` can be called with `new` (asked of the engine, with no code of `fn`'s run). */
function isConstructor(fn: Function): boolean {
  try {
    reflectConstruct(Object, [], fn);
    return true;
  } catch {
    return false;
  }
}

/**
 * The intrinsic prototypes: a membrane reports them as they are (`Object.prototype`, `Function.prototype`, `Map.prototype`,
 * an iterator's), so `instanceof` a built-in holds and nothing of the engine's is wrapped.
 */
const intrinsicPrototypes = new WeakSet<object>();
{
  const constructors: Function[] = [Object, Function, Array, Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError, AggregateError,
    Date, RegExp, Boolean, Number, String, Symbol, BigInt, Promise, Map, Set, WeakMap, WeakSet, WeakRef, FinalizationRegistry, ArrayBuffer,
    SharedArrayBuffer, DataView, Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array,
    Float64Array, BigInt64Array, BigUint64Array];
  const objects: unknown[] = constructors.map((c) => c.prototype);
  const generatorFunction = prototypeOf(function* () {}) as { prototype: object };
  const asyncGeneratorFunction = prototypeOf(async function* () {}) as { prototype: object };
  objects.push(
    prototypeOf(Uint8Array.prototype), // %TypedArray%.prototype
    prototypeOf(prototypeOf([][Symbol.iterator]())!), // %IteratorPrototype%
    prototypeOf([][Symbol.iterator]()),
    prototypeOf(new Map().entries()),
    prototypeOf(new Set().values()),
    prototypeOf(''[Symbol.iterator]()),
    prototypeOf(/./[Symbol.matchAll]('')),
    generatorFunction,
    generatorFunction.prototype,
    asyncGeneratorFunction,
    asyncGeneratorFunction.prototype,
    prototypeOf(asyncGeneratorFunction.prototype), // %AsyncIteratorPrototype%
    prototypeOf(async function () {}),
  );
  for (const o of objects) if ((typeof o === 'object' && o !== null) || typeof o === 'function') intrinsicPrototypes.add(o);
}

/**
 * A prototype as a membrane reports it (also as a function's `prototype`, so `instanceof` holds): an intrinsic one (or
 * null) as it is; any other model-facing, so its `constructor` is not the class itself and its methods' results are
 * model-facing, also where the operator froze it (the library's classes freeze theirs: model code may freeze one again,
 * and its writes fail as the engine's refusal, frozenMembrane).
 */
function facingPrototype(proto: object | null): object | null {
  if (proto === null || intrinsicPrototypes.has(proto)) return proto;
  return facingOwn(proto) as object;
}
