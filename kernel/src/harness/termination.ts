/**
 * Termination services. The default reports no forced cessation: closing admission or requesting
 * cancellation never substitutes for observed completion (seed 002, "Branch termination").
 */
export interface TerminationTarget {
  readonly runId: string;
  /** Executions and dispatch nodes still active, plus the run root while the composition executes. */
  readonly branches: readonly string[];
  readonly includesRoot: boolean;
  /**
   * What is asked to cease. Absent or `'run'`: the run's own termination (RunHandle.terminate, branches left
   * active at run end). `'branch'`: a parent's request for one descendant dispatch branch
   * (RunContext.terminateBranch); `branchRoot` names its dispatch node and `branches` holds that node and the
   * active dispatch nodes and Natural executions under it, never the run root. Either way the contract is the
   * same: stop exactly `branches`, and report `ceased: true` only once none of them can execute or submit
   * operations. A service written before branch scope (it stops `branches`) therefore keeps working.
   */
  readonly scope?: 'run' | 'branch';
  /** With scope `'branch'`: the dispatch node whose branch is targeted (also the first entry of `branches`). */
  readonly branchRoot?: string;
}

export interface TerminationReport {
  /** True only when the branches can no longer execute or submit operations. */
  readonly ceased: boolean;
  readonly detail?: string;
}

export interface TerminationService {
  terminate(target: TerminationTarget): Promise<TerminationReport>;
}

/** The in-process default: cooperative cancellation only, never a cessation claim. */
export const cooperativeTermination: TerminationService = Object.freeze({
  async terminate(): Promise<TerminationReport> {
    return { ceased: false, detail: 'in-process regime: no forced termination mechanism' };
  },
});

/** One dispatch node asking for confirmation: the materialization, or one invocation of an export. */
export interface ConfinementRequest {
  readonly runId: string;
  readonly nodeId: string;
  readonly definitionId: string;
  readonly node: 'materialization' | 'invocation';
  /** For invocation nodes: the export being called. */
  readonly exportName?: string;
}

/**
 * External confinement, when configured, must confirm every dispatch node, invocation nodes
 * included. `confirm` may answer synchronously or with a promise. Materialization nodes and calls of
 * async exports wait for a promised answer; a synchronous export is entered synchronously (its call
 * contract is an ordinary return value), so there only a synchronous `true` confirms, and a promise
 * counts as a missing confirmation. Anything but `true` (false, a throw, a rejection) rejects the node
 * before generated execution begins.
 */
export interface ConfinementService {
  /** A stable identity of the external boundary, recorded with each dispatch node. */
  readonly identity: string;
  confirm(dispatch: ConfinementRequest): boolean | Promise<boolean>;
}
