/**
 * Notebook commands with JupyterLab's keys: one registry feeds the command-mode key handler and the
 * command palette (Ctrl+Shift+C), so the palette always shows the key that really runs a command.
 */
import { h } from './dom.js';

export interface Command {
  id: string;
  label: string;
  /** Display and match form: 'Shift+Enter', 'A', 'D D' (a chord: the same key twice), 'Ctrl+Shift+C'. */
  keys?: string[];
  /** 'command' keys act only in command mode (Jupyter's default); 'any' also while editing. */
  mode?: 'command' | 'any';
  run(): void;
}

/** The key of an event in the registry's notation: modifiers first, letters upper-case. */
export function keyName(ev: KeyboardEvent): string {
  const mods = [ev.ctrlKey || ev.metaKey ? 'Ctrl' : '', ev.altKey ? 'Alt' : '', ev.shiftKey ? 'Shift' : ''].filter(Boolean);
  let key = ev.key;
  if (key.length === 1) key = key.toUpperCase();
  if (key === ' ') key = 'Space';
  return [...mods, key].join('+');
}

/**
 * Whether a key event may act as a command-mode shortcut: not while typing in an editor, a text field, a
 * select or a dialog, and not Enter/Space on a focused button (those press the button).
 */
export function commandTarget(ev: KeyboardEvent): boolean {
  const target = ev.target instanceof Element ? ev.target : null;
  if (!target) return true;
  if (target.closest('.monaco-editor, input, textarea, select, [contenteditable=""], [contenteditable="true"], dialog, .palette')) return false;
  if (target.closest('button, a[href], summary') && (ev.key === ' ' || (ev.key === 'Enter' && !ev.shiftKey && !ev.ctrlKey && !ev.metaKey && !ev.altKey))) return false;
  return true;
}

export class CommandRegistry {
  private readonly commands: Command[] = [];
  private lastKey = '';

  add(...commands: Command[]): void {
    for (const c of commands) {
      if (this.commands.some((x) => x.id === c.id)) throw new Error(`command ${c.id} is registered twice`);
      this.commands.push(c);
    }
  }

  get all(): readonly Command[] {
    return this.commands;
  }

  run(id: string): void {
    const cmd = this.commands.find((c) => c.id === id);
    if (!cmd) throw new Error(`unknown command ${id}`);
    cmd.run();
  }

  /** Runs the command bound to this key in `mode`; returns whether one matched (or a chord started). */
  handleKey(ev: KeyboardEvent, mode: 'command' | 'edit'): boolean {
    const name = keyName(ev);
    if (['Shift', 'Control', 'Alt', 'Meta'].includes(ev.key)) return false;
    const chord = `${this.lastKey} ${name}`;
    const eligible = this.commands.filter((c) => c.keys && (mode === 'command' || c.mode === 'any'));
    const chordHit = eligible.find((c) => c.keys!.includes(chord));
    if (chordHit) {
      this.lastKey = '';
      chordHit.run();
      return true;
    }
    const hit = eligible.find((c) => c.keys!.includes(name));
    const startsChord = eligible.some((c) => c.keys!.includes(`${name} ${name}`));
    this.lastKey = startsChord ? name : '';
    if (hit) hit.run();
    return !!hit || startsChord;
  }
}

/** The command palette: a filterable list of every command with its key; Enter runs the selected one. */
export function openPalette(registry: CommandRegistry, onClose: () => void): HTMLElement {
  document.querySelector('.palette')?.remove();
  const input = h('input', { type: 'search', class: 'palette-input', placeholder: 'Search commands', 'aria-label': 'search commands', role: 'combobox', 'aria-expanded': 'true', 'aria-controls': 'palette-list' });
  const list = h('ul', { class: 'palette-list', id: 'palette-list', role: 'listbox', 'aria-label': 'commands' });
  const panel = h('div', { class: 'palette', role: 'dialog', 'aria-label': 'Command palette', 'aria-modal': 'true' }, input, list);
  let selected = 0;
  let shown: Command[] = [];
  const close = (): void => {
    panel.remove();
    onClose();
  };
  const runSelected = (cmd: Command | undefined): void => {
    if (!cmd) return;
    close();
    cmd.run();
  };
  const render = (): void => {
    const words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    shown = registry.all.filter((c) => words.every((w) => `${c.label} ${(c.keys ?? []).join(' ')}`.toLowerCase().includes(w)));
    selected = Math.min(selected, Math.max(0, shown.length - 1));
    list.replaceChildren(...shown.map((c, i) => {
      const item = h('li', { class: `palette-item${i === selected ? ' selected' : ''}`, role: 'option', 'aria-selected': String(i === selected), 'data-command': c.id },
        h('span', { class: 'palette-label', text: c.label }),
        c.keys ? h('kbd', { class: 'palette-keys', text: c.keys.join(' or ') }) : null);
      item.addEventListener('mousedown', (ev) => ev.preventDefault());
      item.addEventListener('click', () => runSelected(c));
      return item;
    }));
    list.children[selected]?.scrollIntoView({ block: 'nearest' });
  };
  input.addEventListener('input', () => {
    selected = 0;
    render();
  });
  input.addEventListener('keydown', (ev) => {
    if (ev.key === 'ArrowDown') selected = Math.min(shown.length - 1, selected + 1);
    else if (ev.key === 'ArrowUp') selected = Math.max(0, selected - 1);
    else if (ev.key === 'Enter' || ev.key === 'Escape') {
      // Cancel the key's default: otherwise the Enter would also press the first button of a dialog the
      // command opens (the restart confirmation).
      ev.preventDefault();
      ev.stopPropagation();
      return ev.key === 'Enter' ? runSelected(shown[selected]) : close();
    }
    else return;
    ev.preventDefault();
    render();
  });
  input.addEventListener('blur', () => setTimeout(() => { if (panel.isConnected && !panel.contains(document.activeElement)) close(); }, 0));
  render();
  document.body.appendChild(panel);
  input.focus();
  return panel;
}
