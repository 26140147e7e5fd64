/**
 * The single host-owned dispatch of generated code. A CodeProposal (an inert value) is validated,
 * admitted, compiled under guards and materialized as one dispatch node; each call of an export is
 * an invocation node. Generated code runs only while its node is live: a helper that escapes its
 * dispatch refuses to start or resume afterwards.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { newId, NighthawkError, runInterior } from '../core/index.js';
import { AllocationExhaustedError, RunTerminatedError } from './run-errors.js';
import { currentHostFrame, runInFrame, type HostFrame } from './host-context.js';
import { markGenerated } from './generated-registry.js';
import { recordRealmChanges } from './realm-integrity.js';
import {
  compileGenerated,
  definitionIdOf,
  parseCodeProposal,
  type CodeProposal,
  type GeneratedFunction,
  type GrantedDependency,
} from './generated/index.js';
import type { RunHost } from './run-host.js';
import type { ConfinementService } from './termination.js';

/** A live node: generated code may run only while `terminal` is false and it is the current node. */
interface LiveNode {
  readonly nodeId: string;
  readonly materializationId: string;
  terminal: boolean;
}

const liveNodes = new AsyncLocalStorage<LiveNode>();

export interface Materialization {
  readonly nodeId: string;
  readonly definitionId: string;
  /** Run-local identity of this materialization. */
  readonly materializationId: string;
  /** For retained functions: the definition identity originally observed. */
  readonly originalDefinitionId: string;
  readonly exports: Readonly<Record<string, unknown>>;
  readonly proposal: CodeProposal;
}

export interface DispatchOutcome extends Materialization {
  /** Present for the define-and-invoke intent: the invocation node and its value. */
  readonly invocation?: { readonly nodeId: string; readonly value: unknown };
}

/** Dispatch refused before any generated code ran (invalid proposal, confinement not confirmed). */
export class DispatchRejectedError extends NighthawkError {
  readonly reason: 'invalid-proposal' | 'confinement-unconfirmed' | 'run-closed';
  constructor(options: { reason: DispatchRejectedError['reason']; detail: string; cause?: unknown }) {
    super('dispatch-rejected', `Dispatch rejected (${options.reason}): ${options.detail}`, { cause: options.cause });
    this.reason = options.reason;
  }
}

export class Dispatcher {
  readonly #host: RunHost;
  readonly #confinement: ConfinementService | undefined;

  constructor(host: RunHost, confinement: ConfinementService | undefined) {
    this.#host = host;
    this.#confinement = confinement;
  }

  /** Dispatches a proposal (a committed write-binding value or a typed capability request). */
  async dispatch(value: unknown, options: { originalDefinitionId?: string } = {}): Promise<DispatchOutcome> {
    const host = this.#host;
    const frame = currentHostFrame();
    const parentId = frame?.submitterId ?? host.runId;
    if (host.state !== 'running') throw new DispatchRejectedError({ reason: 'run-closed', detail: 'the run is not admitting interior operations' });
    const parsed = parseCodeProposal(value);
    if (!parsed.ok) throw new DispatchRejectedError({ reason: 'invalid-proposal', detail: parsed.issues.join('; ') });
    const proposal = Object.freeze({ ...parsed.proposal });
    const definitionId = definitionIdOf(proposal);
    const nodeId = newId('dsp_');
    if (this.#confinement) {
      let confirmed = false;
      try {
        confirmed = (await this.#confinement.confirm({ runId: host.runId, nodeId, definitionId })) === true;
      } catch {
        confirmed = false;
      }
      if (!confirmed) {
        host.recordAnomaly('confinement_unconfirmed', { nodeId, definitionId, confinementIdentity: this.#confinement.identity }, parentId);
        throw new DispatchRejectedError({ reason: 'confinement-unconfirmed', detail: `the external boundary '${this.#confinement.identity}' did not confirm this dispatch` });
      }
    }
    this.#admit(frame, nodeId, parentId);
    const materializationId = newId('def_');
    const originalDefinitionId = options.originalDefinitionId ?? definitionId;
    host.ledger.append(host.runId, {
      kind: 'dispatch.start',
      subjectId: nodeId,
      parentId,
      status: 'materialization',
      data: { intent: proposal.intent, language: proposal.language, definitionId, materializationId, originalDefinitionId, source: proposal.source, dependencies: proposal.dependencies ?? [], confinementIdentity: this.#confinement?.identity ?? null },
    });
    const node: LiveNode = { nodeId, materializationId, terminal: false };
    let materialization: Materialization;
    try {
      const compiled = liveNodes.run(node, () =>
        runInFrame(this.#frameFor(frame, nodeId), () =>
          compileGenerated(proposal, {
            onAnomaly: (a) => (a.kind === 'generated_code_outside_dispatch' ? host.recordLateAnomaly(a.kind, { ...a }, nodeId) : host.recordAnomaly(a.kind, { ...a }, nodeId)),
            isLive: () => {
              const live = liveNodes.getStore();
              return live !== undefined && live.materializationId === materializationId && !live.terminal && host.state === 'running';
            },
            dependencies: this.#dependencies(proposal),
            granted: this.#granted(frame),
            wrapExport: (name, fn) => this.#wrap(name, fn, { definitionId, materializationId, originalDefinitionId }),
            runInterior: (fn) => runInterior({ kind: 'generated', nodeId, definitionId }, fn),
          }),
        ),
      );
      materialization = Object.freeze({ nodeId, definitionId, materializationId, originalDefinitionId, exports: compiled.exports, proposal });
    } catch (error) {
      node.terminal = true;
      recordRealmChanges(host, nodeId);
      host.ledger.append(host.runId, { kind: 'dispatch.end', subjectId: nodeId, parentId, status: 'rejected', data: { error } });
      throw error;
    }
    node.terminal = true;
    recordRealmChanges(host, nodeId);
    host.ledger.append(host.runId, { kind: 'dispatch.end', subjectId: nodeId, parentId, status: 'completed', data: { exports: Object.keys(materialization.exports), materializationId } });
    if (proposal.intent !== 'define-and-invoke') return materialization;
    const invoke = this.#invokers.get(materialization.exports[proposal.entry!] as object)!;
    return { ...materialization, invocation: invoke(undefined, [...(proposal.args ?? [])]) };
  }

  readonly #invokers = new WeakMap<object, (thisArg: unknown, args: unknown[]) => { nodeId: string; value: unknown }>();

  #admit(frame: HostFrame | undefined, nodeId: string, parentId: string): void {
    try {
      this.#host.allocation.admitDispatch((frame?.depth ?? 0) + 1);
    } catch (error) {
      if (error instanceof AllocationExhaustedError) {
        this.#host.ledger.append(this.#host.runId, { kind: 'allocation.exhausted', subjectId: nodeId, parentId, status: error.resource, data: { resource: error.resource } });
      }
      throw error;
    }
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

  #dependencies(proposal: CodeProposal): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const frame = currentHostFrame();
    const authority = frame?.host === this.#host ? frame.authority : this.#host.rootAuthority;
    for (const d of proposal.dependencies ?? []) {
      if (d.kind === 'capability' && authority.capabilities.has(d.name)) out[d.name] = (request: unknown) => this.#host.invokeCapability(d.name, request);
      else if (d.kind === 'reference' && d.name in authority.references) out[d.name] = authority.references[d.name];
    }
    return out;
  }

  /** Host wrapper of a generated export: every call is an invocation node of the current run. */
  #wrap(name: string, fn: GeneratedFunction, ids: { definitionId: string; materializationId: string; originalDefinitionId: string }): GeneratedFunction {
    const host = this.#host;
    const dispatcher = this;
    const invoke = (thisArg: unknown, args: unknown[]): { nodeId: string; value: unknown } => {
      const frame = currentHostFrame();
      if (host.state !== 'running' || frame?.host !== host) {
        throw new RunTerminatedError({ runId: host.runId, ceased: host.state !== 'running', reason: `generated export '${name}' carries no authority outside its run` });
      }
      const nodeId = newId('dsp_');
      dispatcher.#admit(frame, nodeId, frame.submitterId);
      host.ledger.append(host.runId, { kind: 'dispatch.start', subjectId: nodeId, parentId: frame.submitterId, status: 'invocation', data: { export: name, ...ids, arguments: args } });
      const node: LiveNode = { nodeId, materializationId: ids.materializationId, terminal: false };
      const end = (status: 'completed' | 'failed', data: Record<string, unknown>) => {
        node.terminal = true;
        recordRealmChanges(host, nodeId);
        host.ledger.append(host.runId, { kind: 'dispatch.end', subjectId: nodeId, parentId: frame.submitterId, status, data });
      };
      let result: unknown;
      try {
        result = liveNodes.run(node, () =>
          runInFrame(dispatcher.#frameFor(frame, nodeId), () => runInterior({ kind: 'generated', nodeId, definitionId: ids.definitionId }, () => fn.apply(thisArg, args))),
        );
      } catch (error) {
        end('failed', { error });
        throw error;
      }
      if (result instanceof Promise) {
        const settled = result.then(
          (value) => {
            end('completed', { result: value });
            return value;
          },
          (error: unknown) => {
            end('failed', { error });
            throw error;
          },
        );
        return { nodeId, value: settled };
      }
      end('completed', { result });
      return { nodeId, value: result };
    };
    const wrapper = function (this: unknown, ...args: unknown[]): unknown {
      return invoke(this, args).value;
    };
    this.#invokers.set(wrapper, invoke);
    Object.defineProperty(wrapper, 'name', { value: name });
    markGenerated(wrapper, { ...ids, exportName: name });
    return wrapper as GeneratedFunction;
  }
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
