/**
 * Detection of built-in prototype and global modification by interior code (issue 13, item 4). The
 * own properties of the built-in prototypes, constructors, namespaces and globals are recorded once at
 * installation; at the end of each operation and dispatch node any difference is recorded as a
 * `builtin_modified` trace anomaly naming the property, and the original is put back so later runs (and
 * the host, which shares this realm) see the built-ins they were loaded with.
 *
 * Detective: a modification is visible to everything that runs before the check. Properties that cannot
 * be restored (made non-configurable by the modifier) are recorded as such.
 */

import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { Socket } from 'node:net';
import { Duplex, Readable, Stream, Transform, Writable } from 'node:stream';
import { defineProperty, deleteProperty, getOwnPropertyDescriptor, getPrototypeOf, hashPrototype, isExtensible, stringStartsWith, objectIs, ownKeys, setHas, setPrototypeOf, symbolDescription } from './intrinsics.js';

interface Watched {
  readonly name: string;
  /** Namespaces other code legitimately extends (globals, process): only their original properties are watched. */
  readonly originalOnly: boolean;
  /** Checked after every operation: key additions, and these keys' descriptors. */
  readonly hotAdditions: boolean;
  readonly hotKeys: readonly PropertyKey[];
  /** Checked in full before each model request (see PROVIDER). */
  readonly provider: boolean;
  /** Checked before each model request like the hot set (added keys, and these keys' descriptors). */
  readonly providerKeys: readonly PropertyKey[] | undefined;
  readonly extensible: boolean;
  readonly target: object;
  readonly proto: object | null;
  readonly keys: readonly PropertyKey[];
  /** Null-prototype record keyed like the target: no lookup here goes through a shared prototype. */
  readonly descriptors: Record<PropertyKey, PropertyDescriptor>;
  /** `descriptors` in `keys` order, for the full check's common case: the same keys in the same order. */
  readonly ordered: readonly PropertyDescriptor[];
}

/** `hot`: after every operation; `provider`: before every model request; `full`: everything, at the other seams. */
export type RealmScope = 'hot' | 'provider' | 'full';

export interface RealmChange {
  /** For example `Object.prototype.toJSON` or `globalThis.JSON`. */
  readonly property: string;
  readonly change: 'added' | 'changed' | 'deleted' | 'prototype' | 'frozen';
  readonly restored: boolean;
}

let watched: Watched[] | undefined;
let realmChecksActive = true;

/** For `bench/` only: measures the cost of the checks. */
export function setRealmChecksActive(on: boolean): void {
  realmChecksActive = on;
}

const keyName = (key: PropertyKey): string => (typeof key === 'symbol' ? `[${symbolDescription(key) ?? 'symbol'}]` : `${key}`);

function watchList(): [string, object][] {
  const g = globalThis as Record<string, unknown>;
  const list: [string, object][] = [];
  const add = (name: string, value: unknown) => {
    if ((typeof value === 'object' && value !== null) || typeof value === 'function') list.push([name, value as object]);
  };
  const ctors = [
    'Object', 'Function', 'Array', 'String', 'Number', 'Boolean', 'Symbol', 'BigInt', 'RegExp', 'Error', 'Map', 'Set', 'WeakMap', 'WeakSet',
    'WeakRef', 'Promise', 'Headers', 'Date', 'ArrayBuffer', 'DataView', 'Uint8Array', 'AbortController', 'AbortSignal', 'EventTarget',
    // What the provider client sends and reads its replies with (the reply's usage is what the allocation counts).
    'Request', 'Response', 'URL', 'URLSearchParams', 'TextDecoder', 'TextEncoder', 'ReadableStream',
  ];
  for (const c of ctors) {
    add(c, g[c]);
    add(`${c}.prototype`, (g[c] as { prototype?: unknown } | undefined)?.prototype);
  }
  for (const ns of ['JSON', 'Reflect', 'Math', 'WebAssembly']) add(ns, g[ns]);
  // What the host's record walk reads: typed arrays' shared prototype and the collection iterators.
  add('TypedArray.prototype', getPrototypeOf(Uint8Array.prototype));
  add('MapIterator.prototype', getPrototypeOf(new Map().entries()));
  add('SetIterator.prototype', getPrototypeOf(new Set().values()));
  add('AsyncFunction.prototype', getPrototypeOf(async function () {}));
  add('GeneratorFunction.prototype', getPrototypeOf(function* () {}));
  add('AsyncGeneratorFunction.prototype', getPrototypeOf(async function* () {}));
  add('Generator.prototype', getPrototypeOf(getPrototypeOf((function* () {})()) as object));
  add('ArrayIterator.prototype', getPrototypeOf([][Symbol.iterator]()));
  add('Iterator.prototype', getPrototypeOf(getPrototypeOf([][Symbol.iterator]()) as object));
  add('process', process);
  add('console', console);
  add('globalThis', globalThis);
  // Host objects every model reaches through `process`: the emitter behind it and every stream (servers,
  // sockets, the kernel's channels), and the standard streams' own classes (tty, file or socket, by how the
  // process was started). A method replaced there would run for every emitter or stream of the host.
  const seen = new Set<object>(list.map(([, target]) => target));
  const addProto = (name: string, proto: unknown): void => {
    if ((typeof proto !== 'object' && typeof proto !== 'function') || proto === null || seen.has(proto)) return;
    seen.add(proto);
    add(name, proto);
  };
  addProto('EventEmitter.prototype', EventEmitter.prototype);
  // The dispatcher's own classes (touching the globals above made Node create it): a method replaced there would
  // see every request fetch sends.
  const dispatcher = (globalThis as Record<PropertyKey, unknown>)[UNDICI_DISPATCHER];
  if (typeof dispatcher === 'object' && dispatcher !== null) {
    for (let proto: unknown = getPrototypeOf(dispatcher); proto !== null && proto !== EventEmitter.prototype && proto !== Object.prototype; proto = getPrototypeOf(proto as object)) {
      const ctor = getOwnPropertyDescriptor(proto as object, 'constructor')?.value as { name?: unknown } | undefined;
      addProto(`undici.${typeof ctor?.name === 'string' ? ctor.name : 'anonymous'}.prototype`, proto);
    }
  }
  // What the host hashes identities and writes ids with (intrinsics.ts captures the methods it calls itself).
  addProto('crypto.Hash.prototype', hashPrototype);
  addProto('Buffer.prototype', Buffer.prototype);
  for (const [name, ctor] of [['Stream', Stream], ['Readable', Readable], ['Writable', Writable], ['Duplex', Duplex], ['Transform', Transform], ['net.Socket', Socket]] as const) {
    addProto(`${name}.prototype`, ctor.prototype);
  }
  // The socket class HTTPS requests (the provider's among them) are written through: a `write` put on its prototype
  // would shadow net.Socket's. Loaded here, at the first run, not when the library is imported.
  addProto('tls.TLSSocket.prototype', (createRequire(import.meta.url)('node:tls') as typeof import('node:tls')).TLSSocket.prototype);
  for (const [name, stream] of [['process.stdout', process.stdout], ['process.stderr', process.stderr]] as const) {
    for (let proto: unknown = getPrototypeOf(stream); proto !== null && proto !== Object.prototype; proto = getPrototypeOf(proto as object)) {
      const ctor = getOwnPropertyDescriptor(proto as object, 'constructor')?.value as { name?: unknown } | undefined;
      addProto(`${name}:${typeof ctor?.name === 'string' ? ctor.name : 'anonymous'}.prototype`, proto);
    }
  }
  return list;
}

/**
 * Checked after every operation, cheaply: any key added to these prototypes (an inherited `toJSON`, an
 * enumerable key that breaks strict parsing), every array method, and the few other methods the host
 * calls on every record.
 */
const HOT_ADDITIONS: ReadonlySet<string> = new Set(['Object.prototype', 'Array.prototype']);
const ALL: readonly PropertyKey[] = [];
const HOT_KEYS: Readonly<Record<string, readonly PropertyKey[]>> = {
  __proto__: null,
  'Array.prototype': ALL,
  JSON: ['stringify', 'parse'],
  'RegExp.prototype': ['test', 'exec'],
  'Function.prototype': ['call', 'apply', 'bind'],
  // The provider client sets its key through these; a patched one would capture it.
  'Headers.prototype': ['append', 'set'],
} as never;

/**
 * What the provider client sends a model request with, waits on and reads its reply with (the reply's usage is what
 * the cost allocation counts), checked in full before each request. The whole set would add ~0.07 ms to every model
 * turn; what a replaced built-in outside it could do inside the request is bounded by the request's allowance,
 * which admits the network only (host-context.ts), and it is put back at the next full check.
 */
const PROVIDER: ReadonlySet<string> = new Set([
  'globalThis', 'JSON', 'Object', 'Promise', 'Promise.prototype', 'Headers.prototype', 'Request.prototype', 'Response.prototype',
  'URL.prototype', 'URLSearchParams.prototype', 'TextDecoder.prototype', 'TextEncoder.prototype', 'ReadableStream.prototype',
  // Its abort signal and the timer behind it: the client checks and listens to one in every request.
  'AbortController.prototype', 'AbortSignal', 'AbortSignal.prototype', 'EventTarget.prototype',
]);

/**
 * The stream classes the request is written to (its headers carry the key): before each request only the write
 * path's methods are checked (changed, or added where the class only inherits them); their full check, at the
 * other seams, would cost about 20 µs on every model turn.
 */
const WRITE_PATH: readonly PropertyKey[] = ['write', '_write', '_writev', '_writeGeneric', 'end', 'cork', 'uncork', 'pipe', 'emit', 'push'];
const PROVIDER_KEYS: Readonly<Record<string, readonly PropertyKey[]>> = {
  __proto__: null,
  'Stream.prototype': WRITE_PATH,
  'Writable.prototype': WRITE_PATH,
  'Duplex.prototype': WRITE_PATH,
  'net.Socket.prototype': WRITE_PATH,
  'tls.TLSSocket.prototype': WRITE_PATH,
} as never;

const UNDICI_DISPATCHER = Symbol.for('undici.globalDispatcher.1');
const GLOBAL_NAMES: readonly PropertyKey[] = [
  'Object', 'Function', 'Array', 'String', 'Number', 'Boolean', 'Symbol', 'BigInt', 'RegExp', 'Date', 'Error', 'TypeError', 'Map', 'Set',
  'WeakMap', 'WeakSet', 'Promise', 'Proxy', 'Reflect', 'JSON', 'Math', 'eval', 'fetch', 'Headers', 'Request', 'Response', 'URL', 'Buffer',
  'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'structuredClone', 'WebAssembly', 'process', 'console', 'globalThis',
  // The rest of the standard functions host and provider code call by their global names (a timer's clear in a
  // client's finally, say): replaced, each would run the model's function for whoever calls it next.
  'clearTimeout', 'clearInterval', 'clearImmediate', 'atob', 'btoa', 'encodeURIComponent', 'decodeURIComponent', 'encodeURI', 'decodeURI',
  'escape', 'unescape', 'parseInt', 'parseFloat', 'isNaN', 'isFinite', 'AbortController', 'AbortSignal', 'EventTarget', 'Event',
  'TextEncoder', 'TextDecoder', 'URLSearchParams', 'ReadableStream', 'WritableStream', 'TransformStream', 'Blob', 'FormData', 'File',
  'DOMException', 'performance', 'crypto', 'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array',
  'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array', 'ArrayBuffer', 'SharedArrayBuffer', 'DataView',
  'WeakRef', 'FinalizationRegistry', 'Atomics', 'Intl', 'AggregateError', 'EvalError', 'RangeError', 'ReferenceError', 'SyntaxError',
  'URIError', 'MessageChannel', 'MessagePort', 'BroadcastChannel',
  // The HTTP dispatcher Node's fetch sends every request through, the provider's with its key among them.
  UNDICI_DISPATCHER,
];
/** Of `process`, besides every method the effect audit guards (installRealmIntegrity's argument). */
const PROCESS_NAMES: readonly PropertyKey[] = ['getBuiltinModule', 'emitWarning', 'nextTick', 'cwd'];
/**
 * The console's output methods: replaced by model code, the host's later logging would run the model's function
 * (which sees what the host logs, and throws its refusal after the run). `clear` is left to the kernel, which
 * routes it to the cell's output.
 */
const CONSOLE_NAMES: readonly PropertyKey[] = ['log', 'info', 'warn', 'error', 'debug', 'trace', 'dir', 'dirxml', 'table', 'assert', 'count', 'group', 'groupEnd', 'time', 'timeEnd', 'timeLog'];

/** Properties other code changes in the ordinary course (stack formatting, emitter bookkeeping, exit codes). */
const VOLATILE: Record<PropertyKey, true> = { __proto__: null, prepareStackTrace: true, stackTraceLimit: true, _events: true, _eventsCount: true, _maxListeners: true, exitCode: true, title: true, domain: true, _exiting: true, mainModule: true, env: true, argv: true, execArgv: true, debugPort: true } as never;
const isVolatile = (key: PropertyKey): boolean => hasOwn(VOLATILE, key);
const createNull = (): object => Object.create(null) as object;
const hasOwn = Object.hasOwn;

function capture(name: string, target: object, processNames: readonly PropertyKey[]): Watched {
  // Of the global object, process and console, the names the host and the audit depend on; the rest is theirs to extend.
  const all = target === globalThis ? GLOBAL_NAMES : target === process ? processNames : target === console ? CONSOLE_NAMES : ownKeys(target);
  const keys: PropertyKey[] = [];
  const descriptors = createNull() as Record<PropertyKey, PropertyDescriptor>;
  for (let i = 0; i < all.length; i++) {
    const key = all[i]!;
    // Error.prepareStackTrace is an accessor whose setter refuses model code (late-callbacks.ts): its descriptor
    // is stable, so a redefinition is a modification.
    if ((target === process || target === Error) && isVolatile(key) && !(target === Error && key === 'prepareStackTrace')) continue;
    const d = getOwnPropertyDescriptor(target, key);
    if (!d) continue;
    keys[keys.length] = key;
    descriptors[key] = d;
  }
  const ordered: PropertyDescriptor[] = [];
  for (let i = 0; i < keys.length; i++) ordered[i] = descriptors[keys[i]!]!;
  return { name, target, hotAdditions: setHas(HOT_ADDITIONS, name), hotKeys: hasOwn(HOT_KEYS, name) ? HOT_KEYS[name]! : [], provider: setHas(PROVIDER, name) || stringStartsWith(name, 'undici.'), providerKeys: hasOwn(PROVIDER_KEYS, name) ? PROVIDER_KEYS[name]! : undefined, originalOnly: target === globalThis || target === process || target === console, extensible: isExtensible(target), proto: getPrototypeOf(target), keys, descriptors, ordered };
}

function same(a: PropertyDescriptor, b: PropertyDescriptor): boolean {
  return objectIs(a.value, b.value) && a.get === b.get && a.set === b.set && a.enumerable === b.enumerable && a.writable === b.writable && a.configurable === b.configurable;
}

/**
 * Records the built-ins as they are now. Idempotent; call after every host patch is installed. `guardedOnProcess`:
 * the `process` methods the effect audit wrapped, watched so that a stand-in put there is undone.
 */
export function installRealmIntegrity(guardedOnProcess: readonly string[]): void {
  if (watched) return;
  // Lazily materialised globals (Node defines some as self-replacing accessors) are touched first.
  for (const key of ownKeys(globalThis)) {
    try {
      void (globalThis as Record<PropertyKey, unknown>)[key];
    } catch {
      /* an accessor that throws is recorded as it is */
    }
  }
  const list = watchList();
  const out: Watched[] = [];
  const processNames = [...PROCESS_NAMES, ...guardedOnProcess];
  for (let i = 0; i < list.length; i++) out[i] = capture(list[i]![0], list[i]![1], processNames);
  watched = out;
}

/** Compares the built-ins in `scope` with the record, restores what changed, and returns each change. */
export function checkRealm(scope: RealmScope = 'full'): RealmChange[] {
  if (!watched || !realmChecksActive) return [];
  // Index loops and captured Reflect functions only: the realm being checked may be the polluted one.
  let changes: RealmChange[] | undefined;
  const note = (w: Watched, key: PropertyKey | undefined, change: RealmChange['change'], restored: boolean) => {
    changes ??= [];
    changes[changes.length] = { property: key === undefined ? w.name : `${w.name}.${keyName(key)}`, change, restored };
  };
  for (let i = 0; i < watched.length; i++) {
    const w = watched[i]!;
    if (scope === 'hot') {
      checkHot(w, note);
      continue;
    }
    if (scope === 'provider' && w.providerKeys !== undefined) {
      checkKeys(w, false, w.providerKeys, note);
      continue;
    }
    if (scope === 'provider' && !w.provider) continue;
    const { target, descriptors } = w;
    const now = w.originalOnly ? w.keys : ownKeys(target);
    if (unchangedInOrder(w, now)) {
      if (getPrototypeOf(target) !== w.proto) note(w, undefined, 'prototype', setPrototypeOf(target, w.proto));
      if (w.extensible && !isExtensible(target)) note(w, undefined, 'frozen', false);
      continue;
    }
    for (let j = 0; j < now.length; j++) {
      const key = now[j]!;
      const original = hasOwn(descriptors, key) ? descriptors[key] : undefined;
      const current = getOwnPropertyDescriptor(target, key);
      if (!current) continue;
      if (!original) {
        if (!(target === Error && isVolatile(key))) note(w, key, 'added', deleteProperty(target, key));
      } else if (!same(original, current)) note(w, key, 'changed', defineProperty(target, key, original));
    }
    if (w.originalOnly || now.length !== w.keys.length || changes) {
      for (let j = 0; j < w.keys.length; j++) {
        const key = w.keys[j]!;
        if (!getOwnPropertyDescriptor(target, key)) note(w, key, 'deleted', defineProperty(target, key, descriptors[key]!));
      }
    }
    if (getPrototypeOf(target) !== w.proto) note(w, undefined, 'prototype', setPrototypeOf(target, w.proto));
    if (w.extensible && !isExtensible(target)) note(w, undefined, 'frozen', false);
  }
  return changes ?? [];
}

/**
 * The full check's common case, about twice as fast as the general loop below (it runs before every decision
 * of an application inspector): the target has exactly the recorded keys in the recorded order, so each
 * current descriptor is compared with its original by index, without a keyed lookup. Any difference, in
 * keys or in a descriptor, returns false and the general loop finds, records and restores it.
 */
function unchangedInOrder(w: Watched, now: readonly PropertyKey[]): boolean {
  const { keys, ordered, target } = w;
  if (now.length !== keys.length) return false;
  for (let j = 0; j < now.length; j++) {
    const key = keys[j]!;
    if (now[j] !== key) return false;
    const current = getOwnPropertyDescriptor(target, key);
    if (current === undefined || !same(ordered[j]!, current)) return false;
  }
  return true;
}

function checkHot(w: Watched, note: (w: Watched, key: PropertyKey | undefined, change: RealmChange['change'], restored: boolean) => void): void {
  checkKeys(w, w.hotAdditions, w.hotKeys === ALL ? w.keys : w.hotKeys, note);
}

/** Added keys (when `additions`), and the descriptors of `hotKeys` the target had when recorded. */
function checkKeys(w: Watched, additions: boolean, hotKeys: readonly PropertyKey[], note: (w: Watched, key: PropertyKey | undefined, change: RealmChange['change'], restored: boolean) => void): void {
  const { target, descriptors } = w;
  if (additions) {
    const now = ownKeys(target);
    if (now.length !== w.keys.length) {
      for (let j = 0; j < now.length; j++) if (!hasOwn(descriptors, now[j]!)) note(w, now[j], 'added', deleteProperty(target, now[j]!));
    }
  }
  for (let j = 0; j < hotKeys.length; j++) {
    const key = hotKeys[j]!;
    const current = getOwnPropertyDescriptor(target, key);
    const original = hasOwn(descriptors, key) ? descriptors[key] : undefined;
    // A key the target did not have (the write path lists methods some classes only inherit): an addition.
    if (original === undefined) {
      if (current) note(w, key, 'added', deleteProperty(target, key));
      continue;
    }
    if (!current) note(w, key, 'deleted', defineProperty(target, key, original));
    else if (!same(original, current)) note(w, key, 'changed', defineProperty(target, key, original));
  }
}

type AnomalyRecorder = { recordAnomaly(kind: string, detail: Record<string, unknown>, parentId?: string): void };

/** Checks the realm and records each change as a `builtin_modified` trace anomaly under `parentId`. */
export function recordRealmChanges(host: AnomalyRecorder, parentId: string, scope: RealmScope = 'full'): number {
  const changes = checkRealm(scope);
  for (let i = 0; i < changes.length; i++) {
    const c = changes[i]!;
    try {
      host.recordAnomaly('builtin_modified', { property: c.property, change: c.change, restored: c.restored }, parentId);
    } catch {
      /* the restoration stands even when recording fails */
    }
  }
  return changes.length;
}

/**
 * How the host asks a decision it waits for (an application inspector, a confinement service, a termination
 * service): on the built-ins it loaded with (a change is restored and recorded first), and when the answer took
 * an await, it counts only if no built-in changed meanwhile. Awaiting gives timers a turn, and a callback that
 * interior code left (even one made only of built-ins: `Set.prototype.has` made to say yes) may fire then and
 * make the decider's lookups lie; its answer is then `voided()`. A synchronous answer stays synchronous.
 */
export function decideOnLoadedBuiltins<T, V>(host: AnomalyRecorder, parentId: string, decide: () => T | Promise<T>, voided: () => V): T | Promise<T | V> {
  recordRealmChanges(host, parentId);
  const answer = decide();
  if (!(answer instanceof Promise)) return answer;
  return answer.then((value: T) => (recordRealmChanges(host, parentId) > 0 ? voided() : value));
}
