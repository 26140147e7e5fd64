/** Options shared by the esbuild and Vite plugins. */
import path from 'node:path';

export interface NighthawkPluginOptions {
  /** Module the emitted code imports `runBlock` from. Default `nighthawk-ts`. */
  readonly runtimeModule?: string;
  /** Module the emitted code imports `z` from. Default `zod`. */
  readonly zodModule?: string;
  /** Files the plugin transforms. Default: `.ts`, `.tsx`, `.mts`, `.cts` (declaration files never). */
  readonly include?: RegExp;
  /** Step ids and diagnostics name files relative to this directory. Default: the build's root or cwd. */
  readonly root?: string;
}

export const DEFAULT_INCLUDE = /\.[cm]?tsx?$/;

export function shouldTransform(file: string, include: RegExp | undefined): boolean {
  return (include ?? DEFAULT_INCLUDE).test(file) && !/\.d\.[cm]?ts$/.test(file);
}

/** A stable, platform-independent file name for step ids. */
export function stepFileName(root: string, file: string): string {
  const relative = path.relative(root, file);
  return (relative.startsWith('..') || path.isAbsolute(relative) ? file : relative).split(path.sep).join('/');
}
