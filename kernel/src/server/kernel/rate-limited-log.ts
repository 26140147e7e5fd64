/**
 * A log sink that lets a burst of similar lines through and then counts the rest: one hostile client must
 * not be able to fill the operator's terminal (a fuzz pass once printed 3,704 "dropped frame" lines). Lines
 * are similar when they differ only in numbers; the count is reported when the window ends or on flush().
 */
export interface RateLimitOptions {
  /** Length of one window, per kind of line. */
  windowMs?: number;
  /** Lines of one kind printed per window before counting starts. */
  burst?: number;
  now?: () => number;
}

export interface RateLimitedLog {
  (line: string): void;
  /** Prints the pending "repeated N times" summaries now (at shutdown, or in tests). */
  flush(): void;
}

interface Window {
  start: number;
  printed: number;
  suppressed: number;
  sample: string;
  timer: NodeJS.Timeout | undefined;
}

const MAX_KINDS = 1_000;

export function rateLimitedLog(sink: (line: string) => void, options: RateLimitOptions = {}): RateLimitedLog {
  const windowMs = options.windowMs ?? 10_000;
  const burst = options.burst ?? 5;
  const now = options.now ?? Date.now;
  const windows = new Map<string, Window>();

  const summarize = (w: Window): void => {
    if (w.timer) clearTimeout(w.timer);
    w.timer = undefined;
    if (w.suppressed === 0) return;
    sink(`${w.sample} [and ${w.suppressed} similar line${w.suppressed === 1 ? '' : 's'} suppressed in ${Math.round(windowMs / 1000)}s]`);
    w.suppressed = 0;
  };

  const log = ((line: string): void => {
    const kind = line.replace(/\d+/g, '#');
    const t = now();
    let w = windows.get(kind);
    if (w && t - w.start >= windowMs) {
      summarize(w);
      w = undefined;
    }
    if (!w) {
      if (windows.size >= MAX_KINDS) log.flush();
      w = { start: t, printed: 0, suppressed: 0, sample: line, timer: undefined };
      windows.set(kind, w);
    }
    if (w.printed < burst) {
      w.printed++;
      sink(line);
      return;
    }
    w.suppressed++;
    if (!w.timer) {
      const current = w;
      current.timer = setTimeout(() => summarize(current), Math.max(0, current.start + windowMs - t));
      current.timer.unref?.();
    }
  }) as RateLimitedLog;
  log.flush = () => {
    for (const w of windows.values()) summarize(w);
    windows.clear();
  };
  return log;
}
