/**
 * The notebook application: file list, toolbar, kernel status and the open notebook, wired to the
 * server through @jupyterlab/services only (ContentsManager for files, the session and kernel REST APIs for
 * kernels), which loads in a chunk of its own (services-loader.ts).
 */
import type { ServerConnection } from '@jupyterlab/services';
import type { CellView } from './cell-view.js';
import { Autosave, autosaveSeconds, setAutosaveSeconds } from './autosave.js';
import { askText, choose, themeToggle, toast, toggleTheme } from './chrome.js';
import { CommandRegistry, commandTarget, openPalette } from './commands.js';
import { notebookCommands } from './notebook-commands.js';
import { button, h, whenIdle } from './dom.js';
import { registerLiveDiagnostics } from './diagnostics.js';
import { pageDrafts } from './drafts.js';
import { FileBrowser } from './file-browser.js';
import { KernelSession, type KernelDisplayStatus } from './kernel-session.js';
import { KernelsPanel } from './kernels-panel.js';
import { loadMonacoOnIntent, whenMonaco } from './monaco-loader.js';
import { NotebookDocument, type ConflictResolver, type DraftState } from './notebook-document.js';
import { newCell, notebookToJson } from './notebook-model.js';
import { NotebookView } from './notebook-view.js';
import { loadRenderers } from './outputs/render-loader.js';
import { markLoad } from './load-marks.js';
import { Runner } from './runner.js';
import { LazyContents } from './services-loader.js';

export const DEFAULT_NOTEBOOK = 'getting-started.ipynb';
/** How long after a notebook opened a kernel that is not idle yet stops holding back the page's other work. */
const SETTLE_MS = 1000;
/** The renderers chunk (~40 ms of script) loads this long after the kernel settled, unless needed before. */
const RENDERERS_AFTER_MS = 1000;
/** How long a notebook's first draw waits for its kernel to connect (open()). */
const KERNEL_BEFORE_DRAW_MS = 150;
/** A requested notebook not drawn by then: the page shows its shell without it (see showShell). */
const SHELL_WAIT_MS = 300;

export class App {
  private readonly contents: LazyContents;
  private readonly drafts = pageDrafts;
  private readonly session: KernelSession;
  private readonly runner: Runner;
  private doc: NotebookDocument | undefined;
  private view: NotebookView | undefined;
  private readonly files: FileBrowser;
  private readonly title = h('h1', { class: 'nb-title', text: 'Nighthawk' });
  private readonly dirtyMark = h('span', { class: 'dirty-mark', 'aria-label': 'unsaved changes', title: 'unsaved changes', text: '●', hidden: true });
  private readonly kernelStatus = h('span', { class: 'kernel-status', role: 'status', 'aria-live': 'polite', 'data-status': 'no kernel', text: 'Kernel: no kernel' });
  private readonly draftStatus = h('span', { class: 'draft-status', 'aria-live': 'polite' });
  /** The toolbar's and sidebar's controls that act on the open notebook (set in layout()). */
  private notebookControls: Array<HTMLButtonElement | HTMLSelectElement> = [];
  private readonly typeSelect = h('select', { 'aria-label': 'cell type' }, h('option', { value: 'code', text: 'Code' }), h('option', { value: 'markdown', text: 'Markdown' }));
  private readonly main = h('main', { class: 'notebook', id: 'notebook', 'aria-label': 'notebook' });
  readonly commands = new CommandRegistry();
  private readonly autosave = new Autosave(() => this.save('auto'), () => this.doc?.dirty ?? false);
  private saving: Promise<void> | undefined;
  private readonly kernelsPanel: KernelsPanel;
  /** Header and layout, built in the constructor and put in the page by showShell. */
  private shell: HTMLElement[] = [];

  /** `settings` resolve once the services chunk has loaded: the notebook is drawn before (services-loader.ts). */
  constructor(private readonly root: HTMLElement, settings: Promise<ServerConnection.ISettings>) {
    this.contents = new LazyContents(settings);
    this.files = new FileBrowser(this.contents, {
      open: (path) => void this.open(path),
      current: () => this.doc?.path,
      deleted: (path) => {
        if (this.doc?.path === path) void this.closeNotebook();
      },
    });
    this.session = new KernelSession(settings);
    this.kernelsPanel = new KernelsPanel(settings, () => this.session.kernel?.id, toast);
    this.runner = new Runner({
      kernel: () => this.session.kernel,
      cells: () => this.view?.cells ?? [],
      changed: () => this.doc?.touch(false),
      notify: toast,
    });
    // The page is usable without Monaco (cells show static code); it loads at the first sign of use.
    loadMonacoOnIntent();
    whenMonaco((setup) => {
      setup.registerKernelProviders(() => this.session.kernel);
      registerLiveDiagnostics(setup.monaco, () => this.session.kernel);
    });
    this.session.onStatus((status) => {
      if (status === 'idle') markLoad('kernel-idle');
      this.markInteractive();
      this.kernelStatus.dataset.status = status;
      this.kernelStatus.textContent = `Kernel: ${status}`;
    });
    this.typeSelect.addEventListener('change', () => this.view?.setType(this.typeSelect.value === 'markdown' ? 'markdown' : 'code'));
    this.layout();
    this.commands.add(...notebookCommands({
      view: () => this.view,
      run: (cells, advance) => this.run(cells, advance),
      save: () => void this.save(),
      interrupt: () => void this.interrupt(),
      restart: (title, then) => void this.restart(title, then),
      palette: () => openPalette(this.commands, () => this.refocus()),
      newNotebook: () => void this.newNotebook(),
      renameNotebook: () => void this.renameNotebook(),
      toggleTheme,
      download: () => this.download(),
    }), {
      id: 'toggle-autosave',
      label: 'Toggle autosave to disk',
      run: () => {
        setAutosaveSeconds(autosaveSeconds() > 0 ? 0 : 5);
        toast(autosaveSeconds() > 0 ? `Autosave on: changes are saved ${autosaveSeconds()} s after you make them.` : 'Autosave off: save with Ctrl+S.');
        if (this.doc) this.showDraftState(this.doc.dirty ? 'unsaved' : 'clean', 0);
        this.autosave.changed();
      },
    });
    // On the document: a click on a gutter, rendered markdown, an output or a toolbar button moves focus
    // off the cell list, and command-mode keys must keep working there (as in JupyterLab).
    document.addEventListener('keydown', (ev) => {
      if (ev.defaultPrevented || document.querySelector('dialog[open]')) return;
      const mode = this.view?.mode === 'command' && commandTarget(ev) ? 'command' : 'edit';
      if (this.commands.handleKey(ev, mode)) ev.preventDefault();
    });
    const flush = (): void => this.doc?.saveDraftSoon.flush();
    window.addEventListener('beforeunload', (ev) => {
      flush();
      // Warn only when something is not on disk (the browser draft is a safety net, not a save).
      if (this.doc?.dirty) {
        ev.preventDefault();
        ev.returnValue = '';
      }
    });
    window.addEventListener('pagehide', flush);
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') flush();
    });
  }

  private layout(): void {
    const v = (): NotebookView | undefined => this.view;
    const run = (pick: (view: NotebookView) => CellView[]): void => {
      const view = v();
      if (view) this.runner.enqueue(pick(view));
    };
    const cmd = (id: string) => (): void => this.commands.run(id);
    const palette = button('Command palette (Ctrl-Shift-C)', cmd('palette'), { class: 'btn', text: '⌘ Commands' });
    const toolbar = h('div', { class: 'toolbar', role: 'toolbar', 'aria-label': 'notebook actions' },
      button('Save notebook (Ctrl-S)', () => void this.save(), { class: 'btn', text: 'Save' }),
      h('span', { class: 'sep' }),
      button('Insert cell below (B)', () => v()?.insert((v()?.active ?? -1) + 1), { class: 'btn', text: '+ Cell' }),
      button('Move cell up', () => v()?.move(-1), { class: 'icon-btn', text: '↑' }),
      button('Move cell down', () => v()?.move(1), { class: 'icon-btn', text: '↓' }),
      button('Split cell at cursor (Ctrl-Shift-Minus)', () => v()?.split(), { class: 'btn', text: 'Split' }),
      button('Merge with cell below (Shift-M)', () => v()?.mergeBelow(), { class: 'btn', text: 'Merge' }),
      button('Delete cell (D, D)', () => v()?.remove(), { class: 'icon-btn', text: '✕' }),
      this.typeSelect,
      h('span', { class: 'sep' }),
      button('Run cell and advance (Shift-Enter)', () => { const c = v()?.activeCell; if (c) this.run([c], 'advance'); }, { class: 'btn', text: '▶ Run' }),
      button('Run all cells', () => run((view) => view.cells), { class: 'btn', text: 'Run all' }),
      button('Run cells above', () => run((view) => view.cells.slice(0, view.active)), { class: 'btn', text: '⇡ Above' }),
      button('Run this cell and below', () => run((view) => view.cells.slice(view.active)), { class: 'btn', text: '⇣ Below' }),
      button('Interrupt kernel (I, I)', () => void this.interrupt(), { class: 'icon-btn', text: '■' }),
      button('Restart kernel (0, 0)', () => void this.restart('Restart kernel?'), { class: 'icon-btn', text: '↻' }),
      button('Restart kernel and run all', cmd('restart-run-all'), { class: 'icon-btn', text: '↻▶' }),
      button('Clear outputs of all cells', cmd('clear-all-outputs'), { class: 'btn', text: 'Clear' }),
      h('span', { class: 'sep' }),
      palette);
    const rename = button('Rename notebook', () => void this.renameNotebook(), { class: 'btn btn-small', text: 'Rename' });
    // Everything but the palette acts on the open notebook: disabled while none is (nothing yet, a failed
    // open, a deleted notebook), so a click never looks taken and does nothing.
    this.notebookControls = [...toolbar.querySelectorAll<HTMLButtonElement | HTMLSelectElement>('button, select')]
      .filter((el) => el !== palette)
      .concat(rename);
    this.setNotebookOpen(false);
    // Toolbar buttons keep focus where it was (the cell list or an editor), as JupyterLab's do.
    toolbar.addEventListener('mousedown', (ev) => {
      if ((ev.target as Element).closest('button')) ev.preventDefault();
    });
    const sidebar = h('nav', { class: 'sidebar', 'aria-label': 'notebook files' },
      h('div', { class: 'sidebar-head' }, h('h2', { text: 'Notebooks' }),
        button('New notebook', () => void this.newNotebook(), { class: 'btn btn-small', text: '+ New' }),
        ...this.files.actions(),
        rename),
      this.files.crumbs,
      this.files.list,
      this.kernelsPanel.element);
    const header = h('header', { class: 'topbar' },
      h('div', { class: 'brand' }, h('span', { class: 'logo', 'aria-hidden': 'true', text: '◆' }), this.title, this.dirtyMark),
      toolbar,
      h('div', { class: 'status' }, this.draftStatus, this.kernelStatus, themeToggle()));
    this.shell = [header, h('div', { class: 'layout' }, sidebar, this.main)];
  }

  private setNotebookOpen(open: boolean): void {
    for (const control of this.notebookControls) control.disabled = !open;
  }

  /**
   * Puts the header and layout in the page. A page opened on a notebook does so in the task that draws the
   * notebook: the shell alone would be styled, laid out and painted first, on the main thread the draw waits for.
   */
  private showShell(): void {
    if (this.shell.length === 0) return;
    this.root.replaceChildren(...this.shell);
    this.shell = [];
  }

  async start(requested: string | null): Promise<void> {
    // A requested notebook opens without waiting for the file list (open() refreshes it anyway); the sidebar's
    // kernel list follows once it is open, so its requests and rendering stay off the notebook's load.
    if (requested) {
      const timer = setTimeout(() => this.showShell(), SHELL_WAIT_MS);
      try {
        return await this.open(requested);
      } catch (error) {
        // The address named a notebook that cannot be read (missing, not a notebook, refused): say so, and
        // leave the file list to pick another.
        const message = `Cannot open ${requested}: ${error instanceof Error ? error.message : String(error)}`;
        toast(message);
        this.main.replaceChildren(h('p', { class: 'empty', text: `${message}. Open another one from the list.` }));
        void this.refreshFiles().catch((err: unknown) => toast(`Cannot list notebooks: ${String(err)}`));
        return;
      } finally {
        clearTimeout(timer);
        this.showShell();
        this.whenSettled(() => this.kernelsPanel.start());
      }
    }
    this.showShell();
    this.kernelsPanel.start();
    const files = await this.refreshFiles().catch((err: unknown) => {
      toast(`Cannot list notebooks: ${String(err)}`);
      return [] as string[];
    });
    const path = requested ?? (files.includes(DEFAULT_NOTEBOOK) ? DEFAULT_NOTEBOOK : files[0]);
    if (path) await this.open(path);
    else this.main.replaceChildren(h('p', { class: 'empty', text: 'No notebooks yet. Use + to create one.' }));
  }

  refreshFiles(): Promise<string[]> {
    return this.files.refresh();
  }

  /** The open notebook was deleted: nothing left to edit or autosave. */
  private async closeNotebook(): Promise<void> {
    this.autosave.cancel();
    this.view?.dispose();
    this.view = undefined;
    const path = this.doc?.path;
    this.doc = undefined;
    this.setNotebookOpen(false);
    if (path) await this.drafts.delete(path).catch(() => {});
    this.title.textContent = 'Nighthawk';
    this.showDraftState('clean', 0);
    this.main.replaceChildren(h('p', { class: 'empty', text: 'The notebook was deleted. Open another one from the list.' }));
    await this.session.close().catch(() => {});
  }

  private resolveConflict: ConflictResolver = ({ path, when }) =>
    choose('The file changed on disk',
      when === 'open'
        ? `${path} was changed on disk after your last unsaved edits in this browser. Keep your edits, or load the version on disk?`
        : `${path} was changed on disk since you opened it. Overwrite it with your version, or load the version on disk?`,
      [{ value: 'mine', label: 'Keep mine', primary: true }, { value: 'disk', label: 'Take disk' }]);

  async open(path: string): Promise<void> {
    this.doc?.saveDraftSoon.flush();
    this.autosave.cancel();
    document.body.dataset.ready = 'false';
    // The kernel session depends only on the path: it is found or started while the file loads.
    const kernel = this.session.open(path).then(() => undefined, (err: unknown) => err);
    let opened: Awaited<ReturnType<typeof NotebookDocument.open>>;
    try {
      opened = await NotebookDocument.open(path, this.contents, this.drafts, this.resolveConflict);
    } catch (error) {
      // No notebook to show: nor a kernel started for it.
      await kernel;
      await this.session.discardIfStarted(path).catch(() => {});
      throw error;
    }
    const { document: doc, restoredDraft } = opened;
    // The draw is one long task and a frame. The kernel's connection is a chain of short tasks, each waiting on the
    // network; drawn first, the notebook would hold every link of that chain back by its whole length.
    await this.kernelSettledOr(kernel, KERNEL_BEFORE_DRAW_MS);
    this.view?.dispose();
    this.doc = doc;
    doc.onDraftState = (state, seq) => this.showDraftState(state, seq);
    this.view = new NotebookView(doc.model, {
      changed: () => doc.touch(),
      save: () => void this.save(),
      run: (cells, advance) => this.run(cells, advance),
      interrupt: () => void this.interrupt(),
      restart: () => void this.restart('Restart kernel?'),
      renderContext: (cell) => ({ answerApproval: (requestId, answer) => this.runner.answerApproval(cell.id, requestId, answer) }),
      modeChanged: () => {
        const cell = this.view?.activeCell;
        if (cell) this.typeSelect.value = cell.model.cellType === 'markdown' ? 'markdown' : 'code';
        document.body.dataset.mode = this.view?.mode ?? 'command';
      },
    });
    this.main.replaceChildren(this.view.element);
    this.setNotebookOpen(true);
    markLoad('notebook-drawn');
    this.showShell();
    this.showDraftState(doc.dirty ? 'unsaved' : 'clean', 0);
    this.title.textContent = path;
    document.title = `${path} — Nighthawk`;
    const url = new URL(window.location.href);
    url.searchParams.set('path', path);
    history.replaceState(history.state, '', url.toString());
    // Last: focusing lays the page out, and a later change to the page would have it laid out again in the frame.
    this.view.element.focus({ preventScroll: true });
    // The file list, like the kernel list and the renderers, waits until the kernel is idle: on a loaded
    // machine each is main-thread work (and a request) competing with the kernel's connection.
    this.whenSettled(() => void this.refreshFiles().catch(() => {}));
    this.whenSettled(() => setTimeout(() => whenIdle(() => void loadRenderers()), RENDERERS_AFTER_MS));
    if (restoredDraft) toast('Restored unsaved edits from this browser.');
    const failed = await kernel;
    if (failed !== undefined) toast(`Kernel unavailable: ${String(failed)}`);
    document.body.dataset.ready = 'true';
    // Read by the load-time benchmark: milliseconds from navigation start to a usable notebook.
    document.body.dataset.readyAt = String(performance.now());
    delete document.body.dataset.interactiveAt;
    this.markInteractive();
  }

  /**
   * Read by the load-time benchmark: milliseconds from navigation start to a notebook one can edit (every
   * cell's static code takes a click and keystrokes) and run (the kernel reads idle).
   */
  private markInteractive(): void {
    const body = document.body.dataset;
    if (body.ready === 'true' && body.interactiveAt === undefined && this.session.status === 'idle') body.interactiveAt = String(performance.now());
  }

  /**
   * Resolves once the kernel reads idle or dead, or its session failed (`opening`, when given, settled to an error),
   * or after `ms`.
   */
  private kernelSettledOr(opening: Promise<unknown> | undefined, ms: number): Promise<void> {
    const settled = (status: KernelDisplayStatus): boolean => status === 'idle' || status === 'dead';
    return new Promise((resolve) => {
      // Neither callback can run before both names below are bound; the check after them runs last.
      const done = (): void => {
        off();
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(done, ms);
      const off = this.session.onStatus((status) => {
        if (settled(status)) done();
      });
      if (settled(this.session.status)) done();
      void opening?.then((failed) => {
        if (failed !== undefined) done();
      });
    });
  }

  /** Runs `fn` in idle time once the kernel reads idle (or dead), or SETTLE_MS after this call. */
  private whenSettled(fn: () => void): void {
    void this.kernelSettledOr(undefined, SETTLE_MS).then(() => whenIdle(fn));
  }

  private showDraftState(state: DraftState, seq: number): void {
    const dirty = this.doc?.dirty ?? false;
    this.dirtyMark.hidden = !dirty;
    document.body.dataset.draftState = state;
    document.body.dataset.draftSeq = String(seq);
    // One label for "is my work on disk?"; the browser draft is mentioned only in the tooltip.
    const auto = autosaveSeconds();
    const [text, title] = {
      clean: ['Saved', `Everything is saved to ${this.doc?.path ?? 'disk'}.`],
      unsaved: [auto ? 'Unsaved — autosaving' : 'Unsaved', auto ? `Saved to disk ${auto} s after a change (Ctrl+S saves now).` : 'Autosave is off: Ctrl+S saves to disk.'],
      'draft-saved': [auto ? 'Unsaved — autosaving' : 'Unsaved', `Not on disk yet; a copy is kept in this browser. ${auto ? `Saved to disk ${auto} s after a change.` : 'Ctrl+S saves to disk.'}`],
      saving: ['Saving…', 'Writing to disk.'],
      'save-failed': ['Not saved', 'Saving to disk failed; your edits are kept in this browser. Ctrl+S retries.'],
    }[state];
    this.draftStatus.textContent = text;
    this.draftStatus.title = title;
    this.draftStatus.dataset.state = state;
    if (dirty && (state === 'unsaved' || state === 'draft-saved')) this.autosave.changed();
  }

  private run(cells: CellView[], advance?: 'advance' | 'insert'): void {
    const view = this.view;
    if (!view) return;
    this.runner.enqueue(cells);
    const last = cells[cells.length - 1];
    const index = last ? view.cells.indexOf(last) : -1;
    if (advance === 'insert' || (advance === 'advance' && index === view.cells.length - 1)) view.insert(index + 1, 'code', '', 'edit');
    else if (advance === 'advance') view.select(index + 1, 'command');
  }

  /** Saves to disk (Ctrl+S, or autosave); one save at a time, a file changed on disk asks first. */
  async save(how: 'manual' | 'auto' = 'manual'): Promise<void> {
    const doc = this.doc;
    if (!doc) return;
    if (this.saving) return this.saving;
    this.autosave.cancel();
    this.saving = (async () => {
      try {
        const result = await doc.save();
        if (result === 'take-disk') await this.open(doc.path);
        else if (how === 'manual') toast(`Saved ${doc.path}`);
        if (doc === this.doc) this.showDraftState(doc.dirty ? 'unsaved' : 'clean', 0);
      } catch (err) {
        toast(`Save failed (your edits are kept in this browser): ${String(err)}`);
      } finally {
        this.saving = undefined;
      }
    })();
    return this.saving;
  }

  private async interrupt(): Promise<void> {
    this.runner.clearQueue();
    await this.session.interrupt().catch((err: unknown) => toast(`Interrupt failed: ${String(err)}`));
  }

  private async restart(title: string, then?: () => void): Promise<void> {
    const ok = await choose(title, then ? 'All variables are lost.' : 'All variables are lost. Outputs stay.', [{ value: 'yes', label: 'Restart', primary: true }, { value: 'no', label: 'Cancel' }]);
    this.refocus();
    if (ok !== 'yes') return;
    this.runner.clearQueue();
    try {
      await this.session.restart();
      then?.();
    } catch (err) {
      toast(`Restart failed: ${String(err)}`);
    }
  }

  /** Back to the notebook after a dialog or the palette: the editor in edit mode, else the cell list. */
  private refocus(): void {
    const view = this.view;
    if (view) view.select(view.active, view.mode);
  }

  /** Export: the notebook as it is in the browser (unsaved edits included), as an .ipynb download. */
  private download(): void {
    const doc = this.doc;
    if (!doc) return;
    const blob = new Blob([JSON.stringify(notebookToJson(doc.model), null, 1)], { type: 'application/x-ipynb+json' });
    const url = URL.createObjectURL(blob);
    const a = h('a', { href: url, download: doc.path.split('/').pop() ?? 'notebook.ipynb', hidden: true });
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  private async newNotebook(): Promise<void> {
    const existing = await this.refreshFiles().catch(() => [] as string[]);
    let n = 1;
    while (existing.some((p) => p.split('/').pop() === `Untitled${n}.ipynb`)) n++;
    const name = await askText('New notebook', 'File name', `Untitled${n}.ipynb`);
    if (!name) return;
    const file = name.endsWith('.ipynb') ? name : `${name}.ipynb`;
    const path = this.files.cwd && !file.includes('/') ? `${this.files.cwd}/${file}` : file;
    await this.contents.save(path, { type: 'notebook', format: 'json', content: notebookToJson({ cells: [newCell()], metadata: {} }) });
    await this.open(path);
  }

  private async renameNotebook(): Promise<void> {
    const doc = this.doc;
    if (!doc) return;
    const name = await askText('Rename notebook', 'New file name', doc.path);
    if (!name || name === doc.path) return;
    const path = name.endsWith('.ipynb') ? name : `${name}.ipynb`;
    try {
      await doc.rename(path);
      await this.session.rename(path).catch(() => {});
      this.title.textContent = path;
      const url = new URL(window.location.href);
      url.searchParams.set('path', path);
      history.replaceState(history.state, '', url.toString());
      await this.refreshFiles();
    } catch (err) {
      toast(`Rename failed: ${String(err)}`);
    }
  }
}
