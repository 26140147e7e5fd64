/**
 * Drafts in IndexedDB, one per notebook path: the cells (sources and last outputs) as the operator last
 * saw them, plus the fingerprint of the disk version they were based on. Written on every edit
 * (debounced by the caller) so a killed tab or a lost server loses nothing typed.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { CellModel } from './notebook-model.js';

export interface Draft {
  path: string;
  cells: CellModel[];
  metadata: Record<string, unknown>;
  /** Fingerprint of the disk notebook this draft started from (see notebookFingerprintText). */
  baseHash: string;
  /** True when the draft holds edits not yet saved to disk. */
  dirty: boolean;
  savedAt: number;
}

interface DraftDb extends DBSchema {
  drafts: { key: string; value: Draft };
}

export class DraftStore {
  private db: Promise<IDBPDatabase<DraftDb>> | undefined;
  /** Reads started ahead of need (prefetch), each answering the first get() of its path. */
  private readonly prefetched = new Map<string, Promise<Draft | undefined>>();

  constructor(private readonly name = 'nighthawk-notebook') {}

  /**
   * Starts reading `path`'s draft now: in a fresh page, opening IndexedDB takes as long as the notebook's own
   * request, and the first draw waits for both. A write or delete of the path drops the read (it would be stale).
   */
  prefetch(path: string): void {
    const read = this.read(path);
    read.catch(() => {});
    this.prefetched.set(path, read);
  }

  private open(): Promise<IDBPDatabase<DraftDb>> {
    this.db ??= openDB<DraftDb>(this.name, 1, {
      upgrade(db) {
        db.createObjectStore('drafts', { keyPath: 'path' });
      },
    });
    return this.db;
  }

  get(path: string): Promise<Draft | undefined> {
    const read = this.prefetched.get(path);
    this.prefetched.delete(path);
    return read ?? this.read(path);
  }

  private async read(path: string): Promise<Draft | undefined> {
    return (await this.open()).get('drafts', path);
  }

  async put(draft: Draft): Promise<void> {
    this.prefetched.delete(draft.path);
    // Structured clone rejects functions/proxies; a JSON round trip keeps only plain data.
    const plain = JSON.parse(JSON.stringify(draft)) as Draft;
    await (await this.open()).put('drafts', plain);
  }

  async delete(path: string): Promise<void> {
    this.prefetched.delete(path);
    await (await this.open()).delete('drafts', path);
  }
}

/** The page's draft store: early-requests.ts starts the opened notebook's draft read with the page's first requests. */
export const pageDrafts = new DraftStore();
