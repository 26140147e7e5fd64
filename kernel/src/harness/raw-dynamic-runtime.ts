/**
 * The run-time tier of the raw-dynamic-execution rule (seed 001, detective tier). The static checks
 * (expression text, generated-source validation) are the cheap first line; this tier catches what they
 * cannot see, however it is spelled: while interior execution is marked (a model expression, generated
 * code under its live dispatch node) the intrinsics that turn text into code refuse, record a
 * `raw_dynamic_execution` trace anomaly under the operation or dispatch node, and throw.
 *
 * Outside interior execution nothing changes: the Function constructors and `eval` are accessor
 * properties that hand out the real intrinsics (so direct `eval` keeps its meaning and libraries that
 * probe `new Function` work), and every other patched entry delegates unchanged.
 *
 * Accepted limitations: code that captured a real intrinsic before installation (for example the host's
 * own expression compiler), native addons, and work outside the propagated async context.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, sep } from 'node:path';
import vm from 'node:vm';
import { z } from 'zod';
import { NighthawkError, compileExpression, currentInterior, interiorParentId, setLateRefusalSink, setRefusalSink, taintedByModelCode, type InteriorMark } from '../core/index.js';
import { anomalyRecorder, currentHostFrame, type HostHandle } from './host-context.js';
import { callerFile } from './call-sites.js';
import { markLateRefusal } from './late-callbacks.js';
import { wrapClass, wrapMethod } from './checked-exports.js';
import { reflectConstruct, setHas, stringSlice, stringStartsWith, StringCtor } from './intrinsics.js';

/**
 * Built-in modules that run constructed code or reach the engine; refused to interior code at run time.
 * `diagnostics_channel` is here because its subscribers see what the host's own clients publish (the provider
 * request's headers, key included), and a subscriber made of bound built-ins never runs model-made code.
 */
export const FORBIDDEN_AT_RUNTIME: ReadonlySet<string> = new Set(
  ['vm', 'module', 'worker_threads', 'child_process', 'inspector', 'inspector/promises', 'async_hooks', 'v8', 'trace_events', 'repl', 'wasi', 'diagnostics_channel'].flatMap((m) => [m, `node:${m}`]),
);

/** Interior code reached an intrinsic that turns text into code; it was refused and recorded. */
export class RawDynamicExecutionRefusedError extends NighthawkError {
  readonly operation: string;
  readonly interior: InteriorMark['kind'];
  constructor(options: { operation: string; interior: InteriorMark['kind'] }) {
    super(
      'raw-dynamic-execution',
      `Raw dynamic execution (${options.operation}) was refused at run time inside ${options.interior === 'expression' ? 'a model expression' : 'generated code'} and recorded; ` +
        'write the logic directly or call a granted capability.',
    );
    this.operation = options.operation;
    this.interior = options.interior;
  }
}

let installed = false;
/** Benchmarks compare the tier on and off in one process; nothing else switches it. */
let active = true;

/** For `bench/` only: measures the per-operation cost of the tier. */
export function setRuntimeTierActive(on: boolean): void {
  active = on;
}

export function runtimeTierActive(): boolean {
  return active;
}

/** `mark`, unless the tier is off or host infrastructure holds a live allowance. */
function unlessAllowed(mark: InteriorMark | undefined): InteriorMark | undefined {
  if (!active || !mark) return undefined;
  return currentHostFrame()?.allowance?.active ? undefined : mark;
}

/** The interior mark in force, unless the tier is off or host infrastructure holds a live allowance. */
export function activeInterior(): InteriorMark | undefined {
  return unlessAllowed(currentInterior());
}

/** As activeInterior, and also where model code an unmarked caller ran started this work (taintedByModelCode). */
function tierInterior(): InteriorMark | undefined {
  return unlessAllowed(currentInterior() ?? taintedByModelCode());
}

export function recordAnomalyAnyState(anomalyKind: string, detail: Record<string, unknown>, parentId: string): void {
  currentHostFrame()?.host.recordAnomaly(anomalyKind, detail, parentId);
}

/** Records and throws when interior execution is active; returns otherwise. */
export function refuseRawDynamic(operation: string, detail: Record<string, unknown> = {}): void {
  const mark = tierInterior();
  if (!mark) return;
  try {
    const data: Record<string, unknown> = { phase: 'runtime', operation, interior: mark.kind, ...detail };
    if (mark.kind === 'generated') data['definitionId'] = mark.definitionId;
    recordAnomalyAnyState('raw_dynamic_execution', data, interiorParentId(mark));
  } catch {
    /* the refusal below is the outcome even when recording fails */
  }
  // Recorded: where nothing catches it (a promise reaction, a timer) it is absorbed instead of ending the process.
  throw markLateRefusal(new RawDynamicExecutionRefusedError({ operation, interior: mark.kind }));
}

/**
 * The core's expression compiler as the public module offers it: turning text into a function is the executor's
 * (an nh_evaluate operation's body); model code calling it would run text it built outside any inspected operation.
 */
export function publicCompileExpression(expression: string): ReturnType<typeof compileExpression> {
  refuseRawDynamic('compileExpression');
  return compileExpression(expression);
}

// --- who called the Function constructor (only consulted inside interior execution) --------------

const zodCore = dirname(createRequire(import.meta.url).resolve('zod/v4/core')) + sep;
const ZOD_CODEGEN = new Set(['doc.js', 'doc.cjs', 'util.js', 'util.cjs']);

/** zod compiles its parsers with `new Function` from escaped schema keys; that one caller is host infrastructure. */
function calledByZodCodegen(callee: (...args: never[]) => unknown): boolean {
  let file = callerFile(callee);
  if (!file) return false;
  if (stringStartsWith(file, 'file:')) file = fileURLToPath(file);
  return stringStartsWith(file, zodCore) && setHas(ZOD_CODEGEN, stringSlice(file, zodCore.length));
}

// --- installation ----------------------------------------------------------------------------------

type Ctor = new (...args: string[]) => (...args: unknown[]) => unknown;

/** An accessor that hands out `real` outside interior execution and `stub` inside it. */
function guardedAccessor(target: object, key: string, stub: unknown): void {
  let outside = Reflect.get(target, key) as unknown;
  Object.defineProperty(target, key, {
    configurable: true,
    enumerable: false,
    get() {
      return tierInterior() ? stub : outside;
    },
    set(this: unknown, value: unknown) {
      // `fn.constructor = x` on some other object used to create an own property; keep that meaning.
      if (this !== target) {
        if (typeof this === 'object' || typeof this === 'function') Reflect.defineProperty(this as object, key, { value, writable: true, enumerable: true, configurable: true });
        return;
      }
      refuseRawDynamic(`assignment to ${key}`);
      outside = value;
    },
  });
}

function constructorStub(name: string, Real: Ctor): Ctor {
  const holder = {
    [name]: function (this: unknown, ...args: string[]): unknown {
      if (tierInterior() && !calledByZodCodegen(stub)) refuseRawDynamic(`${name} constructor`);
      return reflectConstruct(Real, args, new.target ?? Real);
    },
  };
  const stub = holder[name] as unknown as Ctor & ((...args: never[]) => unknown);
  Object.defineProperty(stub, 'prototype', { value: Real.prototype, writable: false });
  Object.defineProperty(stub, 'length', { value: 1 });
  Object.setPrototypeOf(stub, Object.getPrototypeOf(Real) as object);
  return stub;
}

const moduleName = (value: unknown): string => (typeof value === 'string' ? value : StringCtor(value));

/**
 * The core's refusal sinks, installed when the harness loads: the first installation stands, and a model expression
 * of a run that had no Runner before it (a core-only run) would otherwise install its own, silencing every later
 * run's refusal records and having the host call its functions.
 */
function installRefusalSinks(): void {
  // What the core refuses to model code (a step context's executor members) is recorded under the code's operation or
  // node, or under the operation the core names (a write the engine refused).
  setRefusalSink((kind, detail, parentId) => {
    const frame = currentHostFrame();
    const mark = currentInterior();
    anomalyRecorder(frame).recordAnomaly(kind, { ...detail }, parentId ?? (mark ? interiorParentId(mark) : frame?.submitterId));
  });
  // A function a model expression defined, called after its execution, is recorded under that run.
  setLateRefusalSink({
    capture: () => anomalyRecorder(),
    report: (host, { refusal, ...ids }) => {
      const kind = refusal === 'execution-ended' ? 'expression_code_outside_execution' : 'expression_code_outside_operation';
      (host as Pick<HostHandle, 'recordAnomaly'> | undefined)?.recordAnomaly(kind, { ...ids }, ids.operationId ?? ids.executionId);
    },
    // Recorded by `report`: where no caller can catch it (a timer, a promise job) it is absorbed, not fatal.
    refused: (error) => markLateRefusal(error),
  });
}
installRefusalSinks();

/** Installs the run-time tier once. Idempotent; changes nothing outside interior execution. */
export function installRawDynamicRuntime(): void {
  if (installed) return;
  installed = true;
  // zod probes `new Function` once per process; let it do so now, outside any interior execution.
  z.object({ probe: z.string() }).safeParse({ probe: '' });

  const FunctionCtor = Function as unknown as Ctor;
  const ctors: [string, Ctor][] = [
    ['Function', FunctionCtor],
    ['AsyncFunction', Object.getPrototypeOf(async function () {}).constructor as Ctor],
    ['GeneratorFunction', Object.getPrototypeOf(function* () {}).constructor as Ctor],
    ['AsyncGeneratorFunction', Object.getPrototypeOf(async function* () {}).constructor as Ctor],
  ];
  for (const [name, Real] of ctors) {
    const stub = constructorStub(name, Real);
    guardedAccessor(Real.prototype, 'constructor', stub);
    if (name === 'Function') guardedAccessor(globalThis, 'Function', stub);
  }
  const realEval = globalThis.eval;
  const evalStub = {
    eval(source: unknown): unknown {
      refuseRawDynamic('eval');
      return realEval(source as string);
    },
  }.eval;
  guardedAccessor(globalThis, 'eval', evalStub);

  const proc = process as unknown as Record<string, unknown>;
  for (const key of ['binding', '_linkedBinding', 'dlopen']) wrapMethod(proc, key, (args) => refuseRawDynamic(`process.${key}`, { target: moduleName(args[0]) }));
  wrapMethod(proc, 'getBuiltinModule', (args) => {
    const id = moduleName(args[0]);
    if (setHas(FORBIDDEN_AT_RUNTIME, id)) refuseRawDynamic('process.getBuiltinModule', { module: id });
  });

  const require = createRequire(import.meta.url);
  const Module = require('node:module') as Record<string, unknown>;
  wrapMethod(Module, '_load', (args) => {
    const id = moduleName(args[0]);
    if (setHas(FORBIDDEN_AT_RUNTIME, id)) refuseRawDynamic('require', { module: id });
  });
  wrapMethod(Module, 'createRequire', () => refuseRawDynamic('module.createRequire'));

  const vmExports = vm as unknown as Record<string, unknown>;
  for (const key of ['createContext', 'createScript', 'runInContext', 'runInNewContext', 'runInThisContext', 'compileFunction', 'measureMemory']) {
    wrapMethod(vmExports, key, () => refuseRawDynamic(`vm.${key}`));
  }
  wrapClass(vmExports, 'Script', () => refuseRawDynamic('vm.Script'));
  for (const key of ['runInThisContext', 'runInContext', 'runInNewContext', 'createCachedData']) {
    wrapMethod(vm.Script.prototype as unknown as Record<string, unknown>, key, () => refuseRawDynamic(`vm.Script.${key}`));
  }

  const wasm = (globalThis as { WebAssembly?: Record<string, unknown> }).WebAssembly;
  if (wasm) {
    for (const key of ['compile', 'instantiate', 'compileStreaming', 'instantiateStreaming', 'validate']) wrapMethod(wasm, key, () => refuseRawDynamic(`WebAssembly.${key}`));
    for (const key of ['Module', 'Instance']) wrapClass(wasm, key, () => refuseRawDynamic(`WebAssembly.${key}`));
  }
  syncBuiltinESMExports();
}
