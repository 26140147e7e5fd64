/**
 * Core error classes. Every error carries a `kind` literal and typed data fields, and a
 * `Symbol.for` brand so `isNighthawkError` works across vm contexts and notebook cells.
 */
import type { OperationFinished, OperationRejection } from './operation.js';

const BRAND = Symbol.for('nighthawk.error');

export type ErrorKind =
  | 'usage'
  | 'natural-parse'
  | 'binding-unresolved'
  | 'execution'
  | 'output-validation'
  | 'operation-rejected'
  | 'step-aborted'
  | 'terminal-operation'
  | 'operation-delivery'
  | 'oversight-contract'
  | 'model-request'
  | 'admission-refused'
  | 'dependency-unavailable'
  | 'step-control'
  | 'scope-authority'
  | 'secret-registration'
  | (string & {});

export class NighthawkError extends Error {
  readonly kind: ErrorKind;
  constructor(kind: ErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.name = new.target.name;
    Object.defineProperty(this, BRAND, { value: true });
  }
}

/**
 * Freezes a library error class and its prototype. Model code reaches both: an exported class, or any error it
 * caught, through its prototype chain. An accessor put on a prototype would run for every error the host makes
 * later (`this.name = …` below assigns through the chain) and could hide what it says; a class renamed would rename
 * them in the host's records. Instances stay as they were (their own `name` can still be set); users' own
 * subclasses stay theirs.
 */
export function sealErrorClass(cls: abstract new (...args: never[]) => unknown): void {
  Object.freeze(cls.prototype);
  Object.freeze(cls);
}
sealErrorClass(NighthawkError);

/** Seals (sealErrorClass) every error class among a module namespace's exports: each folder's index calls it. */
export function sealErrorClasses(namespace: object): void {
  for (const value of Object.values(namespace)) {
    if (typeof value === 'function' && isInstance(value.prototype, NighthawkError)) sealErrorClass(value as abstract new (...args: never[]) => unknown);
  }
}

const ordinaryHasInstance = Function.prototype.bind.call(Function.prototype.call, Function.prototype[Symbol.hasInstance]) as (ctor: Function, value: unknown) => boolean;

/**
 * `value instanceof type` by the prototype chain alone. Any code in this realm can define `Symbol.hasInstance` on
 * an exported class, on a base class or on `Error`, and `instanceof` would then answer what that function says;
 * the host decides what it records (an exhausted allocation, a failed capability call, a step's status) with this.
 */
export function isInstance<T>(value: unknown, type: abstract new (...args: never[]) => T): value is T {
  return ordinaryHasInstance(type, value);
}

/** True for any Nighthawk error, including ones created in another realm. */
export function isNighthawkError(value: unknown): value is NighthawkError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}

/**
 * A package the library loads on first use (`openai` for model requests, `better-sqlite3` for SQLite stores)
 * could not be loaded: missing, half-installed, or its native addon built for another Node. Never retried.
 */
export class DependencyUnavailableError extends NighthawkError {
  readonly dependency: string;
  /** What needed it, e.g. "model requests". */
  readonly neededFor: string;
  constructor(options: { dependency: string; neededFor: string; cause: unknown }) {
    super(
      'dependency-unavailable',
      `The ${options.dependency} package could not be loaded (${describeError(options.cause)}); ${options.neededFor} need it. ` +
        `Reinstall this project's dependencies (npm install, or npm rebuild ${options.dependency} after a Node upgrade).`,
      { cause: options.cause },
    );
    this.dependency = options.dependency;
    this.neededFor = options.neededFor;
  }
}

/** Misuse of the API by the developer, raised as early as possible (usually at definition time). */
export class UsageError extends NighthawkError {
  constructor(message: string) {
    super('usage', message);
  }
}

/** A Natural program text that cannot be parsed (sentinel, bindings, frontmatter). */
export class NaturalParseError extends NighthawkError {
  constructor(message: string) {
    super('natural-parse', message);
  }
}

/** A read binding that does not resolve; raised before any model call. */
export class BindingResolutionError extends NighthawkError {
  readonly bindingName: string;
  readonly reason: 'unbound' | 'not-defined';
  constructor(options: { bindingName: string; reason: 'unbound' | 'not-defined'; cause?: unknown }) {
    const detail =
      options.reason === 'unbound'
        ? `is declared but not yet initialised at the block`
        : `is not defined in the block's scope`;
    super('binding-unresolved', `Read binding <${options.bindingName}> ${detail}.`, { cause: options.cause });
    this.bindingName = options.bindingName;
    this.reason = options.reason;
  }
}

/** A step that could not finish correctly: disallowed outcome, failed validation, bad executor output. */
export class ExecutionError extends NighthawkError {
  readonly stepId: string | undefined;
  constructor(message: string, options?: { stepId?: string; cause?: unknown; kind?: ErrorKind }) {
    super(options?.kind ?? 'execution', message, { cause: options?.cause });
    this.stepId = options?.stepId;
  }
}

/** A write binding or return value that failed its zod schema at commit. Nothing was assigned. */
export class OutputValidationError extends ExecutionError {
  readonly target: { kind: 'binding'; name: string } | { kind: 'return' };
  readonly issues: readonly { path: readonly PropertyKey[]; message: string }[];
  constructor(options: {
    target: { kind: 'binding'; name: string } | { kind: 'return' };
    issues: readonly { path: readonly PropertyKey[]; message: string }[];
    stepId?: string;
  }) {
    const where = options.target.kind === 'binding' ? `Output binding '${options.target.name}'` : 'Return value';
    const detail = options.issues.map((i) => `${i.path.length ? i.path.join('.') + ': ' : ''}${i.message}`).join('; ');
    super(`${where} failed validation: ${detail}`, { stepId: options.stepId, kind: 'output-validation' });
    this.target = options.target;
    this.issues = options.issues;
  }
}

/**
 * A declared write binding the step never assigned, whose value then failed its type: named with the
 * step, never as a raw schema dump, so the model (or the operator) knows which assignment is missing.
 */
export class UnassignedWriteBindingError extends ExecutionError {
  readonly bindingNames: readonly string[];
  constructor(options: { bindingNames: readonly string[]; stepId: string; detail: string; prefix?: string; stepLocals?: readonly string[] }) {
    const names = options.bindingNames.map((n) => `<:${n}>`).join(', ');
    const plural = options.bindingNames.length > 1 ? 's' : '';
    const locals = options.stepLocals?.length
      ? `; nh_assign set ${options.stepLocals.map((n) => `'${n}'`).join(', ')}, which ${options.stepLocals.length > 1 ? 'are' : 'is'} step-local`
      : '';
    const message = options.prefix
      ? `${options.prefix} (${options.detail}): step '${options.stepId}' never assigned write binding${plural} ${names}${locals}.`
      : `Step '${options.stepId}' never assigned write binding${plural} ${names} (${options.detail})${locals}. ` +
        `Set ${options.bindingNames.length > 1 ? 'them' : 'it'} with nh_assign before finishing with nh_output.`;
    super(message, { stepId: options.stepId, kind: 'binding-validation' });
    this.bindingNames = options.bindingNames;
  }
}

/** Thrown by the direct operation API when an inspector returns RejectOperation. The step stays open. */
export class OperationRejectedError extends NighthawkError {
  readonly rejection: OperationRejection;
  constructor(options: { rejection: OperationRejection }) {
    const { rejection } = options;
    super(
      'operation-rejected',
      `Operation ${rejection.request.operationId} was rejected: ${rejection.reason}` +
        (rejection.guidance ? ` (guidance: ${rejection.guidance})` : ''),
    );
    this.rejection = rejection;
  }
}

export type StepAbortSubject = 'operation' | 'step_commit';

/** The step ended by an AbortStep decision (or a terminal operation failure). Success cannot replace it. */
export class StepAbortedError extends NighthawkError {
  readonly subject: StepAbortSubject;
  readonly reason: string;
  readonly stepId: string;
  readonly operationId: string | undefined;
  constructor(options: { subject: StepAbortSubject; reason: string; stepId: string; operationId?: string; cause?: unknown }) {
    super('step-aborted', `Step ${options.stepId} was aborted at ${options.subject}: ${options.reason}`, {
      cause: options.cause,
    });
    this.subject = options.subject;
    this.reason = options.reason;
    this.stepId = options.stepId;
    this.operationId = options.operationId;
  }
}

/**
 * Errors the TerminalOperationError constructor made (subclasses included). Whether an operation's failure ends its
 * step is decided on this, not on the brand and `kind` any object can carry (`Symbol.for` is shared by the realm).
 */
const constructedTerminal = new WeakSet<object>();
const weakSetAdd = WeakSet.prototype.add;
const weakSetHas = WeakSet.prototype.has;
const reflectApply = Reflect.apply;

/**
 * Base class for user errors the model must not handle. An operation that throws one ends its step
 * like AbortStep instead of being reported back to the model as a failed operation.
 */
export class TerminalOperationError extends NighthawkError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('terminal-operation', message, options);
    reflectApply(weakSetAdd, constructedTerminal, [this]);
  }
}

/** Whether `value` was constructed as a TerminalOperationError (a look-alike with its brand and kind is not). */
export function isTerminalOperationError(value: unknown): value is TerminalOperationError {
  return typeof value === 'object' && value !== null && (reflectApply(weakSetHas, constructedTerminal, [value]) as boolean);
}

/**
 * Model code (an expression, or generated code) called a step context member that belongs to the step's executor:
 * running or recording an operation, evaluating text, assigning a binding, or ending the step. Each would make a
 * record say what did not happen (a tool operation whose body was the model's own) or skip the host's checks.
 */
export class StepControlRefusedError extends NighthawkError {
  readonly member: string;
  constructor(options: { member: string; stepId: string }) {
    super('step-control', `StepContext.${options.member} of step ${options.stepId} belongs to the step executor; model code may not call it. Propose an operation instead (nh_evaluate, nh_assign, a tool call).`);
    this.member = options.member;
  }
}

/**
 * Model code asked scope() for something only the operator decides for the steps inside it: the step executor, the
 * oversight, the model, the usage meter, the request admission, the abort signal or the host's extension slots.
 */
export class ScopeAuthorityError extends NighthawkError {
  readonly options: readonly string[];
  constructor(options: { options: readonly string[] }) {
    super(
      'scope-authority',
      `scope() called from model code may not set ${options.options.join(', ')}: the operator's code decides these for every step of the run. A model expression may still start a step (nh.step) in its own scope, with task references and prompt fragments.`,
    );
    this.options = Object.freeze([...options.options]);
  }
}

/**
 * Model code asked to register a secret: every host sink would then redact the text it chose (its own expression in
 * the ledger, say), in this run and every later one.
 */
export class SecretRegistrationError extends NighthawkError {
  readonly secretName: string;
  constructor(options: { secretName: string }) {
    super(
      'secret-registration',
      `registerSecret('${options.secretName}') called from model code: secrets are registered by the operator's code (or the model client it builds), since every record the host writes redacts them.`,
    );
    this.secretName = options.secretName;
  }
}

/** The in-process notification of an operation fact failed; the step ends and the fact is kept. */
export class OperationDeliveryError extends NighthawkError {
  readonly finished: OperationFinished;
  readonly deliveryCause: unknown;
  constructor(options: { finished: OperationFinished; deliveryCause: unknown }) {
    super(
      'operation-delivery',
      `Delivery of the record for operation ${options.finished.request.operationId} failed: ${describeError(options.deliveryCause)}`,
      { cause: options.deliveryCause },
    );
    this.finished = options.finished;
    this.deliveryCause = options.deliveryCause;
  }
}

/** An inspector threw or returned something that is not a decision. Fail closed: the step ends. */
export class OversightContractError extends NighthawkError {
  readonly hook: 'inspectOperation' | 'inspectStepCommit' | 'onStepFinished';
  readonly stepId: string;
  constructor(options: { hook: OversightContractError['hook']; stepId: string; detail: string; cause?: unknown }) {
    super('oversight-contract', `Oversight hook ${options.hook} broke its contract in step ${options.stepId}: ${options.detail}`, {
      cause: options.cause,
    });
    this.hook = options.hook;
    this.stepId = options.stepId;
  }
}

/** Short, bounded description of any thrown value, safe to show to a model. */
export function describeError(error: unknown, maxLength = 400): string {
  let text: string;
  if (error instanceof Error) text = `${error.name}: ${error.message}`;
  else if (typeof error === 'string') text = error;
  else {
    try {
      text = JSON.stringify(error) ?? String(error);
    } catch {
      text = Object.prototype.toString.call(error);
    }
  }
  return text.length > maxLength ? text.slice(0, maxLength - 1) + '…' : text;
}
