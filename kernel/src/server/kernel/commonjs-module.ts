/**
 * A CommonJS module made from source the kernel produced (a mended converter, a transpiled local `.ts` file)
 * rather than read by Node's loader: Node's own Module, with the filename and lookup paths its loader would
 * give it, so its requires resolve beside the file.
 */
import Module from 'node:module';
import path from 'node:path';

/** The members of Node's CommonJS Module the kernel uses (not in @types/node's `Module`). */
export interface CommonJsModule {
  exports: unknown;
  filename: string;
  paths: string[];
  loaded: boolean;
  require(id: string): unknown;
  _compile(source: string, filename: string): unknown;
}

interface CommonJsModuleClass {
  new (id: string, parent?: unknown): CommonJsModule;
  _cache: Record<string, CommonJsModule | undefined>;
  _nodeModulePaths(dir: string): string[];
}

export const commonJsLoader = Module as unknown as CommonJsModuleClass;

/** A new, unloaded module for `file`; run its source with `_compile`, then set `loaded`. */
export function newCommonJsModule(file: string): CommonJsModule {
  const module = new commonJsLoader(file);
  module.filename = file;
  module.paths = commonJsLoader._nodeModulePaths(path.dirname(file));
  return module;
}
