/**
 * The single host-owned dispatch of generated code. A CodeProposal (an inert value) is validated,
 * admitted, compiled under guards and materialized as one dispatch node; each call of an export is
 * an invocation node. Generated code runs only while its node is live: a helper that escapes its
 * dispatch refuses to start or resume afterwards.
 */
import { currentInterior, describeError, facingArguments, interiorParentId, interiorRefusal, isInstance, type SeenAt, isNaturalFunction, modelFacingReference, newId, nextModelFacingEpoch, operatorValue, operatorValueDeep, NighthawkError, PrivateAsyncContext, runInterior, taintedByModelCode, untilStopped } from '../core/index.js';
import { AllocationExhaustedError, RunTerminatedError } from './run-errors.js';
import { currentHostFrame, runInFrame, type HostFrame } from './host-context.js';
import { markGenerated } from './generated-registry.js';
import { markLateRefusal } from './late-callbacks.js';
import type { LedgerAppend } from './ledger.js';
import { decideOnLoadedBuiltins, recordRealmChanges } from './realm-integrity.js';
import { noteFrozenWrite } from './frozen-write-record.js';
import { append, isPromise, mapSet, objectHasOwn, promiseReject, promiseThen, put, reflectApply, weakMapGet, weakSetAdd, weakSetHas } from './intrinsics.js';
import {
  compileGenerated,
  definitionIdOf,
  frozenProposal,
  parseCodeProposal,
  type CodeProposal,
  type GeneratedFunction,
  GeneratedCodeOutsideDispatchError,
  type GrantedDependency,
} from './generated/index.js';
import type { Authority } from './grant.js';
import type { RunHost } from './run-host.js';
import type { ConfinementRequest, ConfinementService } from './termination.js';

type ConfirmationAnswer = { readonly confirmed: boolean; readonly detail: string };

/**
 * A write the engine refused generated code, noted under `nodeId` unless it was recorded where it was seen first.
 * With `seenAt`, the code's own guard handed it over (a catch block, a function it left) under the live node; without,
 * the node failed or was rejected with it (after the node's end): what no function body saw, such as a built-in
 * exported as is, or the module's top level.
 */
function noteNodeFrozenWrite(host: RunHost, error: unknown, nodeId: string, seenAt?: SeenAt): void {
  noteFrozenWrite(host, error, nodeId, { nodeId }, seenAt);
}

const UNCONFIGURED: ConfirmationAnswer = { confirmed: true, detail: 'in-process regime' };

/**
 * Asks the service on the built-ins the host loaded with (`decideOnLoadedBuiltins`); a synchronous answer stays
 * synchronous so synchronous exports can be confirmed. Anything but `true` confirms nothing.
 */
function confirmationNow(service: ConfinementService | undefined, request: ConfinementRequest, host: RunHost, parentId: string): ConfirmationAnswer | Promise<ConfirmationAnswer> {
  if (!service) return UNCONFIGURED;
  const voided = { confirmed: false, detail: 'built-ins changed while confirm awaited' } as const;
  let raw: boolean | typeof voided | Promise<boolean | typeof voided>;
  try {
    raw = decideOnLoadedBuiltins(host, parentId, () => service.confirm(request), () => voided);
  } catch (error) {
    return { confirmed: false, detail: `confirm threw: ${String((error as Error)?.message ?? error)}` };
  }
  const answer = (value: boolean | typeof voided): ConfirmationAnswer =>
    value === voided ? voided : value === true ? { confirmed: true, detail: 'confirmed' } : { confirmed: false, detail: 'not confirmed' };
  if (raw instanceof Promise) return raw.then(answer, (error: unknown) => ({ confirmed: false, detail: `confirm rejected: ${String((error as Error)?.message ?? error)}` }));
  return answer(raw);
}

async function settleConfirmation(service: ConfinementService | undefined, request: ConfinementRequest, host: RunHost, parentId: string): Promise<ConfirmationAnswer> {
  return await confirmationNow(service, request, host, parentId);
}

/** The liveness of `node` for callbacks its code leaves behind (see late-callbacks.ts). */
const nodeEnded = (node: LiveNode, host: RunHost) => (): 'dispatch-ended' | undefined =>
  node.terminal || host.state !== 'running' ? 'dispatch-ended' : undefined;

/** Exports whose call contract is a promise: async functions and Natural functions. */
const isAsyncFunction = (fn: Function): boolean => (fn as { [Symbol.toStringTag]?: string })[Symbol.toStringTag] === 'AsyncFunction' || isNaturalFunction(fn);

/** A live node: generated code may run only while `terminal` is false and it is the current node. */
interface LiveNode {
  readonly nodeId: string;
  readonly materializationId: string;
  terminal: boolean;
}

const liveNodes = new PrivateAsyncContext<LiveNode>();

/**
 * The id to record under when the interior calling now has outlived its window: the current dispatch node has
 * ended, or the interior mark refuses (its node or execution ended, or it is between operations). Host functions
 * handed to generated code (export wrappers, capability dependencies) have no guard of their own, so a timer or
 * listener the code left behind would otherwise reach dispatch and the gateway through them. Undefined: live.
 */
function endedSubmitter(): string | undefined {
  const live = liveNodes.getStore();
  if (live?.terminal) return live.nodeId;
  const mark = currentInterior();
  if (mark === undefined || interiorRefusal(mark) === undefined) return undefined;
  return interiorParentId(mark);
}

export interface Materialization {
  readonly nodeId: string;
  readonly definitionId: string;
  /** Run-local identity of this materialization. */
  readonly materializationId: string;
  /**
   * For a RetainedFunction's re-materialization, the definition identity originally observed for its selected
   * export (`linkedExport`); otherwise this definition's own identity.
   */
  readonly originalDefinitionId: string;
  /** The one export linked to `originalDefinitionId` (a RetainedFunction's selected export), if any. */
  readonly linkedExport?: string;
  readonly exports: Readonly<Record<string, unknown>>;
  readonly proposal: CodeProposal;
}

export interface DispatchOutcome extends Materialization {
  /** Present for the define-and-invoke intent: the invocation node and its value. */
  readonly invocation?: { readonly nodeId: string; readonly value: unknown };
}

/** Dispatch refused before any generated code ran (invalid proposal, confinement not confirmed). */
export class DispatchRejectedError extends NighthawkError {
  readonly reason: 'invalid-proposal' | 'confinement-unconfirmed' | 'run-closed' | 'other-run' | 'model-code' | 'branch-terminated' | 'outside-authority';
  constructor(options: { reason: DispatchRejectedError['reason']; detail: string; cause?: unknown }) {
    super('dispatch-rejected', `Dispatch rejected (${options.reason}): ${options.detail}`, { cause: options.cause });
    this.reason = options.reason;
  }
}

/** A RetainedFunction's link: the definition identity originally observed and the export it selected. */
interface RetainedLink {
  readonly originalDefinitionId: string;
  readonly exportName: string;
}

// Set by Dispatcher's static block (see dispatchRetained).
let linkedDispatch: (dispatcher: Dispatcher, proposal: unknown, link: RetainedLink) => Promise<DispatchOutcome>;

// Materializations this module made: only these carry an identity a RetainedFunction may take over.
const genuine = new WeakSet<object>();

/**
 * The definition identity the host observed for `exportName` of a materialization it made: the original one for
 * the export a RetainedFunction linked, else this definition's own. Undefined for any other object (a copy or
 * a forgery claims nothing).
 */
export function observedIdentityOf(materialization: Materialization, exportName: string): string | undefined {
  if (!weakSetHas(genuine, materialization)) return undefined;
  return materialization.linkedExport === exportName ? materialization.originalDefinitionId : materialization.definitionId;
}

/** RetainedFunction's dispatch: the same host-owned dispatch, with the selected export linked (harness-internal). */
export function dispatchRetained(dispatcher: Dispatcher, proposal: unknown, link: RetainedLink): Promise<DispatchOutcome> {
  return linkedDispatch(dispatcher, proposal, link);
}

export class Dispatcher {
  readonly #host: RunHost;
  readonly #confinement: ConfinementService | undefined;

  constructor(host: RunHost, confinement: ConfinementService | undefined) {
    this.#host = host;
    this.#confinement = confinement;
  }

  /** Dispatches a proposal (a committed write-binding value or a typed capability request). */
  dispatch(value: unknown): Promise<DispatchOutcome> {
    return this.#dispatch(value, undefined);
  }

  static {
    linkedDispatch = (dispatcher, proposal, link) => dispatcher.#dispatch(proposal, link);
  }

  /**
   * `link`: a RetainedFunction re-materializing its definition (seed 001: a fresh run-local identity whose selected
   * export, and only that one, links to the definition identity originally observed). Reached only through
   * dispatchRetained, which the harness index does not export: interior code cannot claim a lineage.
   */
  async #dispatch(value: unknown, link: RetainedLink | undefined): Promise<DispatchOutcome> {
    const host = this.#host;
    const frame = currentHostFrame();
    if (frame !== undefined && frame.host !== host) {
      host.refuseOtherRun(frame, { dispatch: true });
      throw new DispatchRejectedError({ reason: 'other-run', detail: `this dispatcher belongs to run ${host.runId}, not to the run using it` });
    }
    // Generated source reaches dispatch by the two typed routes only (a committed CodeProposal, the execute_code
    // capability), which the host runs outside any interior mark. Model code calling the dispatcher itself would
    // run what it wrote past oversight of the proposal and without the capability's grant.
    const mark = currentInterior() ?? taintedByModelCode();
    if (mark !== undefined) {
      host.recordAnomaly('dispatch_from_model_code', { interior: mark.kind, ...(mark.kind === 'generated' ? { definitionId: mark.definitionId } : {}) }, interiorParentId(mark));
      throw new DispatchRejectedError({ reason: 'model-code', detail: `${mark.kind === 'expression' ? 'a model expression' : 'generated code'} may not dispatch generated source itself; propose it through a write binding or the execute_code capability` });
    }
    const parentId = frame?.submitterId ?? host.runId;
    if (host.state !== 'running') {
      host.recordAnomaly('dispatch_after_run_closed', {}, parentId);
      throw new DispatchRejectedError({ reason: 'run-closed', detail: 'the run is not admitting interior operations' });
    }
    refuseInClosedBranch(host, parentId);
    const parsed = parseCodeProposal(value);
    if (!parsed.ok) throw new DispatchRejectedError({ reason: 'invalid-proposal', detail: parsed.issues.join('; ') });
    const proposal = frozenProposal(parsed.proposal);
    // The identity is computed on the built-ins the host loaded with (normalising the source reads String and
    // Array methods): a model expression of this step may have replaced one to name other content.
    recordRealmChanges(host, parentId);
    const definitionId = definitionIdOf(proposal);
    const nodeId = newId('dsp_');
    const request: ConfinementRequest = { runId: host.runId, nodeId, definitionId, node: 'materialization' };
    if (this.#confinement) host.noteObjectEdits(parentId);
    this.#requireConfirmation(request, await settleConfirmation(this.#confinement, request, host, parentId), parentId);
    if (host.state !== 'running') throw new DispatchRejectedError({ reason: 'run-closed', detail: 'the run is not admitting interior operations' });
    // Checked again: the branch may have been terminated while the boundary decided (an asynchronous confirm).
    refuseInClosedBranch(host, parentId);
    this.#admit(frame, nodeId, parentId);
    const materializationId = newId('def_');
    const originalDefinitionId = link?.originalDefinitionId ?? definitionId;
    const linked = link ? { linkedExport: link.exportName } : {};
    const node: LiveNode = { nodeId, materializationId, terminal: false };
    const dependencies = this.#dependencies(proposal, definitionId, frame?.host === host ? frame.authority : host.rootAuthority);
    const references = boundReferences(proposal, dependencies);
    this.#start(node, parentId, 'materialization', { intent: proposal.intent, language: proposal.language, definitionId, materializationId, originalDefinitionId, ...linked, source: proposal.source, dependencies: proposal.dependencies ?? [] });
    let materialization: Materialization;
    try {
      const compiled = liveNodes.run(node, () =>
        runInFrame(this.#frameFor(frame, nodeId), () =>
          compileGenerated(proposal, {
            // After the run ended, recordAnomaly routes the evidence to the Runner's (and Session's) anomaly record.
            onAnomaly: (a) => host.recordAnomaly(a.kind, { ...a }, nodeId),
            isLive: () => {
              const live = liveNodes.getStore();
              return live !== undefined && live.materializationId === materializationId && !live.terminal && host.state === 'running';
            },
            // A refused write the code swallows (a catch block, a `.catch` on its function's promise) is still an attempt:
            // noted under the node running the code that saw it.
            onCaught: (caught, seenAt) => noteNodeFrozenWrite(host, caught, liveNodes.getStore()?.nodeId ?? nodeId, seenAt),
            dependencies,
            granted: this.#granted(frame),
            // Only the export a RetainedFunction selected is linked to the original identity in its invocation records.
            wrapExport: (name, fn) => this.#wrap(name, fn, link && name === link.exportName ? { definitionId, materializationId, originalDefinitionId, linked: true } : { definitionId, materializationId, originalDefinitionId: definitionId }, references),
            runInterior: (fn) => runInterior({ kind: 'generated', nodeId, definitionId }, fn, nodeEnded(node, host)),
          }),
        ),
      );
      // The entry was a function export when validated; the module body may have rebound it (`add = 5`). Rejected
      // with the materialization, not left to fail inside the host once the node has completed.
      if (proposal.intent === 'define-and-invoke' && weakMapGet(this.#invokers, compiled.exports[proposal.entry!] as object) === undefined) {
        throw new DispatchRejectedError({ reason: 'invalid-proposal', detail: `entry '${proposal.entry!}' is not a function export at materialisation` });
      }
      materialization = Object.freeze({ nodeId, definitionId, materializationId, originalDefinitionId, ...linked, exports: compiled.exports, proposal });
      weakSetAdd(genuine, materialization);
    } catch (error) {
      recordRealmChanges(host, nodeId);
      host.endDispatch(nodeId, 'rejected', { error });
      noteNodeFrozenWrite(host, error, nodeId);
      throw error;
    }
    recordRealmChanges(host, nodeId);
    host.endDispatch(nodeId, 'completed', { exports: Object.keys(materialization.exports), materializationId });
    if (proposal.intent !== 'define-and-invoke') return materialization;
    const invoke = weakMapGet(this.#invokers, materialization.exports[proposal.entry!] as object)!;
    const outcome = Object.freeze({ ...materialization, invocation: invoke(undefined, [...(proposal.args ?? [])]) });
    weakSetAdd(genuine, outcome);
    return outcome;
  }

  readonly #invokers = new WeakMap<object, (thisArg: unknown, args: unknown[]) => { nodeId: string; value: unknown }>();

  #admit(frame: HostFrame | undefined, nodeId: string, parentId: string): void {
    try {
      this.#host.allocation.admitDispatch((frame?.depth ?? 0) + 1);
    } catch (error) {
      if (isInstance(error, AllocationExhaustedError)) {
        this.#host.append({ kind: 'allocation.exhausted', subjectId: nodeId, parentId, status: error.resource, data: { resource: error.resource } });
      }
      throw error;
    }
  }

  /** Records an admitted node's start and registers it as an active branch of the run. */
  #start(node: LiveNode, parentId: string, status: 'materialization' | 'invocation', data: Record<string, unknown>): void {
    const host = this.#host;
    mapSet(host.activeDispatches, node.nodeId, { parentId, close: () => (node.terminal = true) });
    // The node's fields come from materialize/invoke; the union's per-status shape is checked by its tests.
    host.append({ kind: 'dispatch.start', subjectId: node.nodeId, parentId, status, data: { ...data, confinementIdentity: this.#confinement?.identity ?? null } as LedgerAppend<'dispatch.start'>['data'] });
  }

  /**
   * Seed 002: with confinement configured every dispatch node needs its confirmation before generated
   * execution begins; a missing one rejects the node and records no admitted dispatch event.
   */
  #requireConfirmation(request: ConfinementRequest, answer: ConfirmationAnswer, parentId: string): void {
    const confinement = this.#confinement;
    if (!confinement || answer.confirmed) return;
    this.#host.recordAnomaly('confinement_unconfirmed', { nodeId: request.nodeId, node: request.node, definitionId: request.definitionId, confinementIdentity: confinement.identity, detail: answer.detail }, parentId);
    throw new DispatchRejectedError({ reason: 'confinement-unconfirmed', detail: `the external boundary '${confinement.identity}' did not confirm this ${request.node} node (${answer.detail})` });
  }

  #frameFor(frame: HostFrame | undefined, nodeId: string): HostFrame {
    return { host: this.#host, authority: frame?.host === this.#host ? frame.authority : this.#host.rootAuthority, allowance: undefined, submitterId: nodeId, depth: (frame?.depth ?? 0) + 1 };
  }

  #granted(frame: HostFrame | undefined): Record<string, GrantedDependency> {
    const authority = frame?.host === this.#host ? frame.authority : this.#host.rootAuthority;
    const out: Record<string, GrantedDependency> = {};
    for (const cap of authority.capabilities.values()) out[cap.name] = { kind: 'capability', type: cap.signature };
    for (const [name, value] of Object.entries(authority.references)) out[name] = { kind: 'reference', type: typeLabel(value) };
    return out;
  }

  #dependencies(proposal: CodeProposal, definitionId: string, authority: Authority): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const dependencies = proposal.dependencies ?? [];
    const host = this.#host;
    const capability = (name: string) => (request: unknown): Promise<unknown> => {
      const ended = endedSubmitter();
      if (ended === undefined) return host.invokeCapability(name, request);
      // After run.end recordAnomaly goes to the late record; the mark lets a timer absorb the rejection.
      host.recordAnomaly('capability_outside_dispatch', { capability: name, definitionId }, ended);
      return promiseReject(markLateRefusal(new GeneratedCodeOutsideDispatchError({ definitionId, site: 'entry' })));
    };
    nextModelFacingEpoch();
    for (let i = 0; i < dependencies.length; i++) {
      const d = dependencies[i]!;
      // Own references only: `in` would also find `constructor`, `__proto__` or a key added to Object.prototype.
      if (d.kind === 'capability' && authority.capabilities.has(d.name)) put(out, d.name, capability(d.name));
      else if (d.kind === 'reference' && objectHasOwn(authority.references, d.name)) put(out, d.name, modelFacingReference(authority.references[d.name]));
    }
    return out;
  }

  /** Host wrapper of a generated export: every call is an invocation node of the current run. */
  #wrap(name: string, fn: GeneratedFunction, ids: { definitionId: string; materializationId: string; originalDefinitionId: string; linked?: true }, references: readonly BoundReference[]): GeneratedFunction {
    const host = this.#host;
    const dispatcher = this;
    /** A call whose calling node has ended (`generated_export_outside_dispatch`): no node starts under its terminal event. */
    const refuseAfterCallerEnded = (): void => {
      const ended = endedSubmitter();
      if (ended === undefined) return;
      host.recordAnomaly('generated_export_outside_dispatch', { export: name, definitionId: ids.definitionId }, ended);
      throw markLateRefusal(new GeneratedCodeOutsideDispatchError({ definitionId: ids.definitionId, site: 'entry' }));
    };
    const invoke = (thisArg: unknown, args: unknown[], deliver: (value: unknown) => unknown = asItIs): { nodeId: string; value: unknown } => {
      const frame = currentHostFrame();
      if (host.state !== 'running' || frame?.host !== host) {
        host.recordAnomaly('generated_export_outside_run', { export: name, definitionId: ids.definitionId }, frame?.host === host ? frame.submitterId : undefined);
        // Recorded: left in a timer or listener, the refusal is absorbed there instead of ending the process.
        throw markLateRefusal(new RunTerminatedError({ runId: host.runId, ceased: host.state !== 'running', reason: `generated export '${name}' carries no authority outside its run` }));
      }
      // Left in a timer by a node that ended: it would start a node under that ended parent.
      refuseAfterCallerEnded();
      refuseInClosedBranch(host, frame.submitterId);
      // The module body holds the references it was materialized with: called where the authority in force lacks one
      // (inside ctx.attenuate), it would hand the caller's narrower scope that reference (seed 001: an invocation
      // receives no more authority than its submitter holds). Capability dependencies are the gateway's, per call.
      const ambient = ambientReferences(frame.authority, references);
      if (ambient.length > 0) {
        host.recordAnomaly('ambient_dependency', { export: name, definitionId: ids.definitionId, references: ambient }, frame.submitterId);
        throw new DispatchRejectedError({ reason: 'outside-authority', detail: `generated export '${name}' was materialized with reference(s) ${ambient.join(', ')}, which the authority in force here does not hold` });
      }
      const nodeId = newId('dsp_');
      const request: ConfinementRequest = { runId: host.runId, nodeId, definitionId: ids.definitionId, node: 'invocation', exportName: name };
      if (dispatcher.#confinement) host.noteObjectEdits(frame.submitterId);
      const answer = confirmationNow(dispatcher.#confinement, request, host, frame.submitterId);
      if (answer instanceof Promise) {
        // An asynchronous confirmation can only precede an export whose call contract is a promise.
        if (!isAsyncFunction(fn)) {
          answer.catch(() => undefined);
          dispatcher.#requireConfirmation(request, { confirmed: false, detail: 'a synchronous export needs a synchronous confirmation' }, frame.submitterId);
        }
        const value = answer.then((settled) => {
          dispatcher.#requireConfirmation(request, settled, frame.submitterId);
          // While the boundary decided, the caller's branch may have been terminated (refused as such first), or the
          // calling node may have ended (it returned without awaiting this call). A synchronous confirmation leaves
          // no such gap for the latter: the caller is still on the stack.
          refuseInClosedBranch(host, frame.submitterId);
          refuseAfterCallerEnded();
          return runFrom(frame, thisArg, args, nodeId, deliver).value;
        });
        return { nodeId, value };
      }
      dispatcher.#requireConfirmation(request, answer, frame.submitterId);
      return runFrom(frame, thisArg, args, nodeId, deliver);
    };
    const runFrom = (frame: HostFrame, thisArg: unknown, args: unknown[], nodeId: string, deliver: (value: unknown) => unknown): { nodeId: string; value: unknown } => {
      if (host.state !== 'running' || frame.host !== host) {
        throw new RunTerminatedError({ runId: host.runId, ceased: host.state !== 'running', reason: `generated export '${name}' carries no authority outside its run` });
      }
      dispatcher.#admit(frame, nodeId, frame.submitterId);
      const node: LiveNode = { nodeId, materializationId: ids.materializationId, terminal: false };
      dispatcher.#start(node, frame.submitterId, 'invocation', { export: name, ...ids, arguments: args });
      const end = (status: 'completed' | 'failed', data: Record<string, unknown>) => {
        recordRealmChanges(host, nodeId);
        host.endDispatch(nodeId, status, data);
        if (status === 'failed') noteNodeFrozenWrite(host, data.error, nodeId);
      };
      let result: unknown;
      try {
        result = liveNodes.run(node, () =>
          runInFrame(dispatcher.#frameFor(frame, nodeId), () => runInterior({ kind: 'generated', nodeId, definitionId: ids.definitionId }, () => fn.apply(thisArg, args), nodeEnded(node, host))),
        );
      } catch (error) {
        end('failed', { error });
        throw error;
      }
      // The node's one terminal event must not depend on what the result's maker chose: a real promise is observed
      // through the `then` loaded with the host (an own `then` could drop the callbacks), anything else is a value.
      if (isPromise(result)) {
        let settled: unknown;
        try {
          settled = reflectApply(promiseThen, result, [
            (value: unknown) => {
              end('completed', { result: value });
              return deliver(value);
            },
            (error: unknown) => {
              end('failed', { error });
              throw error;
            },
          ]);
        } catch (error) {
          // Even the loaded `then` reads the promise's `constructor` (its species), which can throw.
          host.recordAnomaly('dispatch_result_unobservable', { export: name, definitionId: ids.definitionId, error }, nodeId);
          end('failed', { error });
          throw error;
        }
        // Awaited by operator code, a promise that never settles would hold the composition and the caller's run call
        // for ever after the run stopped: one turn after the stop the caller gets a typed error. The node itself stays
        // nonterminal until it settles or the termination mechanism establishes its cessation (seed 002).
        const value = untilStopped(settled as Promise<unknown>, host.abort.signal, (reason) =>
          isInstance(reason, RunTerminatedError)
            ? reason
            : new RunTerminatedError({ runId: host.runId, ceased: false, reason: `the run was stopped (${describeError(reason, 200)}) while generated export '${name}' was still running` }),
        );
        return { nodeId, value };
      }
      end('completed', { result });
      return { nodeId, value: deliver(result) };
    };
    const wrapper = function (this: unknown, ...args: unknown[]): unknown {
      // Called by operator code (no model code's mark, nor its taint), the export is a callback of the model's: its
      // `this` and arguments are what model code sees of them (the operator's data through its membrane, so an adapter
      // in it is never the adapter itself), and what it built around operator objects it saw so (an array of the
      // operator's items) is handed back as the operator's own.
      const toOperator = currentInterior() === undefined && taintedByModelCode() === undefined;
      return toOperator ? invoke(modelFacingReference(this), facingArguments(args), operatorValueDeep).value : invoke(this, args, asItIs).value;
    };
    this.#invokers.set(wrapper, invoke);
    Object.defineProperty(wrapper, 'name', { value: name });
    markGenerated(wrapper, { ...ids, exportName: name });
    return wrapper as GeneratedFunction;
  }
}

/** A reference dependency as the module body received it. */
type BoundReference = readonly [name: string, value: unknown];

function boundReferences(proposal: CodeProposal, dependencies: Record<string, unknown>): BoundReference[] {
  const out: BoundReference[] = [];
  const declared = proposal.dependencies ?? [];
  for (let i = 0; i < declared.length; i++) {
    const d = declared[i]!;
    if (d.kind === 'reference' && objectHasOwn(dependencies, d.name)) append(out, [d.name, dependencies[d.name]] as const);
  }
  return out;
}

/** What a generated export's result is handed on as when model code called it. */
const asItIs = (value: unknown): unknown => value;

/** Names of `bound` that `authority` does not hold as the same value (index loops: interior code may have replaced iterators). */
function ambientReferences(authority: Authority, bound: readonly BoundReference[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < bound.length; i++) {
    const name = bound[i]![0];
    if (!objectHasOwn(authority.references, name)) {
      append(out, name);
      continue;
    }
    // Bound as model code saw it then: the value itself, or through its membrane (the cheap lookup first: the other
    // may scan the value), or a SessionFunction's model-facing function.
    const held = authority.references[name];
    const value = bound[i]![1];
    if (operatorValue(value) !== held && modelFacingReference(held) !== value) append(out, name);
  }
  return out;
}

/** Host code still running in a branch its parent asked to terminate (a capability body) starts no node under it. */
function refuseInClosedBranch(host: RunHost, parentId: string): void {
  if (!host.inClosedBranch(parentId)) return;
  host.recordAnomaly('dispatch_in_terminated_branch', {}, parentId);
  throw new DispatchRejectedError({ reason: 'branch-terminated', detail: 'it would run under a dispatch branch its parent asked to terminate (RunContext.terminateBranch)' });
}

function typeLabel(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

export { definitionIdOf };

/** The dispatcher of the run the caller is inside; throws outside a run. */
export function currentDispatcher(): Dispatcher {
  const frame = currentHostFrame();
  const dispatcher = (frame?.host as RunHost | undefined)?.dispatcher;
  if (!dispatcher) throw new DispatchRejectedError({ reason: 'run-closed', detail: 'dispatch is only available inside a host-established run' });
  return dispatcher;
}
Object.freeze(Dispatcher.prototype); // authority class: no method can be replaced, even by code that reaches it
