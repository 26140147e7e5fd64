/** Tiny DOM builder: keeps components readable without a framework. */
type Attrs = Record<string, string | number | boolean | undefined | null>;
type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'class') el.className = String(value);
    else if (name === 'text') el.textContent = String(value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, ...children);
  return el;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

/** A real <button> (keyboard reachable) with an accessible label. */
export function button(label: string, onClick: (ev: MouseEvent) => void, attrs: Attrs = {}): HTMLButtonElement {
  const el = h('button', { type: 'button', 'aria-label': label, title: label, ...attrs });
  if (el.childNodes.length === 0 && !attrs.text) el.textContent = label;
  el.addEventListener('click', onClick);
  return el;
}

export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number): ((...args: A) => void) & { flush(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: A | undefined;
  const run = (): void => {
    timer = undefined;
    const args = pending;
    pending = undefined;
    if (args) fn(...args);
  };
  const debounced = (...args: A): void => {
    pending = args;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(run, ms);
  };
  debounced.flush = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    run();
  };
  return debounced;
}

/** FNV-1a over UTF-16 code units; enough to notice that a file changed on disk (not a security hash). */
/** `bytes` random bytes as hex, from getRandomValues (randomUUID exists only on https or localhost pages). */
export function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, '0')).join('');
}

export function contentHash(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
  }
  return `${(h1 >>> 0).toString(16).padStart(8, '0')}${(h2 >>> 0).toString(16).padStart(8, '0')}:${text.length}`;
}

/** Runs `fn` when the page is idle (within `timeout` ms at the latest), with the idle deadline where the browser has one. */
export function whenIdle(fn: (deadline?: IdleDeadline) => void, timeout = 1000): void {
  if ('requestIdleCallback' in window) window.requestIdleCallback((deadline) => fn(deadline), { timeout });
  else setTimeout(() => fn(), 30);
}

/**
 * Runs `fn` once the next frame has painted (a task queued from that frame's animation callback), or after
 * 200 ms in a hidden page, which paints no frames.
 */
export function afterPaint(fn: () => void): void {
  let done = false;
  const run = (): void => {
    if (done) return;
    done = true;
    fn();
  };
  requestAnimationFrame(() => setTimeout(run, 0));
  setTimeout(run, 200);
}
