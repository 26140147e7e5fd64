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

export class RetainedFunction {
  readonly provenance = 'generated' as const;
  readonly definitionId: string;
  readonly originalMaterializationId: string;
  readonly exportName: string;
  readonly proposal: CodeProposal;
  readonly evidence: RetainedEvidence;

  private constructor(init: { definitionId: string; originalMaterializationId: string; exportName: string; proposal: CodeProposal; evidence: RetainedEvidence }) {
    this.definitionId = init.definitionId;
    this.originalMaterializationId = init.originalMaterializationId;
    this.exportName = init.exportName;
    // Deep: a caller holding the materialization's proposal must not change what later materializations dispatch.
    this.proposal = frozenProposal({ language: init.proposal.language, source: init.proposal.source, intent: 'define', dependencies: init.proposal.dependencies });
    this.evidence = Object.freeze({ ...init.evidence });
    Object.freeze(this);
  }

  /** Retains one export of a materialization. The live callable and its run's authority are not kept. */
  static retain(materialization: Materialization, exportName: string, evidence: RetainedEvidence = {}): RetainedFunction {
    if (typeof materialization.exports[exportName] !== 'function') {
      throw new UsageError(`Export '${exportName}' of definition ${materialization.definitionId} is not a function.`);
    }
    return new RetainedFunction({
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
    const materialization = await dispatchRetained(currentDispatcher(), this.proposal, { originalDefinitionId: this.definitionId, exportName: this.exportName });
    return { fn: materialization.exports[this.exportName] as (...args: unknown[]) => unknown, materialization };
  }

  /** Materializes and calls the export inside the current run. */
  async invoke(...args: unknown[]): Promise<unknown> {
    const { fn } = await this.materialize();
    return await fn(...args);
  }
}
