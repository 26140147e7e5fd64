/** Page furniture: modal dialogs (conflict, rename), toasts, and the light/dark theme toggle. */
import { button, h } from './dom.js';
import { monacoIfLoaded } from './monaco-loader.js';

const THEME_KEY = 'nighthawk.theme';

export function applyTheme(choice?: 'light' | 'dark'): 'light' | 'dark' {
  const stored = localStorage.getItem(THEME_KEY);
  const preferred = window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  const theme = choice ?? (stored === 'light' || stored === 'dark' ? stored : preferred);
  if (choice) localStorage.setItem(THEME_KEY, choice);
  document.documentElement.dataset.theme = theme;
  // A Monaco that loads later reads the theme from the document (monaco-setup.ts).
  monacoIfLoaded()?.setMonacoTheme(theme === 'dark');
  return theme;
}

export function toggleTheme(): void {
  const next = document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark';
  applyTheme(next);
  document.querySelector('.theme-toggle')?.setAttribute('aria-pressed', String(next === 'dark'));
}

export function themeToggle(): HTMLButtonElement {
  const el = button('Toggle dark theme', toggleTheme, { class: 'icon-btn theme-toggle', text: '◐' });
  el.setAttribute('aria-pressed', String(applyTheme() === 'dark'));
  return el;
}

/** Shows a modal <dialog> with a message and one button per choice; resolves with the chosen value. */
export function choose<T extends string>(title: string, message: string, choices: ReadonlyArray<{ value: T; label: string; primary?: boolean }>): Promise<T> {
  return new Promise((resolve) => {
    const dialog = h('dialog', { class: 'dialog', 'aria-labelledby': 'dialog-title' });
    const done = (value: T): void => {
      dialog.close();
      dialog.remove();
      resolve(value);
    };
    dialog.append(
      h('h2', { id: 'dialog-title', text: title }),
      h('p', { text: message }),
      h('div', { class: 'dialog-buttons' }, ...choices.map((c) => button(c.label, () => done(c.value), { class: c.primary ? 'btn btn-primary' : 'btn', 'data-choice': c.value }))),
    );
    dialog.addEventListener('cancel', (ev) => ev.preventDefault());
    document.body.appendChild(dialog);
    dialog.showModal();
  });
}

/** Asks for a line of text in a modal dialog; resolves with undefined when cancelled. */
export function askText(title: string, label: string, initial: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const input = h('input', { type: 'text', id: 'dialog-input', value: initial, class: 'dialog-input' });
    const dialog = h('dialog', { class: 'dialog', 'aria-labelledby': 'dialog-title' });
    const form = h('form', { method: 'dialog' });
    const done = (value: string | undefined): void => {
      dialog.close();
      dialog.remove();
      resolve(value);
    };
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      done(input.value.trim() || undefined);
    });
    dialog.addEventListener('cancel', () => done(undefined));
    form.append(
      h('h2', { id: 'dialog-title', text: title }),
      h('label', { for: 'dialog-input', text: label }), input,
      h('div', { class: 'dialog-buttons' }, button('Cancel', () => done(undefined), { class: 'btn' }), h('button', { type: 'submit', class: 'btn btn-primary', text: 'OK' })),
    );
    dialog.append(form);
    document.body.appendChild(dialog);
    dialog.showModal();
    input.select();
  });
}

let toastTimer: ReturnType<typeof setTimeout> | undefined;
/** Held, not looked up by id: an element of the same id in an output must not receive the app's notices. */
let toastElement: HTMLElement | undefined;

export function toast(message: string): void {
  if (!toastElement?.isConnected) {
    toastElement = h('div', { id: 'toast', class: 'toast', role: 'status', 'aria-live': 'polite' });
    document.body.appendChild(toastElement);
  }
  const el = toastElement;
  el.textContent = message;
  el.classList.add('visible');
  if (toastTimer) clearTimeout(toastTimer);
  toastTimer = setTimeout(() => el.classList.remove('visible'), 4000);
}
