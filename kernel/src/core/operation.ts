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

/**
 * The engine's messages (V8's, which this package runs on) for a write it refused because the target is frozen,
 * sealed, not extensible or read-only (host objects, and what an operator froze before granting it), its prototype
 * included.
 */
// The last two forms are a prototype set (`Object.setPrototypeOf`, `__proto__ =`) on a non-extensible object (`#<Object>
// is not extensible`, where a function's description is its source text, hence `s`) or on `Object.prototype`. The
// host's read-only collections (frozen-collections.ts) are no Set or Map, so a built-in mutator called on one is
// refused as an incompatible receiver: that too is a write refused.
const FROZEN_WRITE =
  /^(?:Cannot (?:assign to read only property |add property .+, object is not extensible|delete property |redefine property: |define property .+, object is not extensible|set property .+ which has only a getter)|.+ is not extensible$|Immutable prototype object .+ cannot have their prototype set$|Method (?:Set|Map)\.prototype\.(?:add|set|delete|clear) called on incompatible receiver #<Frozen(?:Set|Map)>$)/s;
// Captured: the builtin exec does not look up `exec` again, so model code replacing RegExp.prototype.exec (or
// test) changes nothing here.
const regExpExec = RegExp.prototype.exec;
const apply = Reflect.apply;

/** Whether `message` is the engine's message refusing a write to a frozen or read-only value. */
export function isFrozenWriteMessage(message: string): boolean {
  return apply(regExpExec, FROZEN_WRITE, [message]) !== null;
}

/**
 * Whether a finished operation is the model's write to a frozen value, refused by the engine: a failed expression
 * operation (not a capability, whose body is the operator's code) with such a TypeError. Read from the record, so a
 * model can make one up by throwing such a TypeError itself: that only adds a note of an attempt.
 */
export function isModelFrozenWrite(record: OperationFinished): boolean {
  const { failure } = record;
  return record.status === 'failed' && record.request.kind !== 'tool' && failure !== undefined && failure.errorClass === 'TypeError' && isFrozenWriteMessage(failure.message);
}

/** The guidance a model gets with such a failure, instead of the general one. */
export const FROZEN_WRITE_GUIDANCE =
  'That value is frozen (an object the host or the operator froze, such as a granted reference or a library class) ' +
  'and cannot be changed: compute the new value in an expression and set a write binding with nh_assign (or return it), then continue.';

/** The one terminal fact of an operation. */
export interface OperationFinished {
  readonly request: OperationRequest;
  readonly status: OperationStatus;
  readonly rejection?: OperationRejection;
  readonly abortReason?: string;
  readonly failure?: OperationFailure;
  readonly blockedByOperationId?: string;
  /** A completed evaluate operation's value, as bounded display text (the run view shows it). */
  readonly valuePreview?: string;
  /** Names of registered secrets the operation's value carried back to the model (see `registerSecret`). */
  readonly secretsRead?: readonly string[];
  /** Monotonic sequence number within its step, in the order the records were finished. */
  readonly sequence: number;
  readonly startedAt: number;
  readonly durationMs: number;
}

/** Longest value preview an operation record carries. */
export const VALUE_PREVIEW_CHARS = 200;

/**
 * Bounded display text of a value: JSON where possible (cycles, functions and bigints named, not
 * thrown on), cut to VALUE_PREVIEW_CHARS. Pure: records stay plain data.
 */
export function previewValue(value: unknown): string {
  let text: string;
  if (value === undefined) text = 'undefined';
  else if (typeof value === 'function') text = `[Function ${value.name || '(anonymous)'}]`;
  else if (typeof value === 'bigint') text = `${value}n`;
  else if (typeof value === 'symbol') text = value.toString();
  else {
    const seen = new WeakSet<object>();
    try {
      text = JSON.stringify(value, (_k, v: unknown) => {
        if (typeof v === 'bigint') return `${v}n`;
        if (typeof v === 'function') return `[Function ${(v as { name?: string }).name || '(anonymous)'}]`;
        if (v && typeof v === 'object') {
          if (seen.has(v)) return '[Circular]';
          seen.add(v);
        }
        return v;
      }) ?? String(value);
    } catch {
      text = Object.prototype.toString.call(value);
    }
  }
  return text.length > VALUE_PREVIEW_CHARS ? `${text.slice(0, VALUE_PREVIEW_CHARS - 1)}…` : text;
}
