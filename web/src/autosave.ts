/**
 * Autosave to disk: a few seconds after the first unsaved change (continued typing does not postpone
 * it indefinitely), like Jupyter's autosave but sooner. The interval is a per-browser setting;
 * 0 turns it off. Conflicts with the file on disk are the document's to detect (mtime, as Jupyter).
 */
const KEY = 'nighthawk.autosaveSeconds';
export const DEFAULT_AUTOSAVE_SECONDS = 5;

export function autosaveSeconds(): number {
  const raw = localStorage.getItem(KEY);
  const n = raw === null ? DEFAULT_AUTOSAVE_SECONDS : Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : DEFAULT_AUTOSAVE_SECONDS;
}

export function setAutosaveSeconds(seconds: number): void {
  localStorage.setItem(KEY, String(Math.max(0, seconds)));
}

export class Autosave {
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly save: () => Promise<void>, private readonly dirty: () => boolean) {}

  get seconds(): number {
    return autosaveSeconds();
  }

  /** Called on every change: starts the countdown if none is running. */
  changed(): void {
    const seconds = this.seconds;
    if (seconds === 0 || this.timer !== undefined || !this.dirty()) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.dirty()) void this.save();
    }, seconds * 1000);
  }

  cancel(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
