/**
 * Operation records. Every expression, assignment, tool call and output proposal a model (or a
 * custom executor) makes is an operation with its own id and exactly one OperationFinished record.
 */

export const OperationKind = {
  evaluate: 'evaluate',
  assign: 'assign',
  output: 'output',
  tool: 'tool',
} as const;
export type OperationKind = (typeof OperationKind)[keyof typeof OperationKind];

export const OperationStatus = {
  completed: 'completed',
  failed: 'failed',
  rejected: 'rejected',
  aborted: 'aborted',
  skipped: 'skipped',
} as const;
export type OperationStatus = (typeof OperationStatus)[keyof typeof OperationStatus];

/** What an inspector sees. Frozen: inspectors cannot change the request they judge. */
export interface OperationRequest {
  readonly operationId: string;
  readonly kind: OperationKind;
  readonly stepId: string;
  readonly executionId: string;
  readonly runId: string;
  /** Expression text for evaluate, assign and output(return) operations. */
  readonly expression?: string;
  /** Target path for assign operations. */
  readonly targetPath?: string;
  /** Tool name for tool operations; `nh_evaluate` etc. for the built-ins when called through a model. */
  readonly toolName?: string;
  /** Validated tool arguments (tool operations) or the proposed outcome kind (output operations). */
  readonly arguments?: Readonly<Record<string, unknown>>;
  readonly outcomeKind?: string;
}

/** Model-visible refusal. Shared by OperationRejectedError.rejection and the operation record. */
export interface OperationRejection {
  readonly request: OperationRequest;
  readonly reason: string;
  readonly guidance: string | undefined;
}

/** A failed operation as the model sees it: class name and bounded message, never the live error. */
export interface OperationFailure {
  readonly errorClass: string;
  readonly message: string;
}

/** The one terminal fact of an operation. */
export interface OperationFinished {
  readonly request: OperationRequest;
  readonly status: OperationStatus;
  readonly rejection?: OperationRejection;
  readonly abortReason?: string;
  readonly failure?: OperationFailure;
  readonly blockedByOperationId?: string;
  /** Names of registered secrets the operation's value carried back to the model (see `registerSecret`). */
  readonly secretsRead?: readonly string[];
  /** Monotonic sequence number within its step, in the order the records were finished. */
  readonly sequence: number;
  readonly startedAt: number;
  readonly durationMs: number;
}
