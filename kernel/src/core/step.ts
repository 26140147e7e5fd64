/**
 * The step executor contract. A step is one execution of one Natural block: the core builds a
 * StepRequest, the executor returns a StepCandidate, and the core validates, inspects and commits it.
 */
import type { NaturalProgram, OutcomeKind } from './program.js';
import type { OperationFinished } from './operation.js';
import type { StepContext } from './step-context.js';

export type StepOutcome =
  | { readonly kind: 'pass' }
  | { readonly kind: 'return'; readonly value: unknown }
  | { readonly kind: 'break' }
  | { readonly kind: 'continue' }
  | { readonly kind: 'raise'; readonly error: unknown };

/** Outcome constructors, so custom executors read like seed 000 (`Raise.of(error)`). */
export const Pass: { readonly kind: 'pass' } = Object.freeze({ kind: 'pass' });
export const Break: { readonly kind: 'break' } = Object.freeze({ kind: 'break' });
export const Continue: { readonly kind: 'continue' } = Object.freeze({ kind: 'continue' });
export const Return = {
  of(value: unknown): StepOutcome {
    return Object.freeze({ kind: 'return', value });
  },
};
export const Raise = {
  /** Raise this exact error object (identity preserved) from the Natural function. */
  of(error: unknown): StepOutcome {
    return Object.freeze({ kind: 'raise', error });
  },
};

/** What an executor proposes. Bindings outside the step's write set are ignored. */
export interface StepCandidate {
  readonly outcome: StepOutcome;
  readonly bindings?: Readonly<Record<string, unknown>>;
}

export interface StepRequest {
  readonly stepContext: StepContext;
  readonly program: NaturalProgram;
  readonly allowedOutcomes: readonly OutcomeKind[];
  readonly signal: AbortSignal;
}

/** Anything that can run a step. Custom executors are first-class. */
export interface StepExecutor {
  runStep(request: StepRequest): Promise<StepCandidate>;
}

/** The validated candidate handed to inspectStepCommit before anything is assigned. */
export interface StepCommit {
  readonly stepId: string;
  readonly executionId: string;
  readonly runId: string;
  readonly program: string;
  readonly inputBindings: Readonly<Record<string, unknown>>;
  readonly outcome: StepOutcome;
  readonly bindings: Readonly<Record<string, unknown>>;
  readonly allowedOutcomes: readonly OutcomeKind[];
  readonly failedOperations: readonly OperationFinished[];
}

export type StepStatus = 'completed' | 'raised' | 'failed';

/** The one terminal record of a step, delivered to the step lifecycle after commit. */
export interface StepFinished {
  readonly stepId: string;
  readonly executionId: string;
  readonly parentExecutionId: string | undefined;
  readonly runId: string;
  readonly status: StepStatus;
  readonly outcomeKind: OutcomeKind | undefined;
  /** Validated values as proposed by the executor (before any Rewrite). */
  readonly proposedBindings: Readonly<Record<string, unknown>>;
  readonly committedBindings: Readonly<Record<string, unknown>>;
  readonly rewritten: boolean;
  readonly operations: readonly OperationFinished[];
  readonly failedOperations: readonly OperationFinished[];
  readonly error: unknown;
  readonly durationMs: number;
}
