/**
 * The harness's record of a write the engine refused model code: once per refusal, where the host first sees it
 * (see core/frozen-write-sight.ts, whose record of what was seen the harness claims here, as it loads).
 */
import { claimFrozenWriteSight, frozenWriteMessage, interiorParentId, type InteriorMark, type SeenAt } from '../core/index.js';
import type { HostHandle } from './host-context.js';

type Recorder = Pick<HostHandle, 'recordAnomaly'>;

// Never unclaimed in practice (the harness loads with the library); if it were, a refusal might be noted twice, never missed.
const firstSight = claimFrozenWriteSight() ?? ((): boolean => true);

/**
 * Records `error` as `frozen_value_write` under `parentId` when it is the engine's refusal of a write and the host
 * has not seen it before. `ids` name where it happened (`nodeId`, or an expression's `operationId`); `seenAt`, where
 * it was seen, when model code's own guard or a rejection handler handed it over.
 */
export function noteFrozenWrite(recorder: Recorder, error: unknown, parentId: string, ids: { readonly nodeId: string } | { readonly operationId: string | undefined }, seenAt?: SeenAt): void {
  const message = frozenWriteMessage(error);
  if (message !== undefined && firstSight(error)) recorder.recordAnomaly('frozen_value_write', { ...ids, message, ...(seenAt ? { seenAt } : {}) }, parentId);
}

/** Where model code running under `mark` is: an expression's operation, or generated code's dispatch node. */
const idsOf = (mark: InteriorMark): { readonly nodeId: string } | { readonly operationId: string | undefined } =>
  mark.kind === 'expression' ? { operationId: mark.operationId } : { nodeId: mark.nodeId };

/** `noteFrozenWrite` for model code running under `mark`: recorded under its operation or dispatch node. */
export function noteInteriorFrozenWrite(recorder: Recorder, error: unknown, mark: InteriorMark, seenAt: SeenAt): void {
  noteFrozenWrite(recorder, error, interiorParentId(mark), idsOf(mark), seenAt);
}

/** A refusal of model code running under `mark` that no error carries (a `false` answer): recorded as it happens. */
export function recordInteriorFrozenWrite(recorder: Recorder, mark: InteriorMark, message: string, seenAt: SeenAt): void {
  recorder.recordAnomaly('frozen_value_write', { ...idsOf(mark), message, seenAt }, interiorParentId(mark));
}
