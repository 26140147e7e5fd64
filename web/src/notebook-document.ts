/**
 * A notebook file and its draft: loads from the Contents API, restores the IndexedDB draft when it is
 * newer, asks the operator when the disk changed under unsaved edits, and saves (nbformat 4.5).
 * Drafts are written on every change (debounced) and flushed when the page hides.
 */
import { contentHash, debounce } from './dom.js';
import type { DraftStore } from './drafts.js';
import { markLoad } from './load-marks.js';
import type { ContentsApi } from './services-loader.js';
import { notebookFingerprintText, notebookFromJson, notebookToJson, type NotebookModel } from './notebook-model.js';

export type ConflictChoice = 'mine' | 'disk';
export type ConflictResolver = (info: { path: string; when: 'open' | 'save' }) => Promise<ConflictChoice>;
export type DraftState = 'clean' | 'unsaved' | 'draft-saved' | 'saving' | 'save-failed';

export interface OpenResult {
  document: NotebookDocument;
  restoredDraft: boolean;
}

export class NotebookDocument {
  dirty = false;
  private draftSeq = 0;
  readonly saveDraftSoon: (() => void) & { flush(): void };
  onDraftState: (state: DraftState, seq: number) => void = () => {};

  private constructor(
    public path: string,
    readonly model: NotebookModel,
    private baseHash: string,
    private lastModified: string,
    private readonly contents: ContentsApi,
    private readonly drafts: DraftStore,
    private readonly resolveConflict: ConflictResolver,
  ) {
    this.saveDraftSoon = debounce(() => void this.writeDraft(), 300);
  }

  static async open(path: string, contents: ContentsApi, drafts: DraftStore, resolve: ConflictResolver): Promise<OpenResult> {
    // The draft is read while the file loads: opening IndexedDB in a fresh page takes tens of milliseconds.
    const draftRead = drafts.get(path).catch(() => undefined);
    const disk = await contents.get(path, { type: 'notebook', content: true });
    markLoad('notebook-read');
    const diskModel = notebookFromJson(disk.content);
    const diskHash = contentHash(notebookFingerprintText(diskModel));
    const draft = await draftRead;
    markLoad('draft-read');
    let model = diskModel;
    let restored = false;
    let dirty = false;
    if (draft) {
      const draftModel: NotebookModel = { cells: draft.cells, metadata: draft.metadata };
      const draftHash = contentHash(notebookFingerprintText(draftModel));
      if (draft.baseHash === diskHash) {
        // Disk unchanged since the draft began: the draft is simply newer (unsaved edits, last outputs).
        model = draftModel;
        dirty = draft.dirty && draftHash !== diskHash;
        restored = dirty;
      } else if (draft.dirty && draftHash !== diskHash) {
        const choice = await resolve({ path, when: 'open' });
        if (choice === 'mine') {
          model = draftModel;
          dirty = true;
          restored = true;
        }
      }
    }
    const doc = new NotebookDocument(path, model, diskHash, disk.last_modified, contents, drafts, resolve);
    doc.dirty = dirty;
    // The draft is rebased on the disk version just seen, so a resolved conflict is not asked again. Not
    // awaited (the notebook shows meanwhile): IndexedDB runs this write before any later one of the page.
    void drafts.put({ path, cells: model.cells, metadata: model.metadata, baseHash: diskHash, dirty, savedAt: Date.now() }).catch(() => {});
    return { document: doc, restoredDraft: restored };
  }

  /** Records an edit: marks the notebook dirty and schedules a draft write. */
  touch(sourceChanged = true): void {
    if (sourceChanged && !this.dirty) this.dirty = true;
    this.onDraftState(this.dirty ? 'unsaved' : 'clean', this.draftSeq);
    this.saveDraftSoon();
  }

  private async writeDraft(): Promise<void> {
    const seq = ++this.draftSeq;
    await this.drafts.put({ path: this.path, cells: this.model.cells, metadata: this.model.metadata, baseHash: this.baseHash, dirty: this.dirty, savedAt: Date.now() });
    this.onDraftState(this.dirty ? 'draft-saved' : 'clean', seq);
  }

  /**
   * Saves to disk. If the file changed on disk since it was loaded, asks first; "disk" returns the
   * disk version's model for the caller to load instead (nothing is written).
   */
  async save(): Promise<'saved' | 'take-disk'> {
    this.onDraftState('saving', this.draftSeq);
    try {
      const current = await this.contents.get(this.path, { content: false }).catch(() => undefined);
      if (current && current.last_modified !== this.lastModified) {
        const disk = await this.contents.get(this.path, { type: 'notebook', content: true });
        const diskHash = contentHash(notebookFingerprintText(notebookFromJson(disk.content)));
        if (diskHash !== this.baseHash && (await this.resolveConflict({ path: this.path, when: 'save' })) === 'disk') {
          await this.drafts.delete(this.path);
          return 'take-disk';
        }
      }
      const content = notebookToJson(this.model);
      const savedHash = contentHash(notebookFingerprintText(this.model));
      const saved = await this.contents.save(this.path, { type: 'notebook', format: 'json', content });
      this.lastModified = saved.last_modified;
      this.baseHash = savedHash;
      // Typing during the round trip (autosave runs while you type) is not on disk yet.
      this.dirty = contentHash(notebookFingerprintText(this.model)) !== savedHash;
      this.saveDraftSoon();
      this.saveDraftSoon.flush();
      return 'saved';
    } catch (err) {
      this.onDraftState('save-failed', this.draftSeq);
      throw err;
    }
  }

  async rename(newPath: string): Promise<void> {
    const oldPath = this.path;
    const moved = await this.contents.rename(oldPath, newPath);
    this.path = moved.path;
    this.lastModified = moved.last_modified;
    await this.drafts.delete(oldPath).catch(() => {});
    await this.writeDraft();
  }
}
