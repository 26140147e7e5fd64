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

  constructor(private readonly name = 'nighthawk-notebook') {}

  private open(): Promise<IDBPDatabase<DraftDb>> {
    this.db ??= openDB<DraftDb>(this.name, 1, {
      upgrade(db) {
        db.createObjectStore('drafts', { keyPath: 'path' });
      },
    });
    return this.db;
  }

  async get(path: string): Promise<Draft | undefined> {
    return (await this.open()).get('drafts', path);
  }

  async put(draft: Draft): Promise<void> {
    // Structured clone rejects functions/proxies; a JSON round trip keeps only plain data.
    const plain = JSON.parse(JSON.stringify(draft)) as Draft;
    await (await this.open()).put('drafts', plain);
  }

  async delete(path: string): Promise<void> {
    await (await this.open()).delete('drafts', path);
  }
}
