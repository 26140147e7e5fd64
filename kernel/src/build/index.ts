export { nighthawkEsbuildPlugin } from './esbuild-plugin.js';
export type { NighthawkPluginOptions } from './plugin-options.js';
export { nighthawkVitePlugin } from './vite-plugin.js';
