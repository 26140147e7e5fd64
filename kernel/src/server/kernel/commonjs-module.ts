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

/**
 * Runs `source` as `module` (registered by the caller beforehand, so an import cycle meets the partial exports, as
 * Node's loader gives) and marks it loaded; a throw calls `unregister` first, so the next require tries again.
 */
export function loadCommonJsModule(module: CommonJsModule, source: string, unregister: () => void): unknown {
  try {
    module._compile(source, module.filename);
  } catch (error) {
    unregister();
    throw error;
  }
  module.loaded = true;
  return module.exports;
}
