/**
 * Jupyter's parent-poll convention (ipykernel's ParentPoller): a kernel exits when the process that started
 * it is gone, instead of living on re-parented to init. The parent is JPY_PARENT_PID when the launcher
 * sets it (jupyter_client does for kernels it owns), else the parent this process started under.
 */
export interface ParentWatch {
  readonly parentPid: number | undefined;
  stop(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Calls `onGone` once `pid` no longer exists (polled; a pid reused within one interval goes unnoticed). */
export function watchProcess(pid: number, onGone: () => void, intervalMs = 1000): () => void {
  const timer = setInterval(() => {
    if (alive(pid)) return;
    clearInterval(timer);
    onGone();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

export function watchParent(onOrphaned: (parentPid: number) => void, options: { env?: NodeJS.ProcessEnv; intervalMs?: number } = {}): ParentWatch {
  const env = options.env ?? process.env;
  const given = Number(env['JPY_PARENT_PID']);
  const startedUnder = process.ppid;
  const parentPid = Number.isInteger(given) && given > 1 ? given : startedUnder > 1 ? startedUnder : undefined;
  if (parentPid === undefined) return { parentPid, stop() {} };
  const timer = setInterval(() => {
    // Re-parented (the parent died) or the named parent no longer exists.
    if (process.ppid !== startedUnder || !alive(parentPid)) {
      clearInterval(timer);
      onOrphaned(parentPid);
    }
  }, options.intervalMs ?? 1000);
  timer.unref();
  return { parentPid, stop: () => clearInterval(timer) };
}
