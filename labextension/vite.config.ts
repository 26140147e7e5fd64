/** Builds labextension/lib/index.js: the renderer extension as one ES module (npm run build:labextension). */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  logLevel: 'warn',
  build: {
    outDir: path.join(here, 'lib'),
    emptyOutDir: true,
    minify: true,
    lib: { entry: path.join(here, 'src', 'index.ts'), formats: ['es'], fileName: () => 'index.js' },
  },
});
