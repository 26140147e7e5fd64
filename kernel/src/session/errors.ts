/** Session errors. */
import { NighthawkError } from '../core/index.js';

/** The Session is closed: its adapters refuse, and its admission evidence is invalid. */
export class SessionClosedError extends NighthawkError {
  readonly sessionId: string;
  readonly functionName: string | undefined;
  constructor(options: { sessionId: string; functionName?: string }) {
    super('session-closed', `Session ${options.sessionId} is closed${options.functionName ? `; ${options.functionName} can no longer be called through it` : ''}.`);
    this.sessionId = options.sessionId;
    this.functionName = options.functionName;
  }
}

/** An operator control (submit, approve, register, close, interrupt) was reached from inside a run. */
export class OperatorControlError extends NighthawkError {
  readonly control: string;
  constructor(options: { control: string }) {
    super(
      'operator-control-refused',
      `Operator control '${options.control}' cannot be used from inside a run: operator controls are never Agent capabilities, whatever alias or retained value reaches them.`,
    );
    this.control = options.control;
  }
}

/** A submission that is not operator Python/TypeScript source for this Session. */
export class SubmissionRefusedError extends NighthawkError {
  readonly reason: 'not-source-text' | 'inside-run' | 'session-closed' | 'not-materialized-by-submission';
  constructor(options: { reason: SubmissionRefusedError['reason']; detail: string }) {
    super('submission-refused', `Operator submission refused (${options.reason}): ${options.detail}`);
    this.reason = options.reason;
  }
}

/** Closing was blocked because a background owner has not confirmed cessation. */
export class SessionExitBlockedError extends NighthawkError {
  readonly owners: readonly { name: string; observation: string }[];
  constructor(options: { owners: readonly { name: string; observation: string }[] }) {
    super(
      'session-exit-blocked',
      `Operator exit is blocked: ${options.owners.map((o) => `${o.name} reports ${o.observation}`).join(', ')}. ` +
        'Stop that work and confirm cessation, then close again.',
    );
    this.owners = options.owners;
  }
}
