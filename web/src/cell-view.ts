/**
 * One cell: prompt with execution count and elapsed time, a Monaco editor (mounted lazily: highlighted
 * static code stands in until Monaco has loaded and the cell is in view or focused), rendered markdown,
 * and outputs. A cell focused before Monaco arrives is edited in a plain textarea meanwhile (a click on the
 * static code puts its caret where it was clicked), whose text and cursor the editor takes over, so no keystroke
 * is lost.
 */
import { h } from './dom.js';
import { loadRenderers, renderersIfLoaded } from './outputs/render-loader.js';
import { loadMonaco, monacoIfLoaded, type MonacoSetup } from './monaco-loader.js';
import type { monaco } from './monaco-setup.js';
import type { CellModel } from './notebook-model.js';
import type { RenderContext } from './outputs/render-mime.js';
import { OutputArea } from './outputs/output-area.js';
import { renderStaticCode } from './static-code-view.js';

export type CellRunState = 'idle' | 'queued' | 'running';

/** What the cell asks the notebook to do (keyboard shortcuts inside the editor, toolbar buttons). */
export interface CellHost {
  edited(cell: CellView): void;
  enterEdit(cell: CellView): void;
  command(cell: CellView, name: CellCommand): void;
}

export type CellCommand = 'run' | 'run-advance' | 'run-insert' | 'escape' | 'save' | 'split' | 'move-up' | 'move-down' | 'delete';

const LINE_HEIGHT = 20;

/** Notebook-wide editor settings (L / Shift+L line numbers, the long-line wrapping option). */
export interface EditorOptions {
  lineNumbers: boolean;
  wordWrap: boolean;
}

/** The elements every cell has, cloned by each CellView. */
let skeleton: HTMLElement | undefined;

function buildSkeleton(): HTMLElement {
  const tool = (command: CellCommand, label: string, text: string): HTMLElement =>
    h('button', { type: 'button', class: 'icon-btn', 'aria-label': label, title: label, text, 'data-command': command });
  return h('div', { class: 'cell', role: 'group', tabindex: -1 },
    h('div', { class: 'gutter' }, h('div', { class: 'prompt', 'aria-label': 'execution count' }), h('div', { class: 'elapsed', 'aria-live': 'off' })),
    h('div', { class: 'cell-body' },
      h('div', { class: 'progress', 'aria-hidden': 'true' }),
      h('div', { class: 'editor-host' }, h('pre', { class: 'static-source' })),
      h('div', { class: 'markdown-body rendered' }),
      h('div', { class: 'stdin' })),
    h('div', { class: 'cell-toolbar', role: 'toolbar', 'aria-label': 'cell actions' },
      tool('run', 'Run cell', '▶'), tool('move-up', 'Move cell up', '↑'), tool('move-down', 'Move cell down', '↓'), tool('delete', 'Delete cell', '✕')));
}

export class CellView {
  readonly element: HTMLElement;
  readonly outputs: OutputArea;
  editor: monaco.editor.IStandaloneCodeEditor | undefined;
  private readonly prompt: HTMLElement;
  private readonly elapsed: HTMLElement;
  private readonly editorHost: HTMLElement;
  private readonly staticSource: HTMLElement;
  /** Plain-text editing while Monaco loads (see the header). */
  private interim: HTMLTextAreaElement | undefined;
  /** Focus was asked for before Monaco loaded: the editor takes it when it mounts. */
  private focusWanted = false;
  /** Where a click on the static code put the caret (source offset), for the editor that takes the focus. */
  private caretWanted: number | undefined;
  private readonly rendered: HTMLElement;
  /** Holds the live stdin prompt (input_request); not part of the saved outputs. */
  readonly stdinHost: HTMLElement;
  private state: CellRunState = 'idle';
  private startedAt = 0;
  private editingMarkdown = false;
  private editorOptions: EditorOptions = { lineNumbers: false, wordWrap: false };
  /** L toggles line numbers for this cell only, over the notebook-wide setting. */
  private lineNumbersOverride: boolean | undefined;

  constructor(readonly model: CellModel, private readonly host: CellHost, ctx: RenderContext) {
    // A clone of one built skeleton: a notebook opens with all its cells in one task, where building each
    // element (and a listener per toolbar button) was most of the draw's script time.
    const element = (skeleton ??= buildSkeleton()).cloneNode(true) as HTMLElement;
    const pick = (selector: string): HTMLElement => {
      const found = element.querySelector<HTMLElement>(selector);
      if (!found) throw new Error(`cell skeleton without ${selector}`);
      return found;
    };
    this.element = element;
    element.className = `cell cell-${model.cellType}`;
    element.dataset.cellId = model.id;
    this.prompt = pick('.prompt');
    this.elapsed = pick('.elapsed');
    this.staticSource = pick('.static-source');
    this.renderStatic(model.source);
    this.editorHost = pick('.editor-host');
    this.rendered = pick('.rendered');
    this.stdinHost = pick('.stdin');
    // The outputs' estimate sizes the cell while the browser skips it off screen (styles.css); drawn once, it keeps its real size.
    this.outputs = new OutputArea(model.outputs, ctx, () => host.edited(this), (px) => this.element.style.setProperty('--outputs-height', `${px}px`));
    this.stdinHost.before(this.outputs.element);
    pick('.cell-toolbar').addEventListener('click', (ev) => {
      const command = (ev.target as Element).closest<HTMLElement>('button[data-command]')?.dataset.command;
      if (command) host.command(this, command as CellCommand);
    });
    this.editorHost.addEventListener('mousedown', (ev) => {
      if (this.editor || ev.target === this.interim) return;
      // The click's default would focus the cell itself after the interim editor took focus.
      ev.preventDefault();
      // The static code is the cell's editing surface until an editor mounts: the caret goes where it was clicked.
      const at = this.staticOffsetAt(ev.clientX, ev.clientY);
      queueMicrotask(() => {
        this.caretWanted = at;
        this.host.enterEdit(this);
        this.caretWanted = undefined;
      });
    });
    this.rendered.addEventListener('dblclick', () => this.host.enterEdit(this));
    this.refresh();
  }

  get source(): string {
    return this.editor ? this.editor.getValue() : this.interim ? this.interim.value : this.model.source;
  }

  get isEditing(): boolean {
    if (this.interim) return document.activeElement === this.interim;
    return this.editor?.hasTextFocus() ?? false;
  }

  get hasEditor(): boolean {
    return this.editor !== undefined;
  }

  get runState(): CellRunState {
    return this.state;
  }

  /** The Monaco editor, created in place of the static source if Monaco has loaded (else it starts loading). */
  ensureEditor(): monaco.editor.IStandaloneCodeEditor | undefined {
    if (this.editor) return this.editor;
    const setup = monacoIfLoaded();
    if (setup) return this.mount(setup);
    void loadMonaco();
    return undefined;
  }

  private mount(setup: MonacoSetup): monaco.editor.IStandaloneCodeEditor {
    const { monaco } = setup;
    const interim = this.interim;
    if (interim) this.model.source = interim.value;
    const uri = monaco.Uri.parse(`inmemory://cell/${this.model.id}.${this.model.cellType === 'markdown' ? 'md' : 'ts'}`);
    const model = monaco.editor.getModel(uri) ?? monaco.editor.createModel(this.model.source, this.model.cellType === 'markdown' ? 'markdown' : 'typescript', uri);
    model.setValue(this.model.source);
    const editor = monaco.editor.create(this.editorHost, {
      model,
      minimap: { enabled: false },
      scrollBeyondLastLine: false,
      lineNumbers: this.lineNumbers ? 'on' : 'off',
      glyphMargin: false,
      folding: false,
      lineDecorationsWidth: 6,
      renderLineHighlight: 'none',
      overviewRulerLanes: 0,
      hideCursorInOverviewRuler: true,
      scrollbar: { vertical: 'hidden', alwaysConsumeMouseWheel: false, horizontalScrollbarSize: 8 },
      fontSize: 13,
      lineHeight: LINE_HEIGHT,
      padding: { top: 6, bottom: 6 },
      tabSize: 2,
      automaticLayout: true,
      fixedOverflowWidgets: true,
      wordWrap: this.wrap ? 'on' : 'off',
      ariaLabel: `${this.model.cellType} cell editor`,
      contextmenu: false,
    });
    this.staticSource.remove();
    this.element.classList.add('has-editor');
    if (interim) {
      const hadFocus = document.activeElement === interim;
      const position = model.getPositionAt(interim.selectionStart);
      interim.remove();
      this.interim = undefined;
      editor.setPosition(position);
      if (hadFocus) this.focusWanted = true;
    }
    const fit = (): void => {
      this.editorHost.style.height = `${Math.max(editor.getContentHeight(), LINE_HEIGHT + 12)}px`;
    };
    editor.onDidContentSizeChange(fit);
    fit();
    editor.onDidChangeModelContent(() => {
      this.model.source = editor.getValue();
      this.host.edited(this);
    });
    editor.onDidFocusEditorText(() => this.host.enterEdit(this));
    const bind = (id: CellCommand, keybinding: number, context?: string): void => {
      editor.addAction({ id: `nh.${id}`, label: id, keybindings: [keybinding], ...(context ? { keybindingContext: context } : {}), run: () => this.host.command(this, id) });
    };
    const { KeyMod, KeyCode } = monaco;
    bind('run', KeyMod.CtrlCmd | KeyCode.Enter);
    bind('run-advance', KeyMod.Shift | KeyCode.Enter);
    bind('run-insert', KeyMod.Alt | KeyCode.Enter);
    bind('save', KeyMod.CtrlCmd | KeyCode.KeyS);
    bind('split', KeyMod.CtrlCmd | KeyMod.Shift | KeyCode.Minus);
    bind('escape', KeyCode.Escape, '!suggestWidgetVisible && !findWidgetVisible && !parameterHintsVisible && !renameInputVisible');
    this.editor = editor;
    if (this.focusWanted) {
      this.focusWanted = false;
      editor.focus();
    }
    return editor;
  }

  /** The source offset under a point of the static code (undefined when the point is not on it). */
  private staticOffsetAt(x: number, y: number): number | undefined {
    if (this.staticSource.hidden || !this.staticSource.isConnected) return undefined;
    const doc = document as Document & { caretPositionFromPoint?: (x: number, y: number) => { offsetNode: Node; offset: number } | null };
    let node: Node | undefined;
    let offset = 0;
    const position = doc.caretPositionFromPoint?.(x, y);
    if (position) ({ offsetNode: node, offset } = position);
    else {
      const range = document.caretRangeFromPoint?.(x, y);
      if (range) ({ startContainer: node, startOffset: offset } = range);
    }
    if (!node || !this.staticSource.contains(node)) return undefined;
    // The static code's text spells the source (static-code-view.ts): the text before the point is the offset.
    const before = document.createRange();
    before.setStart(this.staticSource, 0);
    before.setEnd(node, offset);
    return Math.min(before.toString().length, this.model.source.length);
  }

  /** Until Monaco arrives: a textarea over the static code that keeps the cell's keys (run, escape). */
  private editInterim(): void {
    if (!this.interim) {
      const area = h('textarea', { class: 'interim-source', 'aria-label': `${this.model.cellType} cell editor`, spellcheck: 'false' }) as HTMLTextAreaElement;
      area.value = this.model.source;
      area.rows = Math.max(1, this.model.source.split('\n').length);
      area.addEventListener('input', () => {
        area.rows = Math.max(1, area.value.split('\n').length);
        this.model.source = area.value;
        this.host.edited(this);
      });
      area.addEventListener('focus', () => this.host.enterEdit(this));
      area.addEventListener('keydown', (ev) => {
        const command: CellCommand | undefined = ev.key === 'Escape' ? 'escape'
          : ev.key === 'Enter' && ev.shiftKey ? 'run-advance'
            : ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey) ? 'run'
              : ev.key === 'Enter' && ev.altKey ? 'run-insert'
                : (ev.ctrlKey || ev.metaKey) && ev.key.toLowerCase() === 's' ? 'save' : undefined;
        if (!command) return;
        ev.preventDefault();
        ev.stopPropagation();
        this.host.command(this, command);
      });
      this.staticSource.hidden = true;
      this.editorHost.append(area);
      this.interim = area;
      area.setSelectionRange(0, 0);
    }
    if (this.caretWanted !== undefined) this.interim.setSelectionRange(this.caretWanted, this.caretWanted);
    this.interim.focus({ preventScroll: true });
  }

  private get lineNumbers(): boolean {
    return this.lineNumbersOverride ?? this.editorOptions.lineNumbers;
  }

  private get wrap(): boolean {
    return this.model.cellType === 'markdown' || this.editorOptions.wordWrap;
  }

  get showsLineNumbers(): boolean {
    return this.lineNumbers;
  }

  setEditorOptions(options: EditorOptions): void {
    this.editorOptions = options;
    this.lineNumbersOverride = undefined;
    this.applyEditorOptions();
  }

  toggleLineNumbers(): void {
    this.lineNumbersOverride = !this.lineNumbers;
    this.applyEditorOptions();
  }

  private applyEditorOptions(): void {
    this.element.dataset.lineNumbers = String(this.lineNumbers);
    this.element.dataset.wordWrap = String(this.wrap);
    this.editor?.updateOptions({ lineNumbers: this.lineNumbers ? 'on' : 'off', wordWrap: this.wrap ? 'on' : 'off' });
  }

  focusEditor(): void {
    if (this.model.cellType === 'markdown') {
      this.editingMarkdown = true;
      this.refresh();
    }
    const editor = this.ensureEditor();
    if (editor) {
      if (this.caretWanted !== undefined) editor.setPosition(editor.getModel()!.getPositionAt(this.caretWanted));
      return editor.focus();
    }
    this.focusWanted = true;
    this.editInterim();
    void loadMonaco().then(() => this.ensureEditor());
  }

  /** Leaves edit mode; a markdown cell shows its rendering again. */
  leaveEdit(): void {
    this.focusWanted = false;
    if (this.interim && document.activeElement === this.interim) this.interim.blur();
    if (this.model.cellType === 'markdown' && this.editingMarkdown) {
      this.editingMarkdown = false;
      this.refresh();
    }
  }

  /**
   * The source as static code. Its line count (with the outputs' estimate) sizes the cell while the browser
   * skips styling, laying out and painting it off screen (styles.css: content-visibility), so the page's height
   * and scroll positions hold.
   */
  private renderStatic(source: string): void {
    if (this.model.cellType === 'code') renderStaticCode(this.staticSource, source);
    else this.staticSource.textContent = source || ' ';
    this.element.style.setProperty('--lines', String(source.split('\n').length));
  }

  setSource(source: string): void {
    this.model.source = source;
    if (this.editor) this.editor.setValue(source);
    else {
      if (this.interim) this.interim.value = source;
      this.renderStatic(source);
    }
    this.refresh();
  }

  cursorOffset(): number {
    const editor = this.editor;
    const pos = editor?.getPosition();
    if (this.interim) return this.interim.selectionStart;
    return editor && pos ? editor.getModel()!.getOffsetAt(pos) : this.model.source.length;
  }

  setActive(active: boolean, commandMode: boolean): void {
    this.element.classList.toggle('active', active);
    this.element.classList.toggle('command-mode', active && commandMode);
  }

  setRunState(state: CellRunState): void {
    this.state = state;
    if (state === 'running') this.startedAt = performance.now();
    this.element.dataset.runState = state;
    this.element.setAttribute('aria-busy', String(state !== 'idle'));
    this.tick();
    this.refresh();
  }

  /** Called by the notebook's shared timer while the cell runs. */
  tick(): void {
    if (this.state === 'running') this.elapsed.textContent = `${((performance.now() - this.startedAt) / 1000).toFixed(1)} s`;
    else if (this.state === 'queued') this.elapsed.textContent = 'queued';
    else if (this.startedAt) {
      this.elapsed.textContent = `${((performance.now() - this.startedAt) / 1000).toFixed(1)} s`;
      this.startedAt = 0;
    } else this.elapsed.textContent = ''; // left the queue unrun (aborted): it says nothing, as its count does
  }

  /** Changes between code and markdown, keeping the text. */
  setType(cellType: CellModel['cellType']): void {
    this.model.cellType = cellType;
    if (cellType !== 'code') {
      this.model.outputs.length = 0;
      this.outputs.reset(this.model.outputs);
      this.model.executionCount = null;
    }
    const model = this.editor?.getModel();
    if (model) monacoIfLoaded()?.monaco.editor.setModelLanguage(model, cellType === 'markdown' ? 'markdown' : 'typescript');
    this.editingMarkdown = false;
    this.applyEditorOptions();
    this.refresh();
  }

  setExecutionCount(count: number | null): void {
    this.model.executionCount = count;
    this.refresh();
  }

  refresh(): void {
    const m = this.model;
    this.element.className = this.element.className.replace(/\bcell-(code|markdown|raw)\b/, `cell-${m.cellType}`);
    const count = this.state === 'idle' ? (m.executionCount ?? ' ') : '*';
    this.prompt.textContent = m.cellType === 'code' ? `[${count}]:` : '';
    const showRendered = m.cellType === 'markdown' && !this.editingMarkdown;
    this.rendered.hidden = !showRendered;
    this.editorHost.hidden = showRendered;
    if (showRendered) this.renderMarkdownCell();
    this.element.setAttribute('aria-label', `${m.cellType} cell${m.executionCount ? ` ${m.executionCount}` : ''}`);
  }

  private renderMarkdownCell(): void {
    const source = this.model.source;
    if (!source.trim()) {
      this.rendered.replaceChildren(h('p', { class: 'placeholder', text: 'Empty markdown cell — press Enter to edit' }));
      return;
    }
    const renderers = renderersIfLoaded();
    if (renderers) {
      this.rendered.replaceChildren(renderers.renderMarkdown(source));
      return;
    }
    // Before marked arrives: the source as text, then the rendering (if the cell still shows this source).
    this.rendered.replaceChildren(h('p', { class: 'markdown-pending', text: source }));
    void loadRenderers().then(() => {
      if (this.model.source === source && !this.rendered.hidden) this.renderMarkdownCell();
    });
  }

  dispose(): void {
    const model = this.editor?.getModel();
    this.editor?.dispose();
    model?.dispose();
    this.editor = undefined;
    this.focusWanted = false;
  }
}
