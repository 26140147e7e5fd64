/**
 * The run ledger's event types as one discriminated union by `kind`: the kernel types `select` with it,
 * exports and imports are validated with it, and the web notebook renders from the same types.
 *
 * Event data are ledger snapshots (seed 001 "Ledger values are snapshots"): host-owned facts (ids,
 * statuses, policies, counts) have exact types; values the host only records (arguments, results,
 * errors, bindings) are `unknown`, and free text may arrive as a `truncated` descriptor when it was
 * longer than the snapshot bound. To add a kind: add its schema to `LEDGER_EVENT_SCHEMAS`; the kind
 * list, the union and the per-kind types follow from it.
 */
// zod/mini: the web app ships these schemas (see ui-types.ts).
import * as z from 'zod/mini';

/** A snapshot value the host records but does not interpret. */
const recorded = z.unknown();
/** Free text: a string, or the snapshot's descriptor for one longer than the bound. */
export const LedgerTextSchema = z.union([
  z.string(),
  z.looseObject({ $kind: z.literal('truncated'), reason: z.string(), length: z.optional(z.number()), preview: z.optional(z.string()) }),
]);
export type LedgerText = z.infer<typeof LedgerTextSchema>;

export const PerimeterClassSchema = z.enum(['egress', 'destructive', 'durable_write_back']);
export const ExecutorStepObservationSchema = z.enum(['adapter', 'custom-admission', 'aggregate']);
export const AllocationResourceSchema = z.enum(['recursion-depth', 'executor-steps', 'cost', 'natural-executions', 'dispatches', 'operations', 'operations-per-response']);
export const CapabilityRefusalReasonSchema = z.enum(['not-granted', 'invalid-request', 'footprint-outside-policy', 'audit-store-failed', 'run-closed', 'other-run', 'branch-terminated']);

const header = {
  sequence: z.number(),
  eventId: z.string(),
  runId: z.string(),
  /** The execution, dispatch node, run, operation or capability this event is about. */
  subjectId: z.string(),
  /** Causal parent (the enclosing execution, dispatch node or run). */
  parentId: z.optional(z.string()),
  at: z.number(),
};
const noStatus = z.optional(z.undefined());

function event<K extends string, S extends z.ZodMiniType, D extends z.ZodMiniType>(kind: K, status: S, data: D) {
  return z.object({ ...header, kind: z.literal(kind), status, data });
}

export const RunEntryDataSchema = z.looseObject({
  label: z.optional(LedgerTextSchema),
  grant: z.looseObject({
    capabilities: z.array(z.looseObject({ name: z.string(), footprint: z.array(PerimeterClassSchema) })),
    references: z.array(z.string()),
  }),
  platformPolicy: z.array(PerimeterClassSchema),
  effectivePolicy: z.array(PerimeterClassSchema),
  allocation: z.record(z.string(), z.number()),
  executorStepObservation: ExecutorStepObservationSchema,
  /** The external confinement boundary, or null for the in-process regime. */
  confinementIdentity: z.nullable(z.string()),
  auditStoreDurable: z.nullable(z.boolean()),
});

const OperationRequestSchema = z.looseObject({
  operationId: z.string(),
  kind: z.string(),
  stepId: z.string(),
  executionId: z.string(),
  runId: z.string(),
  expression: z.optional(LedgerTextSchema),
  targetPath: z.optional(z.string()),
  toolName: z.optional(z.string()),
  arguments: z.optional(recorded),
  outcomeKind: z.optional(z.string()),
});

export const OperationDataSchema = z.looseObject({
  request: OperationRequestSchema,
  status: z.enum(['completed', 'failed', 'rejected', 'aborted', 'skipped']),
  rejection: z.optional(z.looseObject({ reason: LedgerTextSchema, guidance: z.optional(LedgerTextSchema) })),
  abortReason: z.optional(LedgerTextSchema),
  failure: z.optional(z.looseObject({ errorClass: z.string(), message: LedgerTextSchema })),
  blockedByOperationId: z.optional(z.string()),
  sequence: z.number(),
  startedAt: z.number(),
  durationMs: z.number(),
});

export const ExecutionEndDataSchema = z.looseObject({
  stepId: z.optional(z.string()),
  outcomeKind: z.optional(z.string()),
  proposed: z.optional(recorded),
  committed: z.optional(recorded),
  rewritten: z.optional(z.boolean()),
  failedOperations: z.optional(z.array(z.string())),
  /** The host's classification of a failed execution (allocation_exhausted, trace_anomaly, …). */
  failure: z.optional(z.string()),
  error: z.optional(recorded),
  /** Why a terminated run closed the execution. */
  reason: z.optional(LedgerTextSchema),
});

const DispatchMaterializationSchema = z.looseObject({
  intent: z.string(),
  language: z.string(),
  definitionId: z.string(),
  materializationId: z.string(),
  originalDefinitionId: z.string(),
  /** A RetainedFunction's re-materialization: its selected export, the one linked to originalDefinitionId. */
  linkedExport: z.optional(z.string()),
  source: LedgerTextSchema,
  dependencies: z.array(recorded),
  confinementIdentity: z.nullable(z.string()),
});
const DispatchInvocationSchema = z.looseObject({
  export: z.string(),
  definitionId: z.string(),
  materializationId: z.string(),
  /** The original identity for a RetainedFunction's selected export (`linked`), else this definition's own. */
  originalDefinitionId: z.string(),
  linked: z.optional(z.literal(true)),
  arguments: recorded,
  /** The external confinement boundary that confirmed this node, or null in the in-process regime. */
  confinementIdentity: z.optional(z.nullable(z.string())),
});

/** Every event kind the harness appends, with its status and data. */
export const LEDGER_EVENT_SCHEMAS = [
  event('run.entry', noStatus, RunEntryDataSchema),
  event(
    'run.end',
    z.enum(['completed', 'failed', 'terminated']),
    z.looseObject({ result: z.optional(recorded), error: z.optional(recorded), reason: z.optional(LedgerTextSchema) }),
  ),
  event('execution.start', noStatus, z.looseObject({ stepId: z.string(), program: z.optional(LedgerTextSchema), inputBindings: z.optional(recorded) })),
  event('execution.end', z.enum(['completed', 'raised', 'failed', 'aborted', 'terminated']), ExecutionEndDataSchema),
  event('operation', z.enum(['completed', 'failed', 'rejected', 'aborted', 'skipped']), OperationDataSchema),
  event(
    'capability.call',
    z.enum(['completed', 'failed']),
    z.looseObject({ capability: z.string(), footprint: z.array(PerimeterClassSchema), arguments: recorded, result: z.optional(recorded), error: z.optional(recorded) }),
  ),
  event('capability.refused', CapabilityRefusalReasonSchema, z.looseObject({ capability: z.string(), reason: CapabilityRefusalReasonSchema, detail: LedgerTextSchema })),
  event('dispatch.start', z.enum(['materialization', 'invocation']), z.union([DispatchMaterializationSchema, DispatchInvocationSchema])),
  event(
    'dispatch.end',
    z.enum(['completed', 'failed', 'rejected', 'terminated']),
    z.looseObject({ exports: z.optional(z.array(z.string())), materializationId: z.optional(z.string()), result: z.optional(recorded), error: z.optional(recorded) }),
  ),
  /**
   * The status is the anomaly kind; the data carries it again with the host's detail. `repeated`: of the anomalies
   * of one kind under one parent a run lists `listed` (the first ones and those that differ), and this one,
   * recorded before run.end, counts the rest.
   */
  event('trace.anomaly', z.string(), z.looseObject({ anomalyKind: z.string(), repeated: z.optional(z.number()), listed: z.optional(z.number()) })),
  event('allocation.exhausted', AllocationResourceSchema, z.looseObject({ resource: AllocationResourceSchema })),
  event('part.event', z.string(), z.looseObject({ part: z.string(), event: z.looseObject({ kind: z.string() }) })),
] as const;

export const LedgerEventSchema = z.discriminatedUnion('kind', [...LEDGER_EVENT_SCHEMAS]);
/** One ledger event, typed by its kind. */
export type LedgerEventRecord = z.infer<typeof LedgerEventSchema>;
export type LedgerEventKind = LedgerEventRecord['kind'];
export const LEDGER_EVENT_KINDS = LEDGER_EVENT_SCHEMAS.map((s) => s.shape.kind.def.values[0]) as readonly LedgerEventKind[];
export const LedgerEventKindSchema = z.enum(LEDGER_EVENT_KINDS as unknown as [LedgerEventKind, ...LedgerEventKind[]]);
/** The event of one kind. */
export type LedgerEventOf<K extends LedgerEventKind> = Extract<LedgerEventRecord, { kind: K }>;
/** The data of one kind's events. */
export type LedgerEventData<K extends LedgerEventKind> = LedgerEventOf<K>['data'];
/** The status of one kind's events (undefined for kinds without one). */
export type LedgerEventStatus<K extends LedgerEventKind> = LedgerEventOf<K>['status'];

/** The fields every event carries, for views that list events without their data. */
export const LedgerEventHeaderSchema = z.object({ ...header, kind: LedgerEventKindSchema, status: z.optional(z.string()) });
export type LedgerEventHeader = z.infer<typeof LedgerEventHeaderSchema>;
