/**
 * The call shape shared by the runtime form (`step()`) and the code the block transform emits
 * (`runBlock()`). Keeping one shape makes the two forms produce identical records.
 */
import type { ZodType } from 'zod';
import type { OutcomeKind } from './program.js';

export interface BlockSpec {
  /** Program text starting with its sentinel line (`execute\n…` or `decide\n…`). */
  readonly program: string;
  /** Block-site identity, `file:line` from the transform or a name in the runtime form. */
  readonly stepId?: string;
  /** Block form: every local lexically in scope, as getter thunks (TDZ reads throw ReferenceError). */
  readonly scope?: Readonly<Record<string, () => unknown>>;
  /** Runtime form: read values and other locals by value. */
  readonly values?: Readonly<Record<string, unknown>>;
  /** Write-binding schemas (explicit or derived from annotations); missing ones are inferred. */
  readonly writes?: Readonly<Record<string, ZodType | undefined>>;
  /** Whether `return` is a permitted outcome (inside a Natural function). */
  readonly returnAllowed?: boolean;
  /** Schema of the enclosing function's return value. */
  readonly returns?: ZodType | undefined;
  /** True when the block sits lexically inside a loop of its function (break/continue allowed). */
  readonly inLoop?: boolean;
  /** Extra references visible only to this block. */
  readonly references?: Readonly<Record<string, unknown>>;
  /**
   * Block form: writes the committed bindings back to the locals. Called once the commit is admitted and before
   * the step lifecycle receives the terminal record (seed 001: it receives the record after assignment).
   */
  readonly assign?: (bindings: Readonly<Record<string, unknown>>) => void;
}

/** What a finished block hands back to the code around it. */
export interface BlockResult {
  readonly kind: OutcomeKind;
  /** Only write bindings that were committed; untouched ones are absent and keep their value. */
  readonly bindings: Readonly<Record<string, unknown>>;
  /** The validated return value when kind is `return`. */
  readonly value?: unknown;
}
