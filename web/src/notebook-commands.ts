/** Every notebook command with JupyterLab's default key, for the key handler and the command palette. */
import type { CellView } from './cell-view.js';
import type { Command } from './commands.js';
import type { NotebookView } from './notebook-view.js';

export interface CommandContext {
  view(): NotebookView | undefined;
  run(cells: CellView[], advance?: 'advance' | 'insert'): void;
  save(): void;
  interrupt(): void;
  /** Restarts after a confirm dialog; `then` runs once the kernel is back. */
  restart(title: string, then?: () => void): void;
  palette(): void;
  newNotebook(): void;
  renameNotebook(): void;
  toggleTheme(): void;
  download(): void;
}

export function notebookCommands(ctx: CommandContext): Command[] {
  const on = (fn: (view: NotebookView) => void) => (): void => {
    const view = ctx.view();
    if (view) fn(view);
  };
  const active = (fn: (view: NotebookView, cell: CellView) => void) => on((view) => {
    const cell = view.activeCell;
    if (cell) fn(view, cell);
  });
  return [
    { id: 'run-advance', label: 'Run cell and select below', keys: ['Shift+Enter'], run: active((_v, c) => ctx.run([c], 'advance')) },
    { id: 'run', label: 'Run cell', keys: ['Ctrl+Enter'], run: active((_v, c) => ctx.run([c])) },
    { id: 'run-insert', label: 'Run cell and insert below', keys: ['Alt+Enter'], run: active((_v, c) => ctx.run([c], 'insert')) },
    { id: 'run-all', label: 'Run all cells', run: on((v) => ctx.run(v.cells)) },
    { id: 'run-above', label: 'Run cells above', run: on((v) => ctx.run(v.cells.slice(0, v.active))) },
    { id: 'run-below', label: 'Run this cell and below', run: on((v) => ctx.run(v.cells.slice(v.active))) },
    { id: 'edit', label: 'Edit cell', keys: ['Enter'], run: on((v) => v.select(v.active, 'edit')) },
    { id: 'select-above', label: 'Select cell above', keys: ['K', 'ArrowUp'], run: on((v) => v.select(v.active - 1, 'command')) },
    { id: 'select-below', label: 'Select cell below', keys: ['J', 'ArrowDown'], run: on((v) => v.select(v.active + 1, 'command')) },
    { id: 'insert-above', label: 'Insert cell above', keys: ['A'], run: on((v) => v.insert(v.active, 'code')) },
    { id: 'insert-below', label: 'Insert cell below', keys: ['B'], run: on((v) => v.insert(v.active + 1, 'code')) },
    { id: 'delete', label: 'Delete cell', keys: ['D D'], run: on((v) => v.remove()) },
    { id: 'undo-delete', label: 'Undo cell delete', keys: ['Z'], run: on((v) => v.undoDelete()) },
    { id: 'copy', label: 'Copy cell', keys: ['C'], run: on((v) => v.copy()) },
    { id: 'cut', label: 'Cut cell', keys: ['X'], run: on((v) => v.cut()) },
    { id: 'paste-below', label: 'Paste cell below', keys: ['V'], run: on((v) => v.paste('below')) },
    { id: 'paste-above', label: 'Paste cell above', keys: ['Shift+V'], run: on((v) => v.paste('above')) },
    { id: 'move-up', label: 'Move cell up', run: on((v) => v.move(-1)) },
    { id: 'move-down', label: 'Move cell down', run: on((v) => v.move(1)) },
    { id: 'merge-below', label: 'Merge with cell below', keys: ['Shift+M'], run: on((v) => v.mergeBelow()) },
    { id: 'split', label: 'Split cell at cursor', keys: ['Ctrl+Shift+-'], run: on((v) => v.split()) },
    { id: 'to-markdown', label: 'Change cell to markdown', keys: ['M'], run: on((v) => v.setType('markdown')) },
    { id: 'to-code', label: 'Change cell to code', keys: ['Y'], run: on((v) => v.setType('code')) },
    { id: 'clear-output', label: 'Clear cell output', run: active((v, c) => v.clearOutputs([c])) },
    { id: 'clear-all-outputs', label: 'Clear outputs of all cells', run: on((v) => v.clearOutputs(v.cells)) },
    { id: 'line-numbers', label: 'Toggle line numbers (this cell)', keys: ['L'], run: active((_v, c) => c.toggleLineNumbers()) },
    { id: 'all-line-numbers', label: 'Toggle line numbers (all cells)', keys: ['Shift+L'], run: on((v) => v.setOptions({ lineNumbers: !v.options.lineNumbers })) },
    { id: 'word-wrap', label: 'Toggle long-line wrapping', run: on((v) => v.setOptions({ wordWrap: !v.options.wordWrap })) },
    { id: 'interrupt', label: 'Interrupt kernel', keys: ['I I'], run: () => ctx.interrupt() },
    { id: 'restart', label: 'Restart kernel', keys: ['0 0'], run: () => ctx.restart('Restart kernel?') },
    { id: 'restart-run-all', label: 'Restart kernel and run all cells', run: () => ctx.restart('Restart kernel and run all cells?', on((v) => ctx.run(v.cells))) },
    { id: 'restart-clear', label: 'Restart kernel and clear all outputs', run: () => ctx.restart('Restart kernel and clear all outputs?', on((v) => v.clearOutputs(v.cells))) },
    { id: 'save', label: 'Save notebook', keys: ['Ctrl+S'], mode: 'any', run: () => ctx.save() },
    { id: 'download', label: 'Download notebook (.ipynb)', run: () => ctx.download() },
    { id: 'new-notebook', label: 'New notebook', run: () => ctx.newNotebook() },
    { id: 'rename-notebook', label: 'Rename notebook', run: () => ctx.renameNotebook() },
    { id: 'toggle-theme', label: 'Toggle dark theme', run: () => ctx.toggleTheme() },
    { id: 'palette', label: 'Command palette', keys: ['Ctrl+Shift+C'], mode: 'any', run: () => ctx.palette() },
  ];
}
