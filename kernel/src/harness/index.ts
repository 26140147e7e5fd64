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
