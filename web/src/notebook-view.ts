/**
 * The list of cells with Jupyter's two modes: command mode (keys act on cells) and edit mode (keys go
 * to the editor). Structural edits (insert, delete, move, split, merge, change type) live here;
 * running is delegated to the Runner.
 */
import { CellView, type CellCommand, type CellHost } from './cell-view.js';
import { h } from './dom.js';
import { newCell, type CellModel, type CellType, type NotebookModel } from './notebook-model.js';
import type { RenderContext } from './outputs/render-mime.js';

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
  private lastKey = '';
  private readonly observer: IntersectionObserver;

  constructor(readonly model: NotebookModel, private readonly host: NotebookHost) {
    this.element = h('div', { class: 'cells', role: 'list', 'aria-label': 'notebook cells', tabindex: 0 });
    // Monaco is mounted only for cells near the viewport: a 50-cell notebook opens without 50 editors.
    this.observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        const view = this.cells.find((c) => c.element === entry.target);
        if (view && view.model.cellType === 'code') view.ensureEditor();
        this.observer.unobserve(entry.target);
      }
    }, { rootMargin: '400px 0px' });
    if (model.cells.length === 0) model.cells.push(newCell());
    this.cells = model.cells.map((c) => this.makeView(c));
    this.element.replaceChildren(...this.cells.map((c) => c.element));
    // Listening on the document: a click on a gutter, rendered markdown, an output or a toolbar button
    // moves focus off the cell list, and command-mode keys must keep working there (JupyterLab does).
    document.addEventListener('keydown', this.keyListener);
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

  private makeView(model: CellModel): CellView {
    const view = new CellView(model, this, this.host.renderContext(model));
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
    const model = newCell(cellType, source);
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
    view.dispose();
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

  /** Command-mode shortcuts (Jupyter's defaults). Edit-mode keys are Monaco actions on each cell. */
  private readonly keyListener = (ev: KeyboardEvent): void => this.onKeyDown(ev);

  private onKeyDown(ev: KeyboardEvent): void {
    if (this.mode !== 'command' || ev.defaultPrevented || !this.element.isConnected || !commandTarget(ev)) return;
    const key = ev.key;
    const mod = ev.ctrlKey || ev.metaKey;
    const double = (k: string): boolean => {
      const hit = this.lastKey === k;
      this.lastKey = hit ? '' : k;
      return hit;
    };
    let handled = true;
    if (key === 'Enter' && ev.shiftKey) this.host.run([this.activeCell!], 'advance');
    else if (key === 'Enter' && mod) this.host.run([this.activeCell!]);
    else if (key === 'Enter' && ev.altKey) this.host.run([this.activeCell!], 'insert');
    else if (key === 'Enter') this.select(this.active, 'edit');
    else if (mod || ev.altKey) handled = false;
    else if (key === 'ArrowUp' || key === 'k') this.select(this.active - 1, 'command');
    else if (key === 'ArrowDown' || key === 'j') this.select(this.active + 1, 'command');
    else if (key === 'a') this.insert(this.active, 'code');
    else if (key === 'b') this.insert(this.active + 1, 'code');
    else if (key === 'd') { if (double('d')) this.remove(); return ev.preventDefault(); }
    else if (key === 'i') { if (double('i')) this.host.interrupt(); return ev.preventDefault(); }
    else if (key === '0') { if (double('0')) this.host.restart(); return ev.preventDefault(); }
    else if (key === 'm') this.setType('markdown');
    else if (key === 'y') this.setType('code');
    else if (key === 'M') this.mergeBelow();
    else handled = false;
    this.lastKey = ['d', 'i', '0'].includes(key) ? this.lastKey : '';
    if (handled) ev.preventDefault();
  }

  dispose(): void {
    document.removeEventListener('keydown', this.keyListener);
    this.observer.disconnect();
    for (const cell of this.cells) cell.dispose();
  }
}

/**
 * Whether a key event may act as a command-mode shortcut: not while typing in an editor, a text field, a
 * select or a dialog, and not Enter/Space on a focused button (those press the button).
 */
function commandTarget(ev: KeyboardEvent): boolean {
  const target = ev.target instanceof Element ? ev.target : null;
  if (!target) return true;
  if (target.closest('.monaco-editor, input, textarea, select, [contenteditable=""], [contenteditable="true"], dialog, .palette')) return false;
  if (target.closest('button, a[href], summary') && (ev.key === ' ' || (ev.key === 'Enter' && !ev.shiftKey && !ev.ctrlKey && !ev.metaKey && !ev.altKey))) return false;
  return true;
}
