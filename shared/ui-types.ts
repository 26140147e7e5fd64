/**
 * Payload schemas for the project MIME types in `mime.ts`, as the web notebook renders them.
 * The kernel emits exactly these shapes in display_data / update_display_data bundles (always with a
 * text/plain fallback). Objects are loose: extra fields are ignored so the kernel can add facts
 * without breaking older frontends.
 */
// zod/mini: the same schemas at ~5% of the browser bundle cost of classic zod (the web app ships them).
import * as z from 'zod/mini';
import { LedgerEventHeaderSchema, LedgerEventKindSchema } from './ledger-events.js';

/** Terminal statuses of an operation (seed 000 literals). */
export const OperationStatusSchema = z.enum(['completed', 'failed', 'rejected', 'aborted', 'skipped']);
export type OperationStatusValue = z.infer<typeof OperationStatusSchema>;

/** A model-visible refusal: why, and what to try instead. */
export const RejectionSchema = z.looseObject({
  reason: z.string(),
  guidance: z.optional(z.string()),
});
export type RejectionPayload = z.infer<typeof RejectionSchema>;

/** One operation record (application/vnd.nighthawk.operation+json). */
export const OperationPayloadSchema = z.looseObject({
  operationId: z.string(),
  kind: z.string(),
  /** `running` (or `pending`) while the operation has no terminal record yet. */
  status: z.union([OperationStatusSchema, z.enum(['running', 'pending'])]),
  expression: z.optional(z.string()),
  targetPath: z.optional(z.string()),
  toolName: z.optional(z.string()),
  rejection: z.optional(RejectionSchema),
  abortReason: z.optional(z.string()),
  failure: z.optional(z.looseObject({ errorClass: z.string(), message: z.string() })),
  blockedByOperationId: z.optional(z.string()),
});
export type OperationPayload = z.infer<typeof OperationPayloadSchema>;

/** A step commit (application/vnd.nighthawk.step-commit+json): what the model proposed, what was kept. */
export const StepCommitPayloadSchema = z.looseObject({
  proposed: z.record(z.string(), z.unknown()),
  committed: z.record(z.string(), z.unknown()),
  /** True when oversight rewrote the proposal; the UI then shows the difference. */
  rewritten: z.boolean(),
});
export type StepCommitPayload = z.infer<typeof StepCommitPayloadSchema>;

export const ExecutionStatusSchema = z.enum(['running', 'completed', 'raised', 'failed', 'aborted']);

/** One Natural execution (application/vnd.nighthawk.execution+json). */
export const ExecutionPayloadSchema = z.looseObject({
  executionId: z.string(),
  stepId: z.string(),
  parentExecutionId: z.optional(z.string()),
  status: ExecutionStatusSchema,
  operations: z.array(OperationPayloadSchema),
  commit: z.optional(StepCommitPayloadSchema),
  error: z.optional(z.looseObject({ name: z.string(), message: z.string() })),
});
export type ExecutionPayload = z.infer<typeof ExecutionPayloadSchema>;

/** A SessionFunction call (application/vnd.nighthawk.run+json); re-sent under one display_id as it grows. */
export const RunPayloadSchema = z.looseObject({
  runId: z.string(),
  functionName: z.string(),
  status: z.enum(['running', 'completed', 'failed']),
  executions: z.array(ExecutionPayloadSchema),
});
export type RunPayload = z.infer<typeof RunPayloadSchema>;

/** application/vnd.nighthawk.trace-anomaly+json */
export const TraceAnomalyPayloadSchema = z.looseObject({
  anomalyKind: z.string(),
  message: z.string(),
  runId: z.optional(z.string()),
  executionId: z.optional(z.string()),
  /** How many anomalies of this kind under this parent the display stands for (one display, updated in place); absent for one. */
  count: z.optional(z.number()),
});
export type TraceAnomalyPayload = z.infer<typeof TraceAnomalyPayloadSchema>;

/** application/vnd.nighthawk.allocation-exhausted+json */
export const AllocationExhaustedPayloadSchema = z.looseObject({
  resource: z.string(),
  runId: z.string(),
});
export type AllocationExhaustedPayload = z.infer<typeof AllocationExhaustedPayloadSchema>;

/**
 * One row of the ledger view: the event's header fields (typed by the shared ledger event union, see
 * ledger-events.ts) and a one-line summary of its data. `at` is an ISO timestamp or epoch milliseconds.
 */
export const LedgerEntryPayloadSchema = z.looseObject({
  sequence: LedgerEventHeaderSchema.shape.sequence,
  runId: LedgerEventHeaderSchema.shape.runId,
  kind: LedgerEventKindSchema,
  status: z.optional(z.string()),
  summary: z.string(),
  parentId: z.optional(z.string()),
  at: z.union([z.string(), z.number()]),
});
export type LedgerEntryPayload = z.infer<typeof LedgerEntryPayloadSchema>;

/** application/vnd.nighthawk.ledger+json */
export const LedgerPayloadSchema = z.looseObject({
  runId: z.optional(z.string()),
  entries: z.array(LedgerEntryPayloadSchema),
});
export type LedgerPayload = z.infer<typeof LedgerPayloadSchema>;

/**
 * application/vnd.nighthawk.approval+json. The frontend answers through the stdin channel
 * (input_reply) with `value` = JSON.stringify(ApprovalAnswer).
 */
export const ApprovalPayloadSchema = z.looseObject({
  requestId: z.string(),
  operation: OperationPayloadSchema,
  prompt: z.string(),
});
export type ApprovalPayload = z.infer<typeof ApprovalPayloadSchema>;

/** The operator's decision, sent as the JSON string of an input_reply. */
export const ApprovalAnswerSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('accept') }),
  z.object({ kind: z.literal('reject-operation'), reason: z.string(), guidance: z.optional(z.string()) }),
  z.object({ kind: z.literal('abort-step'), reason: z.string() }),
]);
export type ApprovalAnswer = z.infer<typeof ApprovalAnswerSchema>;
