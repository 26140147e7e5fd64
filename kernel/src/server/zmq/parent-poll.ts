/**
 * Jupyter's parent-poll convention (ipykernel's ParentPoller): a kernel exits when the process that started
 * it is gone, instead of living on re-parented to init. The parent is JPY_PARENT_PID when the launcher
 * sets it (jupyter_client does for kernels it owns), else the parent this process started under.
 */
export interface ParentWatch {
  readonly parentPid: number | undefined;
  stop(): void;
}

/** A process id as a variable or request carries it (JPY_PARENT_PID…): an integer above 1 (not init), else undefined. */
export function pidFrom(value: string | number | undefined): number | undefined {
  const pid = Number(value);
  return Number.isInteger(pid) && pid > 1 ? pid : undefined;
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

export interface ParentWatchOptions {
  env?: NodeJS.ProcessEnv;
  intervalMs?: number;
  /**
   * The client is only the one JPY_PARENT_PID (else `clientPid`) names: a pooled kernel's parent is the pool's
   * daemon, whose exit or the re-parenting it brings says nothing about the client. With neither, nothing is watched.
   */
  clientOnly?: boolean;
  /** The client when JPY_PARENT_PID names none: the parent of the shell standing in for a pooled kernel. */
  clientPid?: number | undefined;
}

/** Calls `onOrphaned` (after saying so on stderr) once the parent is gone; polled, so a pid reused within one interval goes unnoticed. */
export function watchParent(onOrphaned: (parentPid: number) => void, options: ParentWatchOptions = {}): ParentWatch {
  const env = options.env ?? process.env;
  const startedUnder = process.ppid;
  const followParent = options.clientOnly !== true;
  const parentPid = pidFrom(env['JPY_PARENT_PID']) ?? pidFrom(options.clientPid) ?? (followParent && startedUnder > 1 ? startedUnder : undefined);
  if (parentPid === undefined) return { parentPid, stop() {} };
  const timer = setInterval(() => {
    // Re-parented (the parent died) or the named parent no longer exists.
    if ((followParent && process.ppid !== startedUnder) || !alive(parentPid)) {
      clearInterval(timer);
      process.stderr.write(`kernel: parent process ${parentPid} is gone; shutting down\n`);
      onOrphaned(parentPid);
    }
  }, options.intervalMs ?? 1000);
  timer.unref();
  return { parentPid, stop: () => clearInterval(timer) };
}
