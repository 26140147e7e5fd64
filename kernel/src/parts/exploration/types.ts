/**
 * Public shapes of the exploration part. Findings are the only channel from the application's
 * acceptance checks back into the loop; they are typed data, never source or authority.
 */
import { z } from 'zod';
import type { LedgerEvent, Materialization, RetainedFunction } from '../../harness/index.js';

export const findingSchema = z.object({
  check: z.string().min(1),
  passed: z.boolean(),
  detail: z.string().optional(),
});

/** One assessment statement of an acceptance check. */
export interface Finding {
  readonly check: string;
  readonly passed: boolean;
  readonly detail?: string;
}

/**
 * An application acceptance check: ordinary code that assesses the exports of one materialization.
 * Calling an export runs the generated code through dispatch in the current run.
 */
export type AcceptanceCheck = (
  exports: Readonly<Record<string, unknown>>,
  materialization: Materialization,
) => readonly Finding[] | Promise<readonly Finding[]>;

export interface ExplorationOptions {
  /** What the generated function should do. Passed to the model as a read binding (untrusted data), never spliced into the program. */
  readonly task: string;
  /** The export the checks assess and the candidate retains. */
  readonly exportName: string;
  readonly checks: readonly AcceptanceCheck[];
  /** Upper bound on proposals; the run's allocation still bounds everything else. */
  readonly maxAttempts: number;
  /** Dependency declarations the proposal may use (signature text of granted capabilities, reference types). */
  readonly availableDependencies?: readonly { readonly name: string; readonly kind: 'capability' | 'reference'; readonly type: string }[];
}

export interface ExplorationAttempt {
  /** 1-based. */
  readonly attempt: number;
  /** The Natural execution that proposed it (undefined only if it could not be located in the ledger). */
  readonly executionId: string | undefined;
  /** Definition identity of the proposal; undefined when no proposal was committed. */
  readonly definitionId: string | undefined;
  /** The materialization dispatch node (also present for a rejected dispatch). */
  readonly dispatchNodeId: string | undefined;
  readonly source: string | undefined;
  readonly passed: boolean;
  readonly findings: readonly Finding[];
}

export interface ExplorationEvidence {
  readonly explorationId: string;
  readonly attempts: readonly ExplorationAttempt[];
  /** This exploration's events selected from the run ledger (immutable snapshots). */
  readonly ledger: readonly LedgerEvent[];
}

/**
 * A candidate is generated source plus evidence, never approved source: approval stays an
 * operator decision outside the run.
 */
export type ExplorationResult =
  | { readonly kind: 'candidate'; readonly retained: RetainedFunction; readonly evidence: ExplorationEvidence }
  | { readonly kind: 'exhausted'; readonly attempts: readonly ExplorationAttempt[]; readonly evidence: ExplorationEvidence };
