/** Loads the kernel host module: the Session host of this build unless another module is named. */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SourceTransform } from '../kernel/index.js';
import { noopKernelHost, type KernelHostFactory } from '../kernel/index.js';

export interface HostModule {
  factory: KernelHostFactory;
  transform?: SourceTransform;
}

/** `../display/session-host.js` beside this file: in the build, the module the library's cells import too. */
export const DEFAULT_HOST_MODULE = new URL('../display/session-host.js', import.meta.url).href;

/** The library's entry in this build (`nighthawk-ts`): the module graph the default host imports, and cells too. */
const LIBRARY_ENTRY = new URL('../../index.js', import.meta.url).href;

/**
 * Loads what the default host module imports, without loading the host itself: the library's module graph
 * (~0.3 s, in steps of at most ~60 ms, so the event loop stays free for requests meanwhile). Another host
 * module gets nothing ahead: its own imports are its business.
 */
export async function preloadHostDependencies(specifier: string | undefined): Promise<void> {
  if (specifier === undefined) await import(LIBRARY_ENTRY);
}

/** `'none'` runs cells with no host (no Session); a path or bare specifier names another module. */
export async function loadHostModule(specifier: string | undefined): Promise<HostModule> {
  if (specifier === 'none') return { factory: noopKernelHost };
  const url =
    specifier === undefined
      ? DEFAULT_HOST_MODULE
      : specifier.startsWith('.') || path.isAbsolute(specifier)
        ? pathToFileURL(path.resolve(specifier)).href
        : specifier;
  const mod = (await import(url)) as { createKernelHost?: KernelHostFactory; transformCell?: SourceTransform };
  return { factory: mod.createKernelHost ?? noopKernelHost, transform: mod.transformCell };
}
