/** Refusals of attempts to write governance state from inside a run (issue 12's host integrity). */
import { NighthawkError } from '../core/index.js';

export type IntegrityAttempt =
  /** Runner.run/start (or Session.runner) reached from inside a host frame. */
  | 'nested-run'
  /** Interior code opened or wrote a perimeter audit store. */
  | 'audit-store-in-run'
  /** Host-infrastructure admission used from inside an operation body. */
  | 'admission-from-operation'
  | 'stale-admission'
  /** Model code asked the public module to clear its own interior mark. */
  | 'clear-interior-mark'
  /** Model code asked the public module to run under an interior mark of its choosing. */
  | 'choose-interior-mark'
  /** An append through a read-only ledger view, or through a Ledger while a run's interior executes. */
  | 'ledger-append'
  /** Interior code opened, wrote or closed a SQLite ledger store. */
  | 'ledger-store-in-run'
  /** A ledger subscription from inside a run. */
  | 'ledger-subscribe'
  /** A ledger append for a run whose run.end is already recorded. */
  | 'append-after-run-end'
  /** A host oversight seam called with a request or record the core did not create. */
  | 'forged-seam-call'
  /** A step executor handed a step context that does not carry the host oversight, or one it already saw. */
  | 'foreign-step-context'
  /** Model code (an expression, generated code, an operation body) asked to terminate a dispatch branch. */
  | 'terminate-branch-from-model-code'
  /** Model code asked a RunHandle it reached to terminate or finalize the run. */
  | 'terminate-run-from-model-code'
  /** A host tool called with a context naming another Natural execution than the one calling it. */
  | 'forged-execution-id'
  /** Model code or an operation body wrote the usage meter a step's executor reports to. */
  | 'usage-from-model-code'
  /** Model code asked the public module for the operator's object behind the membrane it sees that object through. */
  | 'unwrap-operator-data';

export class HostIntegrityError extends NighthawkError {
  readonly attempt: IntegrityAttempt;
  constructor(options: { attempt: IntegrityAttempt; detail: string }) {
    super('host-integrity', `Refused (${options.attempt}): ${options.detail}`);
    this.attempt = options.attempt;
  }
}
