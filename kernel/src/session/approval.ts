/**
 * Operator approval evidence. Approval binds exact source (by content hash) to one Session, and
 * callable correspondence comes only from observed materialization or trusted imported-function
 * registration: names, `toString()` text and writable metadata transfer nothing.
 */
import { sha256Of } from '../harness/index.js';

export type ApprovalRoute = 'operator-submission' | 'core-transformation' | 'trusted-import';

/** What the Session recorded about one approved callable. */
export interface ApprovalEvidence {
  readonly route: ApprovalRoute;
  /** sha256 of the exact approved source (the submitted cell, or the reviewed module source). */
  readonly sourceHash: string;
  readonly submissionId: string;
  readonly approvedAt: number;
}

export interface Submission {
  readonly submissionId: string;
  readonly sourceHash: string;
  readonly source: string;
  readonly submittedAt: number;
}

export function hashSource(source: string): string {
  return sha256Of(source);
}
