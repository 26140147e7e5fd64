/**
 * User Timing marks of the page's load (LOAD_MARK_PREFIX + name, each set once per page): they show in a browser's
 * performance panel, and bench/web.bench.ts prints their medians beside its load figures, so a slower load says
 * which step grew. `body[data-ready-at]` and `body[data-interactive-at]` (app.ts) end the same timeline.
 */
export const LOAD_MARKS = ['requests-sent', 'kernel-socket', 'services-loaded', 'notebook-read', 'draft-read', 'notebook-drawn', 'kernel-idle'] as const;
export type LoadMark = (typeof LOAD_MARKS)[number];

/** What a load mark is named in the page's performance timeline. */
export const LOAD_MARK_PREFIX = 'nighthawk:';

const marked = new Set<LoadMark>();

export function markLoad(name: LoadMark): void {
  if (marked.has(name) || typeof performance === 'undefined') return;
  marked.add(name);
  performance.mark(LOAD_MARK_PREFIX + name);
}
