/**
 * Step 1 of the labextension build (scripts/build.ts): src/index.ts and the web notebook's renderers as one
 * ES module of the project's own code. Lumino and JupyterLab packages must stay imports: JupyterLab's page
 * provides them through its module-federation share scope, and a second copy of @lumino/widgets would not
 * be the page's Widget.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  logLevel: 'warn',
  build: {
    outDir: path.join(here, 'lib'),
    emptyOutDir: true,
    // webpack (build-labextension) minifies the final bundle; this intermediate stays readable.
    minify: false,
    lib: { entry: path.join(here, 'src', 'index.ts'), formats: ['es'], fileName: () => 'index.js' },
    // Packages stay imports: webpack resolves them from node_modules, shares @lumino/* with the page and
    // bundles the rest with their licences listed (static/third-party-licenses.json).
    rollupOptions: { external: (id) => !id.startsWith('.') && !path.isAbsolute(id) && !id.startsWith('\0') },
  },
});
