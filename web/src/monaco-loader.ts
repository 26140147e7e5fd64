/**
 * Monaco is about 4 MB of script: parsing it used to be most of a notebook's load time and much of its
 * heap (about 11 of 14 MB). The page renders cells as highlighted static code and imports Monaco (its own
 * chunk, with its CSS) only when an editor is wanted: on focus, or at the first sign of use. Everything that needs
 * the module (providers, diagnostics, the theme) registers here and runs when it arrives.
 */
export type MonacoSetup = typeof import('./monaco-setup.js');

let loaded: MonacoSetup | undefined;
let loading: Promise<MonacoSetup> | undefined;
const hooks: Array<(setup: MonacoSetup) => void> = [];

/** The loaded module, or undefined while Monaco has not arrived yet. */
export function monacoIfLoaded(): MonacoSetup | undefined {
  return loaded;
}

/** Starts loading Monaco (once) and resolves with it. */
export function loadMonaco(): Promise<MonacoSetup> {
  loading ??= import('./monaco-setup.js').then((setup) => {
    loaded = setup;
    for (const hook of hooks.splice(0)) hook(setup);
    document.body.dataset.monaco = 'loaded';
    return setup;
  });
  return loading;
}

/** Runs `hook` with Monaco now if it is loaded, else as soon as it loads (before any editor is created). */
export function whenMonaco(hook: (setup: MonacoSetup) => void): void {
  if (loaded) hook(loaded);
  else hooks.push(hook);
}

// Not focus: the app focuses the cell list itself on open.
const INTENT_EVENTS = ['pointermove', 'pointerdown', 'keydown', 'wheel', 'touchstart', 'scroll'] as const;

/**
 * Loads Monaco at the first sign that someone is using the page (the pointer moves, a key, a scroll, a
 * touch), which comes well before a first edit; a page only looked at never parses or holds it.
 */
export function loadMonacoOnIntent(): void {
  if (loading) return;
  const start = (): void => {
    for (const type of INTENT_EVENTS) document.removeEventListener(type, start, { capture: true });
    void loadMonaco();
  };
  for (const type of INTENT_EVENTS) document.addEventListener(type, start, { capture: true, passive: true });
}
