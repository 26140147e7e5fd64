/**
 * RetainedFunction: an exact generated definition an application keeps independently of any
 * Session or run. It is inert data (source, intent, dependencies, the selected export, evidence);
 * each use re-materializes it through the current run's dispatch with a fresh run-local identity
 * linked to the originally observed definition. It stays generated source: retention, re-use or
 * passing tests never approve it, and it carries no authority of the run that produced it.
 */
import { UsageError } from '../core/index.js';
import { currentDispatcher, dispatchRetained, observedIdentityOf, type Materialization } from './dispatch.js';
import { definitionIdOf, frozenProposal, type CodeProposal } from './generated/index.js';

export interface RetainedEvidence {
  /** Selected ledger events (as plain data) and assessment findings that led to retention. */
  readonly [key: string]: unknown;
}

/** Set by RetainedFunction's static block: a genuine instance's link (private brand), or undefined. */
let linkOf: (retained: RetainedFunction) => { readonly proposal: CodeProposal; readonly originalDefinitionId: string; readonly exportName: string } | undefined;

/** Only RetainedFunction.retain constructs one: the TypeScript `private` is not enforced at run time. */
const CONSTRUCT = Symbol('RetainedFunction.retain');

export class RetainedFunction {
  readonly provenance = 'generated' as const;
  readonly definitionId: string;
  readonly originalMaterializationId: string;
  readonly exportName: string;
  readonly proposal: CodeProposal;
  readonly evidence: RetainedEvidence;
  /** What materialize dispatches: private, so an object made on this prototype has none and claims no lineage. */
  readonly #link: { readonly proposal: CodeProposal; readonly originalDefinitionId: string; readonly exportName: string };

  private constructor(token: symbol, init: { definitionId: string; originalMaterializationId: string; exportName: string; proposal: CodeProposal; evidence: RetainedEvidence }) {
    if (token !== CONSTRUCT) throw new UsageError('A RetainedFunction is made by RetainedFunction.retain(materialization, exportName), from a definition the host dispatched.');
    this.definitionId = init.definitionId;
    this.originalMaterializationId = init.originalMaterializationId;
    this.exportName = init.exportName;
    // Deep: a caller holding the materialization's proposal must not change what later materializations dispatch.
    this.proposal = frozenProposal({ language: init.proposal.language, source: init.proposal.source, intent: 'define', dependencies: init.proposal.dependencies });
    this.evidence = Object.freeze({ ...init.evidence });
    this.#link = Object.freeze({ proposal: this.proposal, originalDefinitionId: this.definitionId, exportName: this.exportName });
    Object.freeze(this);
  }

  /** Retains one export of a materialization. The live callable and its run's authority are not kept. */
  static retain(materialization: Materialization, exportName: string, evidence: RetainedEvidence = {}): RetainedFunction {
    if (typeof materialization.exports[exportName] !== 'function') {
      throw new UsageError(`Export '${exportName}' of definition ${materialization.definitionId} is not a function.`);
    }
    return new RetainedFunction(CONSTRUCT, {
      // What the host observed for this export; an object the dispatch did not make names only its own content.
      definitionId: observedIdentityOf(materialization, exportName) ?? definitionIdOf(materialization.proposal),
      originalMaterializationId: materialization.materializationId,
      exportName,
      proposal: materialization.proposal,
      evidence,
    });
  }

  /** Materializes the definition in the current run (fresh identity) and returns its export wrapper. */
  async materialize(): Promise<{ fn: (...args: unknown[]) => unknown; materialization: Materialization }> {
    return materializeRetained(this);
  }

  /** Materializes and calls the export inside the current run. */
  async invoke(...args: unknown[]): Promise<unknown> {
    const { fn } = await materializeRetained(this);
    return await fn(...args);
  }

  static {
    linkOf = (retained) => (#link in retained ? retained.#link : undefined);
  }
}

async function materializeRetained(retained: RetainedFunction): Promise<{ fn: (...args: unknown[]) => unknown; materialization: Materialization }> {
  const link = typeof retained === 'object' && retained !== null ? linkOf(retained) : undefined;
  if (!link) throw new UsageError('Not a RetainedFunction made by RetainedFunction.retain: it has no retained definition to materialize.');
  const materialization = await dispatchRetained(currentDispatcher(), link.proposal, { originalDefinitionId: link.originalDefinitionId, exportName: link.exportName });
  return { fn: materialization.exports[link.exportName] as (...args: unknown[]) => unknown, materialization };
}

// An authority-bearing class: no method can be replaced, for this run or any later one.
Object.freeze(RetainedFunction.prototype);
Object.freeze(RetainedFunction);
