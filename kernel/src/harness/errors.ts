/** Harness errors. Each carries a `kind` literal and typed fields; messages are built from the fields. */
import { NighthawkError, describeError } from '../core/index.js';

export type PerimeterAuditRecordKind = 'attempt' | 'completion' | 'filter';

/** A perimeter audit record that fails its schema. Nothing was stored. */
export class PerimeterAuditRecordInvalidError extends NighthawkError {
  readonly record: PerimeterAuditRecordKind;
  readonly issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[];
  constructor(options: { record: PerimeterAuditRecordKind; issues: PerimeterAuditRecordInvalidError['issues'] }) {
    const detail = options.issues.map((i) => `${i.path.length ? i.path.map(String).join('.') + ': ' : ''}${i.message}`).join('; ');
    super('perimeter-audit-record-invalid', `Invalid perimeter audit ${options.record}: ${detail}`);
    this.record = options.record;
    this.issues = options.issues;
  }
}

export type PerimeterAuditConflictReason = 'duplicate-attempt' | 'unknown-attempt' | 'duplicate-completion';

/** A record that contradicts what the store already holds. Nothing was stored. */
export class PerimeterAuditConflictError extends NighthawkError {
  readonly reason: PerimeterAuditConflictReason;
  readonly attemptId: string;
  constructor(options: { reason: PerimeterAuditConflictReason; attemptId: string }) {
    const detail = {
      'duplicate-attempt': 'an attempt with this id is already recorded; use a fresh attempt id per effect',
      'unknown-attempt': 'no attempt with this id is recorded; record the attempt before its completion',
      'duplicate-completion': 'a completion for this attempt is already recorded',
    }[options.reason];
    super('perimeter-audit-conflict', `Perimeter audit record for attempt ${options.attemptId} refused: ${detail}.`);
    this.reason = options.reason;
    this.attemptId = options.attemptId;
  }
}

export type PerimeterAuditStoreOperation = 'open' | 'recordAttempt' | 'recordCompletion' | 'get' | 'list' | 'close';

/** The store could not do its job: it is closed, or the storage failed. The record may not be durable. */
export class PerimeterAuditStoreUnavailableError extends NighthawkError {
  readonly operation: PerimeterAuditStoreOperation;
  readonly reason: 'closed' | 'storage-failure';
  constructor(options: { operation: PerimeterAuditStoreOperation; reason: 'closed' | 'storage-failure'; cause?: unknown }) {
    const detail = options.reason === 'closed' ? 'the store is closed' : `storage failed: ${describeError(options.cause)}`;
    super('perimeter-audit-store-unavailable', `Perimeter audit store ${options.operation} failed: ${detail}.`, {
      cause: options.cause,
    });
    this.operation = options.operation;
    this.reason = options.reason;
  }
}

/** The attempt record could not be written, so the perimeter effect was not attempted. */
export class PerimeterAttemptNotRecordedError extends NighthawkError {
  readonly attemptId: string;
  readonly capability: string;
  constructor(options: { attemptId: string; capability: string; cause: unknown }) {
    super(
      'perimeter-attempt-not-recorded',
      `Perimeter effect of capability '${options.capability}' was not attempted: its attempt record ` +
        `${options.attemptId} could not be written (${describeError(options.cause)}).`,
      { cause: options.cause },
    );
    this.attemptId = options.attemptId;
    this.capability = options.capability;
  }
}

/**
 * The effect ran but its completion record could not be written, so the attempt stays indeterminate in the
 * store. `observed` is what the host saw; `result` or `effectError` is the effect's own outcome.
 */
export class PerimeterCompletionNotRecordedError extends NighthawkError {
  readonly attemptId: string;
  readonly observed: 'completed' | 'failed';
  readonly effectError: unknown;
  readonly result: unknown;
  constructor(options: { attemptId: string; observed: 'completed' | 'failed'; effectError?: unknown; result?: unknown; cause: unknown }) {
    super(
      'perimeter-completion-not-recorded',
      `Perimeter effect for attempt ${options.attemptId} ${options.observed === 'completed' ? 'completed' : 'failed'}, ` +
        `but its completion record could not be written (${describeError(options.cause)}); the attempt reads as indeterminate.`,
      { cause: options.cause },
    );
    this.attemptId = options.attemptId;
    this.observed = options.observed;
    this.effectError = options.effectError;
    this.result = options.result;
  }
}
