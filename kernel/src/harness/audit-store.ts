/**
 * Perimeter audit store (seed 002 "Durable perimeter audit"). Before a capability effect whose footprint
 * contains a perimeter class is attempted, the host hands the store an attempt record, which the store
 * persists before returning; only then is the effect attempted, and a completion record follows. An
 * attempt without a completion reads as `indeterminate`: that is the authoritative account after a crash.
 * Durability covers only these records, not the rest of the run ledger.
 */
import { z } from 'zod';
import { newId, wallClockMs } from '../core/index.js';
import {
  PerimeterAttemptNotRecordedError,
  PerimeterAuditRecordInvalidError,
  PerimeterCompletionNotRecordedError,
  type PerimeterAuditRecordKind,
} from './errors.js';
import { snapshotRedacted, toJSONSafe, type SnapshotOptions } from './snapshot.js';
import { encodeJson } from './json-encode.js';

export const PerimeterClass = {
  egress: 'egress',
  destructive: 'destructive',
  durableWriteBack: 'durable_write_back',
} as const;
export type PerimeterClass = (typeof PerimeterClass)[keyof typeof PerimeterClass];

export const PerimeterAuditStatus = { completed: 'completed', failed: 'failed', indeterminate: 'indeterminate' } as const;
export type PerimeterAuditStatus = (typeof PerimeterAuditStatus)[keyof typeof PerimeterAuditStatus];
export type PerimeterCompletionStatus = Exclude<PerimeterAuditStatus, 'indeterminate'>;

// Record fields are bounded so one hostile request cannot make every later audit write slow.
const MAX_ID_LENGTH = 256;
const MAX_JSON_LENGTH = 4 * 1024 * 1024;

const idText = z.string().min(1).max(MAX_ID_LENGTH);
const jsonText = z
  .string()
  .max(MAX_JSON_LENGTH)
  .refine(isJsonText, { message: 'must be JSON text (use toJSONSafe(snapshot(value)))' });
const timestamp = z.number().int().nonnegative();

export const perimeterAttemptSchema = z.strictObject({
  attemptId: idText,
  runId: idText,
  executionId: idText.optional(),
  dispatchNodeId: idText.optional(),
  capability: idText,
  footprint: z
    .array(z.enum([PerimeterClass.egress, PerimeterClass.destructive, PerimeterClass.durableWriteBack]))
    .min(1)
    .refine((classes) => new Set(classes).size === classes.length, { message: 'perimeter classes must be distinct' }),
  arguments: jsonText,
  attemptedAt: timestamp,
});

export const perimeterCompletionSchema = z.strictObject({
  attemptId: idText,
  status: z.enum([PerimeterAuditStatus.completed, PerimeterAuditStatus.failed]),
  summary: jsonText,
  completedAt: timestamp,
});

/** The record written before a perimeter effect. `arguments` is the JSON text of the validated request's snapshot. */
export interface PerimeterAttempt {
  readonly attemptId: string;
  readonly runId: string;
  readonly executionId?: string;
  readonly dispatchNodeId?: string;
  readonly capability: string;
  readonly footprint: readonly PerimeterClass[];
  readonly arguments: string;
  /** Epoch milliseconds. */
  readonly attemptedAt: number;
}

/** The record written after the effect with the observed status; `summary` is JSON text of a result or error snapshot. */
export interface PerimeterCompletion {
  readonly attemptId: string;
  readonly status: PerimeterCompletionStatus;
  readonly summary: string;
  /** Epoch milliseconds. */
  readonly completedAt: number;
}

export interface PerimeterAuditEntry {
  /** Order in which the store accepted the attempt, starting at 1. */
  readonly sequence: number;
  readonly attempt: PerimeterAttempt;
  readonly status: PerimeterAuditStatus;
  readonly completion?: PerimeterCompletion;
}

export interface PerimeterAuditFilter {
  readonly runId?: string;
  readonly executionId?: string;
  readonly dispatchNodeId?: string;
  readonly capability?: string;
  readonly status?: PerimeterAuditStatus;
  /** Only entries with a larger sequence, for paging. */
  readonly afterSequence?: number;
  readonly limit?: number;
}

export const perimeterAuditFilterSchema = z.strictObject({
  runId: idText.optional(),
  executionId: idText.optional(),
  dispatchNodeId: idText.optional(),
  capability: idText.optional(),
  status: z.enum([PerimeterAuditStatus.completed, PerimeterAuditStatus.failed, PerimeterAuditStatus.indeterminate]).optional(),
  afterSequence: z.number().int().nonnegative().optional(),
  limit: z.number().int().positive().optional(),
});

type MaybePromise<T> = T | Promise<T>;

/** Platform-owned storage for perimeter attempt and completion records. */
export interface PerimeterAuditStore {
  /** False for stores that do not satisfy the durability obligation (process memory). */
  readonly durable: boolean;
  /** Must persist the record before returning (or resolving). If it throws, the effect must not be attempted. */
  recordAttempt(attempt: PerimeterAttempt): MaybePromise<void>;
  recordCompletion(completion: PerimeterCompletion): MaybePromise<void>;
  get(attemptId: string): MaybePromise<PerimeterAuditEntry | undefined>;
  /** Entries in sequence order. */
  list(filter?: PerimeterAuditFilter): MaybePromise<readonly PerimeterAuditEntry[]>;
  close(): MaybePromise<void>;
}

/** Validates a record against its schema; throws `PerimeterAuditRecordInvalidError`. Returns a frozen copy. */
export function parsePerimeterAttempt(input: unknown): PerimeterAttempt {
  return parseRecord(perimeterAttemptSchema, 'attempt', input);
}
export function parsePerimeterCompletion(input: unknown): PerimeterCompletion {
  return parseRecord(perimeterCompletionSchema, 'completion', input);
}
export function parsePerimeterAuditFilter(input: unknown): PerimeterAuditFilter {
  const result = perimeterAuditFilterSchema.safeParse(input ?? {});
  if (!result.success) throw new PerimeterAuditRecordInvalidError({ record: 'filter', issues: result.error.issues });
  return result.data;
}

function parseRecord<T extends object>(schema: z.ZodType<T>, record: PerimeterAuditRecordKind, input: unknown): T {
  const result = schema.safeParse(input);
  if (!result.success) throw new PerimeterAuditRecordInvalidError({ record, issues: result.error.issues });
  const data = result.data as Record<string, unknown>;
  if (Array.isArray(data.footprint)) Object.freeze(data.footprint);
  return Object.freeze(result.data);
}

function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

// Audit summaries are evidence, not payload: keep them small enough that writing one stays cheap.
const SUMMARY_BOUNDS: SnapshotOptions = { maxDepth: 8, maxNodes: 500, maxEntries: 100, maxStringLength: 4_096 };

/** JSON text of a bounded snapshot, the form `arguments` and `summary` take. Never throws. */
export function perimeterAuditJson(value: unknown, options: SnapshotOptions = {}): string {
  return encodeJson(toJSONSafe(snapshotRedacted(value, options).snapshot));
}

/** Builds an attempt record from validated request arguments (snapshotted now, so later mutation cannot rewrite it). */
export function createPerimeterAttempt(input: {
  readonly runId: string;
  readonly capability: string;
  readonly footprint: readonly PerimeterClass[];
  readonly arguments: unknown;
  readonly executionId?: string;
  readonly dispatchNodeId?: string;
  readonly attemptId?: string;
  readonly attemptedAt?: number;
  readonly snapshotOptions?: SnapshotOptions;
}): PerimeterAttempt {
  return parsePerimeterAttempt({
    attemptId: input.attemptId ?? newId('pa_'),
    runId: input.runId,
    ...(input.executionId === undefined ? {} : { executionId: input.executionId }),
    ...(input.dispatchNodeId === undefined ? {} : { dispatchNodeId: input.dispatchNodeId }),
    capability: input.capability,
    footprint: [...input.footprint],
    arguments: perimeterAuditJson(input.arguments, input.snapshotOptions),
    attemptedAt: input.attemptedAt ?? wallClockMs(),
  });
}

export interface AdmitPerimeterEffectOptions<T> {
  /** What enters the completion summary for a successful effect. Defaults to the result itself. */
  readonly summarizeResult?: (result: T) => unknown;
  readonly now?: () => number;
}

/**
 * The host's attempt/effect/completion sequence. The effect runs only after `recordAttempt` returned;
 * a failing attempt write surfaces as `PerimeterAttemptNotRecordedError` with the effect never called.
 * An effect failure is recorded as `failed` and rethrown unchanged.
 */
export async function admitPerimeterEffect<T>(
  store: PerimeterAuditStore,
  attempt: PerimeterAttempt,
  effect: () => T | Promise<T>,
  options: AdmitPerimeterEffectOptions<T> = {},
): Promise<T> {
  const now = options.now ?? Date.now;
  try {
    await store.recordAttempt(attempt);
  } catch (cause) {
    throw new PerimeterAttemptNotRecordedError({ attemptId: attempt.attemptId, capability: attempt.capability, cause });
  }
  let result: T;
  try {
    result = await effect();
  } catch (effectError) {
    const summary = perimeterAuditJson(effectError, SUMMARY_BOUNDS);
    try {
      await store.recordCompletion({ attemptId: attempt.attemptId, status: 'failed', summary, completedAt: now() });
    } catch (cause) {
      throw new PerimeterCompletionNotRecordedError({ attemptId: attempt.attemptId, observed: 'failed', effectError, cause });
    }
    throw effectError;
  }
  let summary: string;
  try {
    summary = perimeterAuditJson(options.summarizeResult ? options.summarizeResult(result) : result, SUMMARY_BOUNDS);
  } catch (error) {
    // The effect already happened; a broken summarizer must not leave the attempt indeterminate.
    summary = perimeterAuditJson({ summarizeResultFailed: error }, SUMMARY_BOUNDS);
  }
  try {
    await store.recordCompletion({ attemptId: attempt.attemptId, status: 'completed', summary, completedAt: now() });
  } catch (cause) {
    throw new PerimeterCompletionNotRecordedError({ attemptId: attempt.attemptId, observed: 'completed', result, cause });
  }
  return result;
}
