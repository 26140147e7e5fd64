/** Vite plugin: rewrites Natural blocks in TypeScript modules before Vite strips types. */
import type { Plugin } from 'vite';
import { formatTransformDiagnostic, mayContainNaturalBlocks, transformNaturalBlocks } from '../core/transform/index.js';
import { shouldTransform, stepFileName, type NighthawkPluginOptions } from './plugin-options.js';

export function nighthawkVitePlugin(options: NighthawkPluginOptions = {}): Plugin {
  let root = options.root ?? process.cwd();
  return {
    name: 'nighthawk-natural-blocks',
    enforce: 'pre',
    configResolved(config) {
      if (options.root === undefined) root = config.root;
    },
    transform(code, id) {
      const file = id.split('?')[0]!;
      if (file.startsWith('\0') || !shouldTransform(file, options.include) || !mayContainNaturalBlocks(code)) return null;
      const result = transformNaturalBlocks(code, {
        fileName: stepFileName(root, file),
        ...(options.runtimeModule === undefined ? {} : { runtimeModule: options.runtimeModule }),
        ...(options.zodModule === undefined ? {} : { zodModule: options.zodModule }),
      });
      const errors = result.diagnostics.filter((d) => d.severity === 'error');
      for (const warning of result.diagnostics.filter((d) => d.severity === 'warning')) this.warn(formatTransformDiagnostic(warning));
      if (errors.length) this.error(errors.map(formatTransformDiagnostic).join('\n'));
      // Every line keeps its number, so the previous source map stays line-accurate.
      return { code: result.code, map: null };
    },
  };
}
