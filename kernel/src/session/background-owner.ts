/**
 * Background work a cell starts is registered with an explicit trusted owner; there is no task or
 * thread discovery. Owners distinguish an interruption request from confirmed cessation, and a
 * failed observation is `unknown`, which blocks operator exit.
 */
export type OwnerObservation = 'running' | 'interruption-requested' | 'cessation-confirmed' | 'unknown';

export interface BackgroundOwner {
  readonly name: string;
  /** Ask the work to stop. Asking is not stopping. */
  requestInterruption(): void | Promise<void>;
  /** Report what is known now; a throw or an unknown value reads as `unknown`. */
  observe(): OwnerObservation | Promise<OwnerObservation>;
}

const VALID: ReadonlySet<string> = new Set(['running', 'interruption-requested', 'cessation-confirmed', 'unknown']);

/** Observes an owner, mapping failures and garbage to `unknown`. */
export async function observeOwner(owner: BackgroundOwner): Promise<OwnerObservation> {
  try {
    const value = await owner.observe();
    return VALID.has(value as string) ? value : 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * A ready-made owner for a promise-returning task with an AbortController: interruption aborts the
 * signal; cessation is confirmed only once the task's promise has settled.
 */
export function taskOwner(name: string, start: (signal: AbortSignal) => Promise<unknown>): BackgroundOwner & { readonly done: Promise<void> } {
  const controller = new AbortController();
  let settled = false;
  const done = start(controller.signal).then(
    () => void (settled = true),
    () => void (settled = true),
  );
  return {
    name,
    done,
    requestInterruption: () => controller.abort(new Error(`${name}: interruption requested by operator exit`)),
    observe: () => (settled ? 'cessation-confirmed' : controller.signal.aborted ? 'interruption-requested' : 'running'),
  };
}
