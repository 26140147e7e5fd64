/**
 * Project MIME types for display_data bundles. Each bundle also carries `text/plain` so frontends
 * that do not know these types still show something readable.
 */
export const NighthawkMime = {
  /** A SessionFunction call or run: id, function name, status, children (Natural executions). */
  run: 'application/vnd.nighthawk.run+json',
  /** One Natural execution (step) with its operations, commit and terminal status. */
  execution: 'application/vnd.nighthawk.execution+json',
  /** One operation record: status, rejection reason and guidance, blockedByOperationId, failure. */
  operation: 'application/vnd.nighthawk.operation+json',
  /** A step commit: proposed and committed values, rewrite difference. */
  stepCommit: 'application/vnd.nighthawk.step-commit+json',
  traceAnomaly: 'application/vnd.nighthawk.trace-anomaly+json',
  allocationExhausted: 'application/vnd.nighthawk.allocation-exhausted+json',
  /** A whole run ledger (list of entries) for the ledger view. */
  ledger: 'application/vnd.nighthawk.ledger+json',
  /** An operator-approval prompt (rendered as accept / reject / abort controls). */
  approval: 'application/vnd.nighthawk.approval+json',
} as const;
export type NighthawkMime = (typeof NighthawkMime)[keyof typeof NighthawkMime];
