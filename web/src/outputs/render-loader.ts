/**
 * Loads the renderers chunk (renderers.ts) once: when an output, a markdown cell or a run needs it, else in
 * idle time after the notebook opened and its kernel settled (its ~40 ms of script stays off the path to a
 * usable notebook). Anything drawn before it arrives shows plain text and is redrawn.
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
