/**
 * The built-ins check of runs the core runs without a Runner (`run`, core-only). The harness records the built-ins
 * and restores them after each operation and step of its own runs; it installs this seam when it loads (the first
 * installation stands) so that a core-only run does the same: `prepare` records the built-ins before any run's
 * first step, so nothing a core-only run's model code changes becomes the record later runs restore to, and
 * `check` restores and notes what changed since.
 */
export type RealmScope = 'hot' | 'full';

export interface RealmSeam {
  readonly prepare: () => void;
  readonly check: (scope: RealmScope, runId: string, parentId: string) => void;
}

let seam: RealmSeam | undefined;

export function setRealmSeam(value: RealmSeam): void {
  seam ??= Object.freeze({ prepare: value.prepare, check: value.check });
}

/** Before a run starts: a failure is the run's (fail closed, nothing has run yet). */
export function prepareRealm(): void {
  seam?.prepare();
}

/** After an operation (`hot`) or before a step's record and commit (`full`); a failing check changes nothing else. */
export function checkRealmSeam(scope: RealmScope, runId: string, parentId: string): void {
  try {
    seam?.check(scope, runId, parentId);
  } catch {
    /* whatever it restored stands */
  }
}
