/**
 * Session: a long-lived operator environment in one interpreter. It owns a Runner for its whole
 * life. Operator submission of source (one call per cell) approves exactly that source for this
 * Session alone; callables it observes that source create become SessionFunctions. A call from
 * operator code starts a fresh run with the Session's run-entry grant; a call from inside a run
 * joins that run under the caller's authority.
 */
import { types } from 'node:util';
import { isSpecNaturalFunction, isTransformedNaturalFunction, MODEL_FACING, modelCodeRunning, modelFacingFunction, newId, wallClockMs } from '../core/index.js';
import {
  RetainedFunction,
  Runner,
  admitCapability,
  oversightByValue,
  createRunLedger,
  insideHostFrame,
  refuseDuringUntrustedRead,
  anomaliesOutsideRunners,
  isGeneratedCallable,
  refuseCallAfterRun,
  markLateRefusal,
  type Capability,
  type Grant,
  type LateAnomaly,
  AnomalyTally,
  coreOnlyModelCode,
  droppedAnomalies,
  type Ledger,
  type LedgerView,
  type RunnerOptions,
  type RunOptions,
} from '../harness/index.js';
import { hashSource, type ApprovalEvidence, type ApprovalRoute, type Submission } from './approval.js';
import { observeOwner, type BackgroundOwner, type OwnerObservation } from './background-owner.js';
import { definedCallables, neverOperatorDefined } from './observed-definitions.js';
import { OperatorControlError, SessionClosedError, SessionExitBlockedError, SubmissionRefusedError } from './errors.js';
import { operatorOnly } from './operator-only.js';

const SESSION_FUNCTION = Symbol.for('nighthawk.session-function');

type AnyFunction = (...args: never[]) => unknown;

/** The adapter the Session gives each approved callable. */
export type SessionFunction<F extends AnyFunction = AnyFunction> = ((...args: Parameters<F>) => Promise<Awaited<ReturnType<F>>>) & {
  readonly sessionFunctionName: string;
};

export interface SessionOptions extends RunnerOptions {
  /** The Session's run-entry grant, used for every fresh run an operator call starts. */
  readonly grant?: Grant;
  readonly policy?: RunOptions['policy'];
  readonly oversight?: RunOptions['oversight'];
}

function isRetainedAdapter(value: unknown): boolean {
  const marker = (value as Record<symbol, { provenance?: string } | undefined> | undefined)?.[SESSION_FUNCTION];
  return marker?.provenance === 'generated';
}

/**
 * An adapter's model-facing function, named as the adapter, frozen, and called as core's `modelFacingFunction` calls
 * an operator function: what the SessionFunction returns, or hands a callback of the model's, is model-facing too (a
 * SessionFunction that returns another would otherwise hand model code that adapter itself).
 */
function facingFunctionOf(facing: Function, name: string): Function {
  const out = modelFacingFunction(facing);
  Object.defineProperty(out, 'name', { value: name });
  Object.defineProperty(out, 'sessionFunctionName', { value: name });
  return Object.freeze(out);
}

/** Classes are constructed, not called: an adapter would break `new`, so they are never wrapped. */
function isClass(value: unknown): boolean {
  return typeof value === 'function' && /^class[\s{]/.test(Function.prototype.toString.call(value));
}

const GENERATOR_FUNCTION_PROTOTYPE = Object.getPrototypeOf(function* () {}) as object;
const ASYNC_GENERATOR_FUNCTION_PROTOTYPE = Object.getPrototypeOf(async function* () {}) as object;

/**
 * Generator functions run their body at each `next()`, after the call returned: a run started by the call would
 * have ended before any of it ran, so an adapter would only break iteration. They are never wrapped.
 */
function isGeneratorFunction(value: unknown): boolean {
  if (typeof value !== 'function') return false;
  // Compared directly, as the host's other identity checks are: no replaceable built-in method decides it.
  const proto = Object.getPrototypeOf(value) as object | null;
  return proto === GENERATOR_FUNCTION_PROTOTYPE || proto === ASYNC_GENERATOR_FUNCTION_PROTOTYPE;
}

const ASYNC_FUNCTION_PROTOTYPE = Object.getPrototypeOf(async function () {}) as object;

function isAsyncFunction(fn: AnyFunction): boolean {
  return Object.getPrototypeOf(fn) === ASYNC_FUNCTION_PROTOTYPE;
}

/** A refused attempt the Session recorded outside any open run ledger. */
export interface SessionAnomaly {
  readonly runId: string | undefined;
  readonly anomalyKind: string;
  readonly detail: Readonly<Record<string, unknown>>;
  readonly at: number;
}

/** Policy by value: a frozen copy of the grant, so a caller's array or object cannot widen it later. */
function grantByValue(grant: Grant | undefined): Grant {
  return Object.freeze({
    // Each capability admitted now, before any model code runs (admitCapability): a hand-built one is copied.
    capabilities: Object.freeze(((grant?.capabilities ?? []) as readonly Capability[]).map(admitCapability)),
    references: Object.freeze({ ...(grant?.references ?? {}) }),
  });
}

function optionsByValue(options: SessionOptions): SessionOptions {
  const { oversight } = options;
  return Object.freeze({
    ...options,
    grant: grantByValue(options.grant),
    ...(options.policy ? { policy: Object.freeze([...options.policy]) } : {}),
    ...(options.platformPolicy ? { platformPolicy: Object.freeze([...options.platformPolicy]) } : {}),
    ...(options.allocation ? { allocation: Object.freeze({ ...options.allocation }) } : {}),
    ...(oversight ? { oversight: oversightByValue(oversight) } : {}),
  });
}

/** Keys under which the language or Node calls a value's own function: adoption, JSON, conversion, iteration, inspection. */
const PROTOCOL_KEYS: readonly PropertyKey[] = ['then', 'toJSON', 'toString', 'valueOf', Symbol.toPrimitive, Symbol.iterator, Symbol.asyncIterator, Symbol.for('nodejs.util.inspect.custom')];
const functionToString = Function.prototype.toString;
const reflectApply = Reflect.apply;
const ownDescriptor = Reflect.getOwnPropertyDescriptor;
const prototypeOf = Reflect.getPrototypeOf;

/** One of the two functions a promise passes to a thenable's `then` when it adopts it (anonymous, native). */
function isResolvingFunction(value: unknown): boolean {
  return typeof value === 'function' && value.name === '' && reflectApply(functionToString, value, []) === 'function () { [native code] }';
}

/**
 * Whether an adapter was called as a value-protocol hook rather than by the operator: found under a protocol key on
 * its `this` (or that object's prototypes), or handed the resolving functions of a thenable's adoption (which a
 * bound adapter, with no `this` to show, still receives). No getter runs; a proxy whose trap refuses or throws
 * (model code outside its run) counts as a hook.
 */
function calledAsProtocolHook(self: unknown, adapter: unknown, args: readonly unknown[]): boolean {
  try {
    if (args.length === 2 && isResolvingFunction(args[0]) && isResolvingFunction(args[1])) return true;
    if (self === null || self === undefined || self === globalThis || (typeof self !== 'object' && typeof self !== 'function')) return false;
    if (asProxyTrap(self, adapter, args)) return true;
    let target: object | null = self;
    for (let depth = 0; target !== null && depth < 8; depth++) {
      for (let i = 0; i < PROTOCOL_KEYS.length; i++) if (ownDescriptor(target, PROTOCOL_KEYS[i]!)?.value === adapter) return true;
      if (asAccessor(target, adapter)) return true;
      target = prototypeOf(target);
    }
  } catch {
    return true;
  }
  return false;
}

/** Own keys an accessor scan reads at most per object: a model's object can be made arbitrarily wide. */
const ACCESSOR_KEYS_SCANNED = 1024;
const ownKeysOf = Reflect.ownKeys;

/** The adapter is a getter or setter of `target` (reading or assigning a property called it): never the operator's call. */
function asAccessor(target: object, adapter: unknown): boolean {
  const keys = ownKeysOf(target);
  // Wider than the bound: the caller counts it as a hook (fail closed), as it does a proxy that throws.
  if (keys.length > ACCESSOR_KEYS_SCANNED) return true;
  for (let i = 0; i < keys.length; i++) {
    const d = ownDescriptor(target, keys[i]!);
    if (d !== undefined && (d.get === adapter || d.set === adapter)) return true;
  }
  return false;
}

const functionBind = Function.prototype.bind;
const { isProxy } = types;
const isKey = (value: unknown): boolean => typeof value === 'string' || typeof value === 'symbol';
const isObjectLike = (value: unknown): boolean => (typeof value === 'object' && value !== null) || typeof value === 'function';

/**
 * The adapter is the `get` or `set` trap of a proxy handler (`this`), called by the proxy: the trap's exact
 * arguments, the last being the receiver, the proxy itself. (Traps with no receiver to show are not recognised.)
 */
function asProxyTrap(handler: object, adapter: unknown, args: readonly unknown[]): boolean {
  if (!isObjectLike(args[0]) || !isKey(args[1])) return false;
  if (args.length === 3 && ownDescriptor(handler, 'get')?.value === adapter) return isProxy(args[2]);
  if (args.length === 4 && ownDescriptor(handler, 'set')?.value === adapter) return isProxy(args[3]);
  return false;
}

/** Entries a Session keeps in its own anomaly record at most. */
const SESSION_ANOMALY_LIMIT = 1000;

/** Promises SessionFunction calls returned: a notebook waits for one that is a cell's final value. */
const callResults = new WeakSet<Promise<unknown>>();

function callResult(result: Promise<unknown>): Promise<unknown> {
  callResults.add(result);
  return result;
}

/** True when `value` is what a SessionFunction call returned (its run's result, still pending or not). */
export function isSessionCallResult(value: unknown): boolean {
  return value instanceof Promise && callResults.has(value);
}

export class Session {
  readonly sessionId = newId('ses_');
  #runner: Runner;
  #grant: Grant;
  #options: SessionOptions;
  // The ledger writer: handed to each Runner this Session creates, never to a caller.
  readonly #ledger: Ledger;
  readonly #runners: Runner[] = [];
  readonly #anomalies: SessionAnomaly[] = [];
  readonly #anomalyTally = new AnomalyTally();
  #anomaliesDropped = 0;
  readonly #createdAt = wallClockMs();
  readonly #approvals = new WeakMap<object, ApprovalEvidence>();
  readonly #adapters = new WeakMap<object, SessionFunction>();
  /**
   * Each adapter this Session made → what it calls. The marker on an adapter is public (any code can copy it onto
   * a function of its own), so approval is looked up through this map, never through the marker.
   */
  readonly #targets = new WeakMap<object, object>();
  readonly #retained = new WeakMap<RetainedFunction, SessionFunction>();
  readonly #submissions = new Map<string, Submission>();
  readonly #owners = new Set<BackgroundOwner>();
  #closed = false;

  constructor(options: SessionOptions) {
    this.#options = optionsByValue(options);
    this.#ledger = options.ledger ?? createRunLedger();
    this.#runner = this.#newRunner();
    this.#grant = this.#options.grant!;
  }

  #newRunner(): Runner {
    const runner = new Runner({ ...this.#options, ledger: this.#ledger });
    this.#runners.push(runner);
    return runner;
  }

  /**
   * Operator control: the Runner that starts this Session's runs (replaced by `configure`, which
   * keeps the ledger). Refused from inside a run, where it would admit authority from the interior.
   */
  get runner(): Runner {
    operatorOnly('runner');
    return this.#runner;
  }

  /** A read-only view of the Session's ledger. */
  get ledger(): LedgerView {
    return this.#runner.ledger;
  }

  /** Refused attempts recorded outside an open run ledger (after run end, or at approval), oldest first. */
  get anomalies(): readonly SessionAnomaly[] {
    const late = this.#runners.flatMap((r) => r.anomalies.map((a: LateAnomaly) => ({ runId: a.runId, anomalyKind: a.anomalyKind, detail: a.detail, at: a.at })));
    // Since this Session began: refusals while the host read a value a model may have built (a cell's value being
    // displayed), and refusals and built-in changes in core-only runs.
    const reads = anomaliesOutsideRunners().filter((a) => a.at >= this.#createdAt);
    const dropped = this.#anomaliesDropped > 0 ? [droppedAnomalies('session', this.#anomaliesDropped)] : [];
    return Object.freeze([...late, ...reads, ...this.#anomalies, ...dropped].sort((a, b) => a.at - b.at));
  }

  /**
   * Operator control: changes the executor, platform services or run-entry grant for runs started
   * from now on. Runs already in progress keep the authority they were admitted with.
   */
  configure(options: Partial<SessionOptions>): void {
    operatorOnly('configure');
    if (this.#closed) throw new SessionClosedError({ sessionId: this.sessionId });
    this.#options = optionsByValue({ ...this.#options, ...options });
    this.#runner = this.#newRunner();
    this.#grant = this.#options.grant!;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /**
   * A call from code a model left behind (a listener, a timer) after its run ended runs in that run's frame
   * (late-callbacks.ts): it may neither join the ended run nor, having a frame, pass for a cell's call.
   */
  /**
   * Not the operator, and no run to join: the host is reading a value a model may have built (a cell's value
   * being displayed) and a getter or inspector it planted calls this adapter. Refused and recorded.
   */
  #refuseWithoutRun(name: string): void {
    refuseDuringUntrustedRead(`SessionFunction ${name}`, (control) => new OperatorControlError({ control }));
  }

  /**
   * Adds to the Session's own anomaly record. Bounded, and listed as a run lists its anomalies (AnomalyTally, per kind
   * and function), so a loop of refused calls can neither grow it without limit nor fill it and hide a later one;
   * what it does not list it counts (`anomalies_dropped`).
   */
  #noteAnomaly(anomalyKind: string, detail: Record<string, unknown>): void {
    if (this.#anomalies.length >= SESSION_ANOMALY_LIMIT || !this.#anomalyTally.note(`${anomalyKind}\0${String(detail['name'] ?? '')}`, detail)) {
      this.#anomaliesDropped++;
      return;
    }
    this.#anomalies.push(Object.freeze({ runId: undefined, anomalyKind, detail: Object.freeze({ ...detail }), at: wallClockMs() }));
  }

  /**
   * A call through an adapter of a closed Session: refused and recorded. Marked, so where nobody holds the promise
   * it rejects (a model left the adapter as a value's `then`, called by the promise machinery) it is absorbed
   * instead of ending the process; a caller that awaits still receives it.
   */
  #refuseClosed(name: string): never {
    this.#noteAnomaly('session_function_after_close', { name });
    throw markLateRefusal(new SessionClosedError({ sessionId: this.sessionId, functionName: name }));
  }

  /**
   * An adapter a model left as a value-protocol hook (the `then` of a value it handed back, its `toJSON`...), called
   * when operator code touched the value outside any run: not the operator's call, so no fresh run with the
   * Session's grant. Recorded and marked, as a closed Session's refusal is.
   */
  #refuseProtocolHook(name: string): never {
    this.#noteAnomaly('session_function_as_protocol_hook', { name });
    throw markLateRefusal(new OperatorControlError({ control: `SessionFunction ${name} called as a value-protocol hook (a value a model built)` }));
  }

  /**
   * An adapter bound by a run's code (`helper.bind(null, 'chosen')`) is a function a model can leave as a value's
   * `toJSON`, `toString` or getter, with no `this` to show where it was found. Such a bound adapter works while a
   * run calls it, and is refused as a protocol hook when code outside any run does. The operator's own `bind` is
   * the plain one. (Model code holds the adapter's model-facing function, not the adapter: what the intrinsic `bind`
   * or a built-in makes of that is refused outside a run (#adapter). This covers an adapter a model reached
   * another way, through an operator object holding it.)
   */
  #guardBind(adapter: SessionFunction, name: string): void {
    const session = this;
    const bind = function bind(this: unknown, ...bound: unknown[]): unknown {
      const plain = reflectApply(functionBind, this, bound) as (...args: unknown[]) => unknown;
      if (!insideHostFrame() && !modelCodeRunning()) return plain;
      return function boundInRun(this: unknown, ...args: unknown[]): unknown {
        if (!insideHostFrame() && !coreOnlyModelCode()) session.#refuseProtocolHook(name);
        return reflectApply(plain, this, args);
      };
    };
    Object.defineProperty(adapter, 'bind', { value: bind });
  }

  /**
   * Model code of a core-only run (`run()` with no Runner): there is no run to join, and the call is not the
   * operator's, so no fresh run with the Session's grant either.
   */
  #refuseOutsideRun(name: string): never {
    this.#noteAnomaly('session_function_from_model_code_outside_run', { name });
    throw new OperatorControlError({ control: `SessionFunction ${name} called by model code of a run without a Runner` });
  }

  #refuseAfterRun(name: string): void {
    refuseCallAfterRun(`SessionFunction ${name} after its run ended`, (control) => new OperatorControlError({ control }));
  }

  /** An adapter called inside a run joins it, unless the host is reading an untrusted value or the run has ended. */
  #joinCallerRun<T>(name: string, call: () => T): T {
    this.#refuseWithoutRun(name);
    this.#refuseAfterRun(name);
    return call();
  }

  /**
   * Operator submission of one cell's source, before it runs. Approves that exact source for this
   * Session only. Refused from inside a run: model output and run-interior text never count.
   */
  submit(source: string): Submission {
    operatorOnly('submit');
    if (this.#closed) throw new SubmissionRefusedError({ reason: 'session-closed', detail: 'the Session is closed' });
    if (typeof source !== 'string') throw new SubmissionRefusedError({ reason: 'not-source-text', detail: 'operator source must be the submitted text itself' });
    const submission: Submission = Object.freeze({ submissionId: newId('sub_'), sourceHash: hashSource(source), source, submittedAt: wallClockMs() });
    this.#submissions.set(submission.submissionId, submission);
    return submission;
  }

  /**
   * Called by the host after a submitted cell ran, with the values of the names that cell declared.
   * Each function the Session has not seen before, and that is not generated source, is approved
   * with the submission's evidence. Returns the SessionFunction adapters to rebind those names to.
   */
  materialized(submission: Submission, declared: Readonly<Record<string, unknown>>): Record<string, SessionFunction> {
    operatorOnly('materialized');
    // A cell submitted before close that finishes after it approves nothing: a closed Session has no adapters.
    if (this.#closed) throw new SessionClosedError({ sessionId: this.sessionId });
    if (this.#submissions.get(submission.submissionId) !== submission) {
      throw new SubmissionRefusedError({ reason: 'not-materialized-by-submission', detail: 'unknown submission: only the object submit() returned is accepted' });
    }
    const out: Record<string, SessionFunction> = {};
    const defined = definedCallables(submission.source);
    for (const [name, value] of Object.entries(declared)) {
      if (typeof value !== 'function') continue;
      const existing = this.#adapters.get(value);
      if (existing) {
        out[name] = existing;
        continue;
      }
      if ((value as unknown as Record<symbol, unknown>)[SESSION_FUNCTION] || isClass(value) || isGeneratorFunction(value)) continue;
      const kind = defined.get(name);
      if (isGeneratedCallable(value) || kind === undefined || (kind === 'spec' && !isSpecNaturalFunction(value)) || neverOperatorDefined(value)) {
        // Binding an existing value is not a definition: nothing is approved, and the attempt is evidence.
        this.#noteAnomaly('unobserved_definition', { name, submissionId: submission.submissionId, generated: isGeneratedCallable(value) });
        continue;
      }
      // A Natural function the block transform compiled from this cell corresponds to the submitted
      // source through that core-owned transformation; any other function through its materialization.
      const route: ApprovalRoute = isTransformedNaturalFunction(value) ? 'core-transformation' : 'operator-submission';
      this.#approve(value as AnyFunction, route, submission.sourceHash, submission.submissionId);
      out[name] = this.#adapter(value as AnyFunction, name);
    }
    return out;
  }

  /** Trusted imported-function registration: exact callable identity plus a reviewed-source hash. */
  registerImported<F extends AnyFunction>(fn: F, options: { name?: string; reviewedSourceHash: string }): SessionFunction<F> {
    operatorOnly('registerImported');
    if (this.#closed) throw new SessionClosedError({ sessionId: this.sessionId });
    if (isGeneratedCallable(fn) || neverOperatorDefined(fn) || isRetainedAdapter(fn)) {
      throw new SubmissionRefusedError({ reason: 'not-source-text', detail: 'generated, bound or native callables are never approved by registration' });
    }
    if (!/^[0-9a-f]{64}$/.test(options.reviewedSourceHash)) throw new TypeError('reviewedSourceHash must be a sha256 hex digest of the reviewed source.');
    if (isGeneratorFunction(fn)) {
      throw new TypeError('A generator function cannot be a SessionFunction: its body runs at each next(), after the run a call would start has ended. Register a function that consumes it instead.');
    }
    this.#approve(fn, 'trusted-import', options.reviewedSourceHash, newId('imp_'));
    return this.#adapter(fn, options.name ?? fn.name) as SessionFunction<F>;
  }

  /**
   * Wraps a RetainedFunction for this Session: a call from operator code starts a fresh run with the
   * Session's run-entry grant and re-materializes the retained definition there; a call from inside a
   * run joins that run under the caller's authority. The callable stays generated source: it is never
   * approved (`isApproved` is false), and closing the Session refuses calls through the adapter while
   * the RetainedFunction itself stays usable by other host-established runs.
   */
  retain<F extends AnyFunction = (...args: unknown[]) => unknown>(retained: RetainedFunction, name?: string): SessionFunction<F> {
    operatorOnly('retain');
    if (this.#closed) throw new SessionClosedError({ sessionId: this.sessionId });
    if (!(retained instanceof RetainedFunction)) throw new TypeError('Session.retain() takes a RetainedFunction (RetainedFunction.retain(materialization, exportName)).');
    const existing = this.#retained.get(retained);
    if (existing) return existing as SessionFunction<F>;
    const label = name ?? retained.exportName;
    const session = this;
    // `fromModel`: called through the model-facing function (as #adapter's).
    const call = async (self: unknown, args: unknown[], fromModel: boolean): Promise<unknown> => {
      if (session.#closed) session.#refuseClosed(label);
      // Interior call: re-materialize in the caller's run, under the caller's authority.
      if (insideHostFrame()) return session.#joinCallerRun(label, () => retained.invoke(...args));
      if (coreOnlyModelCode()) session.#refuseOutsideRun(label);
      if (fromModel || calledAsProtocolHook(self, adapter, args)) session.#refuseProtocolHook(label);
      return session.#runner.run(() => retained.invoke(...args), session.#runOptions(label));
    };
    const adapter = function (this: unknown, ...args: unknown[]): Promise<unknown> {
      return callResult(call(this, args, false));
    } as unknown as SessionFunction;
    const facing = function (this: unknown, ...args: unknown[]): Promise<unknown> {
      return callResult(call(this, args, true));
    };
    Object.defineProperty(adapter, MODEL_FACING, { value: facingFunctionOf(facing, label) });
    Object.defineProperty(adapter, 'name', { value: label });
    Object.defineProperty(adapter, 'sessionFunctionName', { value: label });
    // The target is the retained definition, which is never approved.
    Object.defineProperty(adapter, SESSION_FUNCTION, { value: Object.freeze({ sessionId: this.sessionId, target: retained, provenance: 'generated' }) });
    this.#guardBind(adapter, label);
    this.#targets.set(adapter, retained);
    this.#retained.set(retained, adapter);
    this.#adapters.set(adapter, adapter);
    return adapter as SessionFunction<F>;
  }

  #runOptions(label: string): RunOptions {
    return {
      grant: this.#grant,
      label,
      ...(this.#options.policy ? { policy: this.#options.policy } : {}),
      ...(this.#options.oversight ? { oversight: this.#options.oversight } : {}),
    };
  }

  /** Approval evidence for a callable in this Session (undefined once closed). */
  evidenceFor(fn: unknown): ApprovalEvidence | undefined {
    if (this.#closed || typeof fn !== 'function') return undefined;
    return this.#approvals.get(this.#targets.get(fn) ?? fn);
  }

  isApproved(fn: unknown): boolean {
    return this.evidenceFor(fn) !== undefined;
  }

  /** Registers the owner of background work a cell started. */
  registerOwner(owner: BackgroundOwner): () => void {
    operatorOnly('registerOwner');
    // Exit already asked every owner to stop; one registered after it would never be asked or observed.
    if (this.#closed) throw new SessionClosedError({ sessionId: this.sessionId });
    this.#owners.add(owner);
    return () => this.#owners.delete(owner);
  }

  /** Current observations of every registered owner. */
  async observeOwners(): Promise<{ name: string; observation: OwnerObservation }[]> {
    return Promise.all([...this.#owners].map(async (o) => ({ name: o.name, observation: await observeOwner(o) })));
  }

  /**
   * Operator exit. Requests interruption of every owner, then closes only if each confirms
   * cessation; otherwise throws SessionExitBlockedError naming the owners and stays open.
   */
  async close(): Promise<void> {
    operatorOnly('close');
    if (this.#closed) return;
    for (const owner of this.#owners) {
      try {
        await owner.requestInterruption();
      } catch {
        // An owner that cannot even be asked will report unknown below.
      }
    }
    const blocking = (await this.observeOwners()).filter((o) => o.observation !== 'cessation-confirmed');
    if (blocking.length) throw new SessionExitBlockedError({ owners: blocking });
    this.#closed = true;
  }

  #approve(fn: AnyFunction, route: ApprovalRoute, sourceHash: string, submissionId: string): void {
    this.#approvals.set(fn, Object.freeze({ route, sourceHash, submissionId, approvedAt: wallClockMs() }));
  }

  #adapter(fn: AnyFunction, name: string): SessionFunction {
    const existing = this.#adapters.get(fn);
    if (existing) return existing;
    const session = this;
    // `fromModel`: called through the model-facing function (below), never the operator's own entry.
    const call = async (self: unknown, args: never[], fromModel: boolean): Promise<unknown> => {
      if (session.#closed) session.#refuseClosed(name);
      // Interior call: join the caller's run under the caller's authority.
      if (insideHostFrame()) return session.#joinCallerRun(name, () => fn.apply(self, args));
      if (coreOnlyModelCode()) session.#refuseOutsideRun(name);
      if (fromModel || calledAsProtocolHook(self, adapter, args)) session.#refuseProtocolHook(name);
      return session.#runner.run(async () => fn.apply(self, args), session.#runOptions(name));
    };
    // A function written synchronous answers synchronously inside a run, as its callers there were written and
    // type-checked to expect: `return add(x, x) * 2` in one operator function calling another read a promise
    // (NaN), and a throw inside became a rejection nobody saw. A call that starts a run is asynchronous.
    const synchronous = !isAsyncFunction(fn);
    // The adapter and its model-facing function each call the target directly (no shared helper between): a stack
    // trace of a throw in nested SessionFunctions keeps the operator's frames within V8's ten. (Core's wrapper around
    // the model-facing function (modelFacingFunction) adds one frame, on the model's side only.)
    const adapter = function (this: unknown, ...args: never[]): Promise<unknown> {
      if (synchronous && insideHostFrame()) {
        if (session.#closed) session.#refuseClosed(name);
        return session.#joinCallerRun(name, () => fn.apply(this, args)) as Promise<unknown>;
      }
      return callResult(call(this, args, false));
    } as unknown as SessionFunction;
    /*
     * What model code holds in place of the adapter (core's MODEL_FACING: a step's references and locals, a
     * dispatch's reference dependencies): inside a run it is the adapter (it joins the caller's run); outside any
     * run it is refused and recorded as a protocol hook is, so nothing a model builds around it (the intrinsic
     * `bind`, `Reflect.apply` or `call` bound to it, a proxy, a value's hook) starts a run with the Session's grant
     * when operator code calls it later, and a model handing it back hands the operator no entry of its own.
     */
    const facing = function (this: unknown, ...args: never[]): Promise<unknown> {
      if (synchronous && insideHostFrame()) {
        if (session.#closed) session.#refuseClosed(name);
        return session.#joinCallerRun(name, () => fn.apply(this, args)) as Promise<unknown>;
      }
      return callResult(call(this, args, true));
    };
    Object.defineProperty(adapter, 'name', { value: name });
    Object.defineProperty(adapter, 'sessionFunctionName', { value: name });
    Object.defineProperty(adapter, SESSION_FUNCTION, { value: Object.freeze({ sessionId: this.sessionId, target: fn }) });
    Object.defineProperty(adapter, MODEL_FACING, { value: facingFunctionOf(facing, name) });
    this.#guardBind(adapter, name);
    this.#targets.set(adapter, fn);
    this.#adapters.set(fn, adapter);
    this.#adapters.set(adapter, adapter);
    return adapter;
  }
}
Object.freeze(Session.prototype); // authority class: no method can be replaced, even by code that reaches it
