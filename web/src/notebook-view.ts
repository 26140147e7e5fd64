/**
 * The list of cells with Jupyter's two modes: command mode (keys act on cells) and edit mode (keys go
 * to the editor). Structural edits (insert, delete, move, split, merge, change type) live here;
 * running is delegated to the Runner.
 */
import { CellView, type CellCommand, type CellHost, type EditorOptions } from './cell-view.js';
import { h, whenIdle } from './dom.js';
import { monacoIfLoaded, whenMonaco } from './monaco-loader.js';
import { newCell, newCellId, type CellModel, type CellType, type NotebookModel } from './notebook-model.js';
import type { RenderContext } from './outputs/render-mime.js';

/** Editors mounted ahead of need at most (Monaco editors cost time to create and ~0.1 MB each). */
const PREMOUNT_LIMIT = 100;

export interface NotebookHost {
  /** Sources or outputs changed (draft save, dirty marker). */
  changed(): void;
  save(): void;
  run(cells: CellView[], advance?: 'advance' | 'insert'): void;
  interrupt(): void;
  restart(): void;
  renderContext(cell: CellModel): RenderContext;
  modeChanged(): void;
}

export class NotebookView implements CellHost {
  readonly element: HTMLElement;
  cells: CellView[] = [];
  active = 0;
  mode: 'command' | 'edit' = 'command';
  /** Deleted cells, newest last, for Z (undo cell delete). */
  private readonly deleted: Array<{ index: number; model: CellModel }> = [];
  /** Cells copied or cut with C / X, pasted with V / Shift+V. */
  private clipboard: CellModel[] = [];
  private editorOptions: EditorOptions = { lineNumbers: false, wordWrap: false };
  private readonly observer: IntersectionObserver;
  /** Code cells within the observer's margin of the viewport and still without an editor. */
  private readonly near = new Set<CellView>();
  private mountScheduled = false;
  private disposed = false;
  private readonly onScroll = (): void => this.mountVisible();

  constructor(readonly model: NotebookModel, private readonly host: NotebookHost) {
    this.element = h('div', { class: 'cells', role: 'list', 'aria-label': 'notebook cells', tabindex: 0 });
    // Editors mount once Monaco has loaded (until then cells show static code): cells in view at once, cells
    // near the viewport next, then the others nearest first in idle time (see scheduleMounts).
    this.observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        const view = this.cells.find((c) => c.element === entry.target);
        if (!view || view.model.cellType !== 'code' || view.hasEditor) continue;
        if (entry.isIntersecting) this.near.add(view);
        else this.near.delete(view);
      }
      this.scheduleMounts();
    }, { rootMargin: '400px 0px' });
    // A cell scrolled into view gets its editor before the frame that shows it: scroll events run ahead of
    // that frame's rendering, while the observer reports only after it.
    document.addEventListener('scroll', this.onScroll, { capture: true, passive: true });
    whenMonaco(() => {
      this.mountVisible();
      this.scheduleMounts();
    });
    if (model.cells.length === 0) model.cells.push(newCell());
    this.cells = model.cells.map((c) => this.makeView(c));
    this.element.replaceChildren(...this.cells.map((c) => c.element));
    this.element.addEventListener('mousedown', (ev) => {
      const clicked = ev.target as HTMLElement;
      const target = clicked.closest<HTMLElement>('.cell');
      const index = this.cells.findIndex((c) => c.element === target);
      if (index < 0) return;
      // A click outside the editor (gutter, output, rendered markdown) selects the cell in command mode.
      const inEditor = !!clicked.closest('.editor-host');
      if (!inEditor) {
        if (index !== this.active || this.mode === 'edit') this.select(index, 'command', false);
      } else if (index !== this.active) this.select(index, this.mode === 'edit' && this.cells[index]!.isEditing ? 'edit' : 'command');
    });
    this.select(0, 'command', false);
  }

  /** Index of the first cell not above the viewport (cells are laid out in order). */
  private firstVisibleIndex(): number {
    const cells = this.cells;
    let lo = 0;
    let hi = cells.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cells[mid]!.element.getBoundingClientRect().bottom < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Mounts the editors of code cells that intersect the viewport now (Monaco loaded), synchronously. */
  private mountVisible(): void {
    if (!monacoIfLoaded() || this.disposed) return;
    const height = window.innerHeight;
    for (let i = this.firstVisibleIndex(); i < this.cells.length; i++) {
      const view = this.cells[i]!;
      if (view.element.getBoundingClientRect().top > height) break;
      if (view.model.cellType !== 'code' || view.hasEditor) continue;
      this.near.delete(view);
      view.ensureEditor();
    }
  }

  /**
   * The next editor to mount ahead of need: a cell near the viewport first, then the code cell nearest to it,
   * up to PREMOUNT_LIMIT editors, so a later scroll (even a jump to the end) finds its editor already there.
   */
  private nextToMount(): CellView | undefined {
    const [near] = this.near;
    if (near) {
      this.near.delete(near);
      return this.cells.includes(near) ? near : this.nextToMount();
    }
    if (this.cells.filter((c) => c.hasEditor).length >= PREMOUNT_LIMIT) return undefined;
    const from = this.firstVisibleIndex();
    for (let d = 0; d < this.cells.length; d++) {
      for (const i of [from + d, from - d - 1]) {
        const view = this.cells[i];
        if (view && view.model.cellType === 'code' && !view.hasEditor) return view;
      }
    }
    return undefined;
  }

  /**
   * Mounts editors ahead of need in idle time (about one Monaco editor per idle period), so mounting never
   * stalls scrolling or typing; `body[data-editors="mounted"]` says none is left to mount.
   */
  private scheduleMounts(): void {
    if (this.mountScheduled || this.disposed || !monacoIfLoaded()) return;
    this.mountScheduled = true;
    delete document.body.dataset.editors;
    const run = (deadline?: IdleDeadline): void => {
      this.mountScheduled = false;
      if (this.disposed) return;
      do {
        const next = this.nextToMount();
        if (!next) {
          document.body.dataset.editors = 'mounted';
          return;
        }
        next.ensureEditor();
      } while (deadline && deadline.timeRemaining() > 25);
      this.scheduleMounts();
    };
    whenIdle(run);
  }

  private makeView(model: CellModel): CellView {
    const view = new CellView(model, this, this.host.renderContext(model));
    view.setEditorOptions(this.editorOptions);
    this.observer.observe(view.element);
    return view;
  }

  get activeCell(): CellView | undefined {
    return this.cells[this.active];
  }

  // CellHost
  edited(): void {
    this.host.changed();
  }

  enterEdit(cell: CellView): void {
    const index = this.cells.indexOf(cell);
    if (index < 0) return;
    if (this.mode === 'edit' && this.active === index && cell.isEditing) return;
    this.select(index, 'edit');
  }

  command(cell: CellView, name: CellCommand): void {
    const index = this.cells.indexOf(cell);
    if (index < 0) return;
    if (index !== this.active) this.select(index, this.mode);
    switch (name) {
      case 'run': return this.host.run([cell]);
      case 'run-advance': return this.host.run([cell], 'advance');
      case 'run-insert': return this.host.run([cell], 'insert');
      case 'escape': return this.select(index, 'command');
      case 'save': return this.host.save();
      case 'split': return this.split();
      case 'move-up': return this.move(-1);
      case 'move-down': return this.move(1);
      case 'delete': return this.remove();
    }
  }

  /** Makes cell `index` active; in edit mode its editor gets focus, in command mode the list does. */
  select(index: number, mode: 'command' | 'edit', focus = true): void {
    const clamped = Math.max(0, Math.min(this.cells.length - 1, index));
    const previous = this.cells[this.active];
    if (previous && (previous !== this.cells[clamped] || mode === 'command')) previous.leaveEdit();
    this.active = clamped;
    this.mode = mode;
    this.cells.forEach((c, i) => c.setActive(i === clamped, mode === 'command'));
    const cell = this.cells[clamped];
    if (cell && focus) {
      if (mode === 'edit') cell.focusEditor();
      else {
        this.element.focus({ preventScroll: true });
        cell.element.scrollIntoView({ block: 'nearest' });
      }
    }
    this.element.setAttribute('aria-activedescendant', '');
    this.host.modeChanged();
  }

  insert(at: number, cellType: CellType = 'code', source = '', mode: 'command' | 'edit' = 'command'): CellView {
    return this.insertModel(at, newCell(cellType, source), mode);
  }

  private insertModel(at: number, model: CellModel, mode: 'command' | 'edit' = 'command'): CellView {
    const view = this.makeView(model);
    const index = Math.max(0, Math.min(this.cells.length, at));
    this.model.cells.splice(index, 0, model);
    this.cells.splice(index, 0, view);
    const next = this.element.children[index];
    this.element.insertBefore(view.element, next ?? null);
    this.select(index, mode);
    this.host.changed();
    return view;
  }

  remove(index = this.active): void {
    const view = this.cells[index];
    if (!view) return;
    view.model.source = view.source;
    this.deleted.push({ index, model: view.model });
    view.dispose();
    this.near.delete(view);
    view.element.remove();
    this.observer.unobserve(view.element);
    this.cells.splice(index, 1);
    this.model.cells.splice(index, 1);
    if (this.cells.length === 0) this.insert(0);
    else this.select(Math.min(index, this.cells.length - 1), 'command');
    this.host.changed();
  }

  move(delta: -1 | 1): void {
    const from = this.active;
    const to = from + delta;
    if (to < 0 || to >= this.cells.length) return;
    const [view] = this.cells.splice(from, 1);
    const [model] = this.model.cells.splice(from, 1);
    this.cells.splice(to, 0, view!);
    this.model.cells.splice(to, 0, model!);
    this.element.replaceChildren(...this.cells.map((c) => c.element));
    this.select(to, this.mode === 'edit' ? 'edit' : 'command');
    this.host.changed();
  }

  setType(cellType: CellType): void {
    const cell = this.activeCell;
    if (!cell || cell.model.cellType === cellType) return;
    cell.setType(cellType);
    this.host.changed();
  }

  /** Splits the active cell at the cursor (Ctrl-Shift-Minus), like Jupyter. */
  split(): void {
    const cell = this.activeCell;
    if (!cell) return;
    const text = cell.source;
    const at = cell.cursorOffset();
    cell.setSource(text.slice(0, at).replace(/\n$/, ''));
    this.insert(this.active + 1, cell.model.cellType, text.slice(at).replace(/^\n/, ''), 'edit');
  }

  /** Merges the cell below into the active one (Shift-M). */
  mergeBelow(): void {
    const cell = this.activeCell;
    const below = this.cells[this.active + 1];
    if (!cell || !below) return;
    cell.setSource(`${cell.source}\n${below.source}`);
    const keep = this.active;
    this.remove(keep + 1);
    this.select(keep, 'command');
  }

  /** Z: brings back the most recently deleted cell where it was. */
  undoDelete(): void {
    const last = this.deleted.pop();
    if (!last) return;
    this.insertModel(Math.min(last.index, this.cells.length), last.model);
  }

  /** C: copies the active cell (source, type, outputs) to the notebook's cell clipboard. */
  copy(): void {
    const cell = this.activeCell;
    if (!cell) return;
    cell.model.source = cell.source;
    this.clipboard = [structuredClone(cell.model)];
  }

  /** X: copies, then deletes the active cell. */
  cut(): void {
    this.copy();
    this.remove();
  }

  /** V / Shift+V: pastes the clipboard below / above the active cell as new cells. */
  paste(where: 'above' | 'below'): void {
    let at = where === 'below' ? this.active + 1 : this.active;
    for (const model of this.clipboard) this.insertModel(at++, { ...structuredClone(model), id: newCellId() });
  }

  clearOutputs(cells: CellView[]): void {
    for (const cell of cells) {
      if (cell.model.cellType !== 'code') continue;
      cell.outputs.clear();
      cell.setExecutionCount(null);
    }
    this.host.changed();
  }

  get options(): EditorOptions {
    return this.editorOptions;
  }

  /** Line numbers and long-line wrapping for every cell editor (and cells mounted later). */
  setOptions(options: Partial<EditorOptions>): void {
    this.editorOptions = { ...this.editorOptions, ...options };
    for (const cell of this.cells) cell.setEditorOptions(this.editorOptions);
  }

  dispose(): void {
    this.disposed = true;
    this.observer.disconnect();
    document.removeEventListener('scroll', this.onScroll, { capture: true });
    this.near.clear();
    for (const cell of this.cells) cell.dispose();
  }
}

