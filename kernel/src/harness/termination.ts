/**
 * Termination services. The default reports no forced cessation: closing admission or requesting
 * cancellation never substitutes for observed completion (seed 002, "Branch termination").
 */
export interface TerminationTarget {
  readonly runId: string;
  /** Executions and dispatch nodes still active, plus the run root while the composition executes. */
  readonly branches: readonly string[];
  readonly includesRoot: boolean;
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

/** External confinement, when configured, must confirm every dispatch. */
export interface ConfinementService {
  /** A stable identity of the external boundary, recorded with each dispatch. */
  readonly identity: string;
  /** Resolves true only when the boundary confirms this dispatch; anything else rejects it. */
  confirm(dispatch: { runId: string; nodeId: string; definitionId: string }): Promise<boolean>;
}
