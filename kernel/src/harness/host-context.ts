/**
 * Host context: which run host (if any) owns the current interior execution, the authority in
 * force, and whether a gateway allowance is active. Frames live in a private async context (never
 * on the async resource, so `executionAsyncResource()` reveals nothing) and are frozen values.
 * Allowances expire when the gateway call settles, so contexts copied into timers or tasks during
 * the call lose the allowance when it ends. Nothing exported from the package returns a frame.
 */
import {
  ANY_NETWORK_ORIGIN,
  PrivateAsyncContext,
  insideOperationBody,
  modelCodeRunning,
  noteUnmarkedModelCode,
  modelFacingFunction,
  operatorValue,
  privateAsyncContextInUse,
  reenterInterior,
  reportRefusal,
  runInterior,
  setLateRefusalSink,
  setRealmSeam,
  setRefusalSink,
  claimInfrastructureRunner,
  setInfrastructureSeam,
  type InfrastructureRunner,
  claimFrozenWriteSight,
  claimReflectWriteAnswer,
  type RealmSeam,
  type LateRefusalSink,
  type RefusalSink,
  runOutsideInterior,
  wallClockMs,
  type InteriorMark,
  type InteriorRefusal,
} from '../core/index.js';
import { append } from './intrinsics.js';
import { AnomalyTally, droppedAnomalies } from './anomaly-tally.js';
import type { Authority } from './grant.js';
import { HostIntegrityError } from './integrity-errors.js';
import { placeOfOrigin, type NetworkPlace } from './network-destination.js';

export interface GatewayAllowance {
  readonly holder: string;
  readonly active: boolean;
}

/** An allowance whose `active` flag only the gateway that granted it can clear. */
class Allowance implements GatewayAllowance {
  readonly holder: string;
  #active = true;
  readonly #reach: AllowanceReach;
  /**
   * For a network-only allowance: the places the client declared (an origin that does not parse admits none; no
   * origins, none at all), or undefined when it declared ANY_NETWORK_ORIGIN.
   */
  readonly #places: readonly NetworkPlace[] | undefined;
  constructor(holder: string, reach: AllowanceReach, origins: readonly string[] = []) {
    this.holder = holder;
    this.#reach = reach;
    const places: NetworkPlace[] = [];
    let any = false;
    for (let i = 0; i < origins.length; i++) {
      if (origins[i] === ANY_NETWORK_ORIGIN) any = true;
      const place = placeOfOrigin(origins[i]!);
      if (place !== undefined) append(places, place);
    }
    this.#places = any ? undefined : Object.freeze(places);
    Object.freeze(this);
  }
  /** The places a live network-only allowance admits, or undefined when it admits any (ANY_NETWORK_ORIGIN). */
  static places(allowance: GatewayAllowance | undefined): readonly NetworkPlace[] | undefined {
    return allowance !== undefined && #places in allowance ? allowance.#places : undefined;
  }
  get active(): boolean {
    return this.#active;
  }
  static expire(allowance: Allowance): void {
    allowance.#active = false;
  }
  /** Whether `allowance` is a live one of ours that admits network effects only. */
  static networkOnly(allowance: GatewayAllowance | undefined): boolean {
    return allowance !== undefined && #reach in allowance && allowance.#active && allowance.#reach === 'network';
  }
}

/**
 * What a gateway allowance admits. `all`: a capability's body and the host's stores (the operator's code and the
 * host's own). `network`: the provider client sending a model request. It calls built-ins, and a replaced one that
 * the checks before the request missed would run inside the allowance: it gets the network, and nothing else (no
 * file, process or environment effect, no write to a ledger or a store through their public methods), and only at
 * the origins the client declared (ModelClient.networkOrigins: none when it declared none, any with '*').
 */
export type AllowanceReach = 'all' | 'network';

export interface HostFrame {
  readonly host: HostHandle;
  readonly authority: Authority;
  readonly allowance: GatewayAllowance | undefined;
  /** The dispatch node or execution that submitted the current interior work. */
  readonly submitterId: string;
  readonly depth: number;
}

/** What the effect audit and gateways need from a run host. */
export interface HostHandle {
  readonly runId: string;
  /** 'running' until the run stops admitting work. */
  readonly state?: string;
  recordAnomaly(anomalyKind: string, detail: Record<string, unknown>, parentId?: string): void;
}

const frames = new PrivateAsyncContext<HostFrame>();

/** Harness-internal: the frame in force (never exported from the package). */
export function currentHostFrame(): HostFrame | undefined {
  return frames.getStore();
}

/**
 * Host code reading a value model output may have built, outside any run: the kernel displaying a cell's last
 * value (its MIME-bundle method, getters, util.inspect's custom inspector). Functions a model planted there as
 * bound natives (an operator control, an approved adapter) run here without any interior mark, so the context
 * itself says "not the operator"; it is inherited by every timer and promise started during the read.
 */
const quarantine = new PrivateAsyncContext<{ readonly reading: string }>();
/** Host code is reading an untrusted value outside any run (see `quarantine`). */
export function insideUntrustedRead(): boolean {
  return frames.getStore() === undefined && quarantine.getStore() !== undefined;
}

/**
 * Anomalies no Runner's ledger holds: refusals while reading untrusted values outside a run (see `quarantine`),
 * and refusals and built-in changes in core-only runs (`nh.run` with no Runner). Read by Session.anomalies and
 * `anomaliesOutsideRunners()`. Bounded, append-only.
 */
export interface OutsideRunnerAnomaly {
  /** The core-only run it happened in; none for a read outside any run. */
  readonly runId: string | undefined;
  readonly anomalyKind: string;
  readonly detail: Readonly<Record<string, unknown>>;
  readonly at: number;
}
const outsideRunners: OutsideRunnerAnomaly[] = [];
const OUTSIDE_RUNNERS_LIMIT = 1000;
let outsideRunnersDropped = 0;

/** Which of them are listed, per run, kind and parent, as a run lists its own (anomaly-tally.ts). */
const outsideRunnersTally = new AnomalyTally();

/**
 * Adds to the record of anomalies no Runner's ledger holds. It counts what it does not list: repeats past the
 * tally's listing (a loop of caught refusals in one core-only run must not fill the process's record and hide the
 * anomalies of every later one), and everything once full.
 */
export function noteOutsideRunners(anomalyKind: string, detail: Readonly<Record<string, unknown>>, runId?: string, parentId?: string): void {
  if (outsideRunners.length >= OUTSIDE_RUNNERS_LIMIT || !outsideRunnersTally.note(`${runId ?? ''}\0${anomalyKind}\0${parentId ?? ''}`, detail)) {
    outsideRunnersDropped++;
    return;
  }
  append(outsideRunners, Object.freeze({ runId, anomalyKind, detail: Object.freeze({ ...detail }), at: wallClockMs() }));
}

/** Runs `fn` (a host read of a value model output may have built) as not-the-operator; see `quarantine`. */
export function readingUntrustedValue<T>(reading: string, fn: () => T): T {
  // Before any context was entered nothing has run under a host or a step, so no value a model built exists:
  // the read needs no context, and the process keeps running without the async hook (privateAsyncContextInUse).
  if (!privateAsyncContextInUse()) return fn();
  return quarantine.run(Object.freeze({ reading }), fn);
}

/** Records like a run's host, into the record of anomalies outside Runners (the parent goes into the detail). */
export function recorderOutsideRunners(runId?: string): Pick<HostHandle, 'recordAnomaly'> {
  return { recordAnomaly: (anomalyKind, detail, parentId) => noteOutsideRunners(anomalyKind, parentId === undefined ? detail : { ...detail, parentId }, runId, parentId) };
}
const outsideRunnersRecorder = Object.freeze(recorderOutsideRunners());

/** Where an anomaly of the code running now is recorded: its run's host, else (a core-only run) outside Runners. */
export function anomalyRecorder(frame: HostFrame | undefined = frames.getStore()): Pick<HostHandle, 'recordAnomaly'> {
  return frame?.host ?? outsideRunnersRecorder;
}

/** Anomalies no Runner's ledger holds (frozen copies, oldest first); see `noteOutsideRunners`. */
export function anomaliesOutsideRunners(): readonly OutsideRunnerAnomaly[] {
  // Index loop and captured append: model code may have replaced Array.prototype methods by the time this is read.
  const out: OutsideRunnerAnomaly[] = [];
  for (let i = 0; i < outsideRunners.length; i++) append(out, outsideRunners[i]!);
  if (outsideRunnersDropped > 0) append(out, droppedAnomalies('outside-runners', outsideRunnersDropped));
  return Object.freeze(out);
}

/**
 * True while interior code of a host-established run is executing, or host code reads a value model output may
 * have built (readingUntrustedValue): operator controls refuse then.
 */
export function insideHostFrame(): boolean {
  return frames.getStore() !== undefined || quarantine.getStore() !== undefined;
}

/** Inside a host frame whose run no longer admits work: code a model left behind, called after its run. */
export function insideEndedRun(): boolean {
  const state = frames.getStore()?.host.state;
  return state !== undefined && state !== 'running';
}

export function runInFrame<T>(frame: HostFrame, fn: () => T): T {
  return frames.run(Object.isFrozen(frame) ? frame : Object.freeze({ ...frame }), fn);
}

/** Runs `fn` as host infrastructure under a gateway allowance that expires when it settles. */
export async function withAllowance<T>(holder: string, fn: () => T | Promise<T>, reach: AllowanceReach = 'all', origins?: readonly string[]): Promise<T> {
  const frame = frames.getStore();
  if (!frame) return await fn();
  const allowance = new Allowance(holder, reach, reach === 'network' ? origins : undefined);
  try {
    return await frames.run(Object.freeze({ ...frame, allowance }), fn);
  } finally {
    Allowance.expire(allowance);
  }
}

/**
 * Runs a host-infrastructure call (the perimeter audit store) under an allowance that expires when
 * it returns or, for a promise, settles. Synchronous, so the host's own store writes stay sync.
 */
export function asHostInfrastructure<T>(holder: string, fn: () => T): T {
  const frame = frames.getStore();
  if (!frame) return fn();
  const allowance = new Allowance(holder, 'all');
  let result: T;
  try {
    result = frames.run(Object.freeze({ ...frame, allowance }), fn);
  } catch (error) {
    Allowance.expire(allowance);
    throw error;
  }
  if (result instanceof Promise) return result.finally(() => Allowance.expire(allowance)) as T;
  Allowance.expire(allowance);
  return result;
}

/**
 * Code that is not the host's: a run's interior without a live gateway allowance (or under a model request's,
 * which admits the network only), model code of a core-only run (no host frame at all), or a callback a model
 * planted in a value the host is reading outside any run (readingUntrustedValue).
 */
export function actingForModel(): boolean {
  return interiorWithoutAllowance() !== undefined || networkOnlyAllowance() !== undefined || coreOnlyModelCode() || insideUntrustedRead();
}

/**
 * Code no operator control answers: a run's (any host frame), a callback a model planted in a value the host reads,
 * or a core-only run's model code. The Session's controls, the kernel's message handlers and console.clear ask this.
 */
export function notOperatorCode(): boolean {
  return insideHostFrame() || coreOnlyModelCode();
}

/**
 * An operation body (a model expression's evaluation, a tool call) running with no host frame: a core-only run's.
 * Asked of the core's private operation mark, not of the interior mark, whose public async store model code can
 * overwrite (a forged mark left in the operator's continuation must not make the operator's own calls refused).
 */
export function coreOnlyModelCode(): boolean {
  return frames.getStore() === undefined && insideOperationBody();
}

/**
 * The perimeter audit store and the SQLite ledger store are host infrastructure: opening, writing or closing
 * either from code acting for a model is recorded (`audit_store_in_run` / `ledger_store_in_run`) and refused.
 * The ledger store's file is the host's record of runs, written by a native addon out of the effect audit's sight.
 */
export function refuseHostStoreInRun(store: 'audit' | 'ledger', operation: string): void {
  if (!actingForModel()) return;
  recordRefusal(`${store}_store_in_run`, { operation });
  const what = store === 'audit' ? 'a perimeter audit store' : 'a ledger store';
  throw new HostIntegrityError({ attempt: `${store}-store-in-run`, detail: `${operation} is host infrastructure; code acting for a model may not open or write ${what}` });
}

/** Runs `fn` with no gateway allowance (every Natural execution starts this way). */
export function withoutAllowance<T>(fn: () => T): T {
  const frame = frames.getStore();
  if (!frame || !frame.allowance) return fn();
  return frames.run(Object.freeze({ ...frame, allowance: undefined }), fn);
}

/** The frame when a live network-only allowance (a model request being sent) is in force; see AllowanceReach. */
export function networkOnlyAllowance(): HostFrame | undefined {
  const frame = frames.getStore();
  return frame !== undefined && Allowance.networkOnly(frame.allowance) ? frame : undefined;
}

/** The places the live network-only allowance of `frame` admits; undefined when it admits any. */
export function allowedPlaces(frame: HostFrame): readonly NetworkPlace[] | undefined {
  return Allowance.places(frame.allowance);
}

/** True when interior code is running under an active host and no live allowance. */
export function interiorWithoutAllowance(): HostFrame | undefined {
  const frame = frames.getStore();
  if (!frame) return undefined;
  if (frame.allowance?.active) return undefined;
  return frame;
}

/**
 * Records that interior code reached an operator-only control (the caller then throws). The only
 * thing it can write is that one anomaly kind, in the run whose interior is executing.
 */
export function refuseInteriorControl(control: string, anomalyKind: 'operator_control_in_run' | 'ledger_append_refused' = 'operator_control_in_run'): void {
  const displaying = anomalyKind === 'operator_control_in_run' && !frames.getStore() && quarantine.getStore() !== undefined;
  recordRefusal(displaying ? 'operator_control_while_displaying' : anomalyKind, { control });
}

/**
 * Records a refused attempt where it was made: in the run whose interior executes, or, with no Runner's run (the
 * host reading an untrusted value outside any run, or a core-only run), in the record of anomalies outside Runners.
 */
function recordRefusal(anomalyKind: string, detail: Record<string, unknown>): void {
  const frame = frames.getStore();
  if (frame) {
    frame.host.recordAnomaly(anomalyKind, detail, frame.submitterId);
    return;
  }
  // No run's ledger: a read outside any run, or model code of a core-only run.
  const reading = quarantine.getStore()?.reading;
  noteOutsideRunners(anomalyKind, reading === undefined ? detail : { ...detail, reading });
}

/**
 * The interior mark's controls, as the library's public entry point offers them. Choosing the mark is host machinery
 * (a gateway, a Natural execution's own setup, the wrappers of dispatched code and late callbacks); model code (an
 * expression, generated code, an operation body) that reached the public module would use them to run unmarked, past
 * every refusal that asks whether model code is calling, or under a mark of its own making, whose left-behind
 * callbacks no execution's end stops and whose anomalies name whom it chose. So they refuse model code, and record it.
 */
function refuseToModelCode(control: string, attempt: 'clear-interior-mark' | 'choose-interior-mark' | 'ledger-append' | 'unwrap-operator-data', detail: string): void {
  if (!modelCodeRunning()) return;
  refuseInteriorControl(control);
  throw new HostIntegrityError({ attempt, detail });
}

export function publicRunOutsideInterior<T>(fn: () => T): T {
  refuseToModelCode('runOutsideInterior', 'clear-interior-mark', 'runOutsideInterior is host machinery; model code may not clear its own interior mark');
  return runOutsideInterior(fn);
}

export function publicReenterInterior<T>(mark: InteriorMark, fn: () => T): T {
  refuseToModelCode('reenterInterior', 'choose-interior-mark', 'reenterInterior is host machinery; model code may not replace or clear its own interior mark');
  return reenterInterior(mark, fn);
}

export function publicRunInterior<T>(mark: InteriorMark, fn: () => T, live?: () => InteriorRefusal | undefined): T {
  refuseToModelCode('runInterior', 'choose-interior-mark', 'runInterior is host machinery; model code may not choose the interior mark it runs under');
  return runInterior(mark, fn, live);
}

/** The core's `operatorValue` as the public module offers it: model code would reach SessionFunctions themselves through it. */
export function publicOperatorValue<T>(value: T): T {
  refuseToModelCode('operatorValue', 'unwrap-operator-data', "operatorValue hands out the operator's object behind a membrane; model code sees operator data only through it");
  return operatorValue(value);
}

/** The core's `modelFacingFunction` as the public module offers it: the function it makes calls `fn` with the operator's own objects. */
export function publicModelFacingFunction<F extends Function>(fn: F): F {
  refuseToModelCode('modelFacingFunction', 'unwrap-operator-data', "modelFacingFunction calls the function it wraps with the operator's own objects; model code sees operator data only through its membrane");
  return modelFacingFunction(fn);
}

export function publicNoteUnmarkedModelCode(mark: InteriorMark): void {
  refuseToModelCode('noteUnmarkedModelCode', 'choose-interior-mark', 'noteUnmarkedModelCode is host machinery; model code may not choose the mark it is treated under');
  noteUnmarkedModelCode(mark);
}

/** The core's refusal report as the public module offers it: the anomalies it writes are the host's record. */
export function publicReportRefusal(anomalyKind: string, detail: Readonly<Record<string, unknown>>): void {
  refuseToModelCode('reportRefusal', 'ledger-append', "reportRefusal records the host's own refusals as trace anomalies; model code may not write them");
  reportRefusal(anomalyKind, detail);
}

/**
 * The core's refusal sinks as the public module offers them. The harness installs its own when it loads and the
 * first installation stands, so a later one changes nothing; from model code the attempt is refused and recorded.
 */
export function publicSetRefusalSink(value: RefusalSink): void {
  refuseToModelCode('setRefusalSink', 'ledger-append', "the refusal sink records the host's own refusals; model code may not install one");
  setRefusalSink(value);
}

/** The core's built-ins check of core-only runs, as the public module offers it (see publicSetRefusalSink). */
export function publicSetRealmSeam(value: RealmSeam): void {
  refuseToModelCode('setRealmSeam', 'ledger-append', "the built-ins check restores and records what model code changed; model code may not install one");
  setRealmSeam(value);
}

// The host's own work inside a model request (a cassette's writes) runs under an allowance for everything.
setInfrastructureSeam(asHostInfrastructure);

export function publicSetInfrastructureSeam(value: InfrastructureRunner): void {
  refuseToModelCode('setInfrastructureSeam', 'ledger-append', 'the infrastructure seam admits every effect to host work inside a model request; model code may not install one');
  setInfrastructureSeam(value);
}

export function publicClaimInfrastructureRunner(): InfrastructureRunner | undefined {
  refuseToModelCode('claimInfrastructureRunner', 'ledger-append', 'the infrastructure runner admits every effect; model code may not claim it');
  return claimInfrastructureRunner();
}

/** The record of refused writes already seen, as the public module offers it (the harness claimed it as it loaded). */
export function publicClaimFrozenWriteSight(): ReturnType<typeof claimFrozenWriteSight> {
  refuseToModelCode('claimFrozenWriteSight', 'ledger-append', 'the record of refused writes already seen decides what the ledger records; model code may not claim it');
  return claimFrozenWriteSight();
}

/** The means to have a membrane answer a Reflect write `false`, as the public module offers it (the harness claimed it as it loaded). */
export function publicClaimReflectWriteAnswer(): ReturnType<typeof claimReflectWriteAnswer> {
  refuseToModelCode('claimReflectWriteAnswer', 'ledger-append', 'a Reflect write answered false is recorded only by the harness; model code may not claim the answer');
  return claimReflectWriteAnswer();
}

export function publicSetLateRefusalSink(value: LateRefusalSink): void {
  refuseToModelCode('setLateRefusalSink', 'ledger-append', "the late refusal sink records the host's own refusals; model code may not install one");
  setLateRefusalSink(value);
}
