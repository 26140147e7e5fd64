/** esbuild plugin: rewrites Natural blocks in TypeScript modules before esbuild strips types. */
import { readFile } from 'node:fs/promises';
import type { Loader, PartialMessage, Plugin } from 'esbuild';
import { mayContainNaturalBlocks, transformNaturalBlocks, type TransformDiagnostic } from '../core/transform/index.js';
import { shouldTransform, stepFileName, type NighthawkPluginOptions } from './plugin-options.js';

function toMessage(diagnostic: TransformDiagnostic, file: string, source: string): PartialMessage {
  return {
    text: diagnostic.message,
    pluginName: 'nighthawk',
    location: {
      file,
      line: diagnostic.line,
      column: diagnostic.column - 1,
      lineText: source.split('\n')[diagnostic.line - 1] ?? '',
    },
  };
}

export function nighthawkEsbuildPlugin(options: NighthawkPluginOptions = {}): Plugin {
  return {
    name: 'nighthawk-natural-blocks',
    setup(build) {
      const root = options.root ?? build.initialOptions.absWorkingDir ?? process.cwd();
      build.onLoad({ filter: options.include ?? /\.[cm]?tsx?$/ }, async (args) => {
        if (args.namespace !== 'file' || !shouldTransform(args.path, options.include)) return undefined;
        const source = await readFile(args.path, 'utf8');
        if (!mayContainNaturalBlocks(source)) return undefined;
        const fileName = stepFileName(root, args.path);
        const result = transformNaturalBlocks(source, {
          fileName,
          ...(options.runtimeModule === undefined ? {} : { runtimeModule: options.runtimeModule }),
          ...(options.zodModule === undefined ? {} : { zodModule: options.zodModule }),
        });
        const loader: Loader = /x$/.test(args.path) ? 'tsx' : 'ts';
        return {
          contents: result.code,
          loader,
          errors: result.diagnostics.filter((d) => d.severity === 'error').map((d) => toMessage(d, args.path, source)),
          warnings: result.diagnostics.filter((d) => d.severity === 'warning').map((d) => toMessage(d, args.path, source)),
        };
      });
    },
  };
}
