/**
 * Loads the renderers chunk (renderers.ts) once. The page asks for it at start, so it is fetched and parsed
 * while the notebook and its kernel load; anything drawn before it arrives shows plain text and is redrawn.
 */
export type Renderers = typeof import('./renderers.js');

let loaded: Renderers | undefined;
let loading: Promise<Renderers> | undefined;

export function loadRenderers(): Promise<Renderers> {
  loading ??= import('./renderers.js').then((r) => (loaded = r));
  return loading;
}

export function renderersIfLoaded(): Renderers | undefined {
  return loaded;
}
