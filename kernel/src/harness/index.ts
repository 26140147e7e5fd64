// Installs the built-ins check of core-only runs before anything can start one.
import './core-run-realm.js';
export {
  PerimeterAttemptNotRecordedError,
  PerimeterAuditConflictError,
  PerimeterAuditRecordInvalidError,
  PerimeterAuditStoreUnavailableError,
  PerimeterCompletionNotRecordedError,
  type PerimeterAuditConflictReason,
  type PerimeterAuditRecordKind,
  type PerimeterAuditStoreOperation,
} from './errors.js';
export {
  PerimeterAuditStatus,
  PerimeterClass,
  admitPerimeterEffect,
  createPerimeterAttempt,
  parsePerimeterAttempt,
  parsePerimeterAuditFilter,
  parsePerimeterCompletion,
  perimeterAttemptSchema,
  perimeterAuditFilterSchema,
  perimeterAuditJson,
  perimeterCompletionSchema,
  type AdmitPerimeterEffectOptions,
  type PerimeterAttempt,
  type PerimeterAuditEntry,
  type PerimeterAuditFilter,
  type PerimeterAuditStore,
  type PerimeterCompletion,
  type PerimeterCompletionStatus,
} from './audit-store.js';
export { InMemoryPerimeterAuditStore } from './audit-store-memory.js';
export { SqlitePerimeterAuditStore, type SqlitePerimeterAuditStoreOptions } from './sqlite-audit-store.js';
export {
  fromJSONSafe,
  snapshot,
  toJSONSafe,
  type CallableDescriptor,
  type JsonValue,
  type Snapshot,
  type SnapshotDescriptor,
  type SnapshotObject,
  type SnapshotOptions,
  type SnapshotPrimitive,
} from './snapshot.js';
export { Allocation, DEFAULT_ALLOCATION, type AllocationLimits } from './allocation.js';
export { admitCapability, defineCapability, type Capability, type CapabilityContext } from './capability.js';
export { installEffectAudit } from './effect-audit.js';
export { FORBIDDEN_AT_RUNTIME, publicCompileExpression, RawDynamicExecutionRefusedError } from './raw-dynamic-runtime.js';
/** The sha256 the host names approved sources and generated definitions by, on hashing methods captured at load. */
export { sha256Of } from './intrinsics.js';
export { attenuate, authorityFromGrant, type Authority, type Grant } from './grant.js';
export {
  coreOnlyModelCode,
  insideHostFrame,
  insideUntrustedRead,
  notOperatorCode,
  publicClaimFrozenWriteSight,
  publicClaimReflectWriteAnswer,
  publicClaimInfrastructureRunner,
  publicModelFacingFunction,
  publicNoteUnmarkedModelCode,
  publicOperatorValue,
  publicReenterInterior,
  publicReportRefusal,
  publicRunInterior,
  publicRunOutsideInterior,
  publicSetInfrastructureSeam,
  publicSetLateRefusalSink,
  publicSetRealmSeam,
  publicSetRefusalSink,
  readingUntrustedValue,
  refuseInteriorControl,
  anomaliesOutsideRunners,
  type OutsideRunnerAnomaly,
  withoutAllowance,
  type GatewayAllowance,
} from './host-context.js';
export { markLateRefusal, refuseCallAfterRun, refuseDuringUntrustedRead } from './late-callbacks.js';
export {
  Ledger,
  LedgerEventKind,
  ledgerSearchText,
  projectLedger,
  type AppendInput,
  type LedgerAppend,
  type LedgerEvent,
  type LedgerFilter,
  type LedgerKindFilter,
  type LedgerListener,
  type LedgerOptions,
  type SnapshotOf,
} from './ledger.js';
export {
  LEDGER_EVENT_KINDS,
  LedgerEventKindSchema,
  LedgerEventSchema,
  type LedgerEventData,
  type LedgerEventOf,
  type LedgerEventRecord,
  type LedgerEventStatus,
} from '../../../shared/ledger-events.js';
export { SqliteLedgerStore, type LedgerStore, type PersistedLedgerEvent } from './ledger-store.js';
export {
  LEDGER_EXPORT_FORMAT,
  LEDGER_EXPORT_VERSION,
  LedgerImportError,
  exportLedgerJsonl,
  importLedgerJsonl,
  ledgerJsonlLines,
  type LedgerExportHeader,
  type LedgerExportSelection,
} from './ledger-export.js';
export { LedgerView, type LedgerReader } from './ledger-view.js';
export { HostIntegrityError, type IntegrityAttempt } from './integrity-errors.js';
export { ALL_PERIMETER_CLASSES, intersectPolicies, outsidePolicy, perimeterPolicy, type PerimeterPolicy } from './perimeter.js';
export { rawDynamicExecutionIn } from './raw-dynamic-expression.js';
export {
  ActiveBranchesError,
  AllocationExhaustedError,
  BranchTerminationRefusedError,
  CapabilityRefusedError,
  GrantWideningError,
  InspectorDeadlineError,
  NaturalExecutionError,
  RunRejectedError,
  RunTerminatedError,
  UnmediatedPerimeterEffectError,
  type AllocationResource,
  type BranchTerminationRefusal,
  type CapabilityRefusalReason,
  type NaturalExecutionFailure,
} from './run-errors.js';
export { DEFAULT_INSPECTOR_DEADLINE_MS, RunHost, type ExecutorStepObservation, type RunState } from './run-host.js';
export {
  Runner,
  createRunLedger,
  currentExecutorStepAdmission,
  oversightByValue,
  type LateAnomaly,
  type Composition,
  type RunContext,
  type RunHandle,
  type RunnerOptions,
  type RunOptions,
} from './runner.js';
export { cooperativeTermination, type ConfinementRequest, type ConfinementService, type TerminationReport, type TerminationService, type TerminationTarget } from './termination.js';
export { DispatchRejectedError, Dispatcher, type DispatchOutcome, type Materialization } from './dispatch.js';
export { generatedIdentityOf, isGeneratedCallable, type GeneratedIdentity } from './generated-registry.js';
export * from './generated/index.js';
export { currentDispatcher } from './dispatch.js';
export { executeCodeCapability } from './execute-code.js';
export { RetainedFunction, type RetainedEvidence } from './retained-function.js';

// Every error class this folder exports is frozen with its prototype before anything runs (see sealErrorClass).
import * as exported from './index.js';
import { sealErrorClasses } from '../core/index.js';
sealErrorClasses(exported);
// For the Session's own anomaly record (session/ reaches harness/ through this index only); its prototype is frozen.
export { AnomalyTally, droppedAnomalies, type AnomalyRecordName } from './anomaly-tally.js';
