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
   * request, and the first draw waits for both (unless there is no database to open). A write or delete of the path
   * drops the read (it would be stale).
   */
  prefetch(path: string): void {
    // A browser that never stored a draft here has no database yet, and creating one (what opening it does) takes
    // several turns of a page busy evaluating its script: the database list answers in one that there is nothing.
    // Asked first, so it is not answered after this page's own open has created the database.
    const listed = this.databaseListed();
    const read = this.read(path);
    read.catch(() => {});
    const answer = listed.then((maybe) => (maybe ? read : undefined));
    answer.catch(() => {});
    this.prefetched.set(path, answer);
  }

  /** False when the browser's list of this origin's databases lacks ours; true when it has it or cannot say. */
  private async databaseListed(): Promise<boolean> {
    if (typeof indexedDB.databases !== 'function') return true;
    try {
      return (await indexedDB.databases()).some((db) => db.name === this.name);
    } catch {
      return true;
    }
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
