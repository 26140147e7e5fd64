/**
 * The opaque per-run allocation: recursion depth, executor steps and cost (plus optional counts of
 * Natural executions and dispatches). Fixed at run entry, never extended; nothing here is ever
 * rendered into a prompt or handed to a composition.
 */
import { addUsage, ZERO_USAGE, type Usage } from '../core/index.js';
import { AllocationExhaustedError, type AllocationResource } from './run-errors.js';
import { mapDelete, mapGet, mapSet } from './intrinsics.js';

export interface AllocationLimits {
  readonly maxDepth: number;
  readonly maxExecutorSteps: number;
  /** Cost units; by default one token is one unit. */
  readonly maxCost: number;
  readonly maxNaturalExecutions?: number;
  readonly maxDispatches?: number;
  /** Operations (expressions, assignments, tool calls, outputs) admitted per run. */
  readonly maxOperations: number;
  /** Operations admitted from one model response (executors whose steps the host observes). */
  readonly maxOperationsPerResponse: number;
  /**
   * Cost units of token counts (default: one unit per token). Called with each part of a request's counts as
   * it is counted (the reply's bytes first, then whatever the response claims beyond them), so it must add up.
   */
  readonly costOf?: (usage: Partial<Usage>) => number;
}

export const DEFAULT_ALLOCATION: AllocationLimits = Object.freeze({
  maxDepth: 8,
  maxExecutorSteps: 200,
  maxCost: 2_000_000,
  maxOperations: 5_000,
  maxOperationsPerResponse: 128,
});

const defaultCost = (u: Partial<Usage>) => (u.inputTokens ?? 0) + (u.outputTokens ?? 0);

export class Allocation {
  readonly #limits: AllocationLimits;
  readonly #runId: string;
  #steps = 0;
  #cost = 0;
  #executions = 0;
  #dispatches = 0;
  #operations = 0;
  /** Operations admitted since the latest executor step of each execution (one model response). */
  readonly #responseOperations = new Map<string, number>();
  #exhausted: AllocationResource | undefined;

  constructor(runId: string, limits: Partial<AllocationLimits> = {}) {
    this.#runId = runId;
    this.#limits = Object.freeze({ ...DEFAULT_ALLOCATION, ...limits });
    for (const [k, v] of Object.entries(this.#limits)) {
      if (k !== 'costOf' && (typeof v !== 'number' || !(v >= 0))) throw new TypeError(`Allocation limit ${k} must be a non-negative number.`);
    }
  }

  /** The resource that ran out first, once any has. */
  get exhausted(): AllocationResource | undefined {
    return this.#exhausted;
  }

  /** A description for the run-entry ledger event (the ledger is host evidence, not a prompt). */
  describe(): Record<string, number> {
    const { costOf: _c, ...numbers } = this.#limits;
    return { ...numbers } as Record<string, number>;
  }

  #refuse(resource: AllocationResource): never {
    this.#exhausted ??= resource;
    throw new AllocationExhaustedError({ resource, runId: this.#runId });
  }

  /** Admits one executor step (model request) before it happens. */
  admitExecutorStep(): void {
    if (this.#steps >= this.#limits.maxExecutorSteps) this.#refuse('executor-steps');
    if (this.#cost >= this.#limits.maxCost) this.#refuse('cost');
    this.#steps++;
  }

  /** Admits one Natural execution at `depth` (1 = top level). */
  admitNaturalExecution(depth: number): void {
    if (depth > this.#limits.maxDepth) this.#refuse('recursion-depth');
    if (this.#limits.maxNaturalExecutions !== undefined && this.#executions >= this.#limits.maxNaturalExecutions) this.#refuse('natural-executions');
    this.#executions++;
  }

  /** Admits one dispatch node at `depth`. */
  admitDispatch(depth: number): void {
    if (depth > this.#limits.maxDepth) this.#refuse('recursion-depth');
    if (this.#limits.maxDispatches !== undefined && this.#dispatches >= this.#limits.maxDispatches) this.#refuse('dispatches');
    this.#dispatches++;
  }

  /** Admits one operation of `executionId`; `perResponse` counts it against the current response too. */
  admitOperation(executionId: string, perResponse: boolean): void {
    // Captured Map methods: a model expression may have replaced Map.prototype.get (outside the per-operation
    // check) to forget the count, and admission is a host decision made while that replacement is in place.
    const inResponse = mapGet(this.#responseOperations, executionId) ?? 0;
    if (perResponse && inResponse >= this.#limits.maxOperationsPerResponse) this.#refuse('operations-per-response');
    if (this.#operations >= this.#limits.maxOperations) this.#refuse('operations');
    this.#operations++;
    if (perResponse) mapSet(this.#responseOperations, executionId, inResponse + 1);
  }

  /** A new model response of `executionId` begins (after its executor step was admitted). */
  startResponse(executionId: string): void {
    mapSet(this.#responseOperations, executionId, 0);
  }

  /** Forgets the per-response count of an execution that has ended. */
  releaseExecution(executionId: string): void {
    mapDelete(this.#responseOperations, executionId);
  }

  /** Reports metered usage after a request. */
  observe(usage: Partial<Usage>): void {
    // Only non-negative numbers are costed: usage never lowers what was spent. A cost function that answers NaN, a
    // negative number or anything but a number ('5' would be appended to the total as text) fails closed (the
    // allocation is spent), rather than never exhausting.
    const cost: unknown = (this.#limits.costOf ?? defaultCost)(addUsage(ZERO_USAGE, usage));
    this.#cost += typeof cost === 'number' && cost >= 0 ? cost : Infinity;
  }

  /** Post-hoc check for aggregate accounting: steps learned of afterwards and cost so far. */
  checkAggregate(stepsLearned: number): void {
    this.#steps += stepsLearned;
    if (this.#steps > this.#limits.maxExecutorSteps) this.#refuse('executor-steps');
    if (this.#cost > this.#limits.maxCost) this.#refuse('cost');
  }
}

// An authority class: no method of it can be replaced (a leaked path to the prototype cannot patch `append`, say).
Object.freeze(Allocation.prototype);
