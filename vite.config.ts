import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));
// The kernel server `npm run dev` proxies to; `npm start` serves web/dist itself on the same port.
const kernelServer = process.env.NIGHTHAWK_SERVER_URL ?? 'http://127.0.0.1:8888';

/**
 * Starts the services chunk (web/src/services.ts, imported dynamically) downloading with the entry, so it is
 * parsed off the main thread while the entry evaluates and the notebook is drawn.
 */
const preloadServices: Plugin = {
  name: 'nighthawk-preload-services',
  transformIndexHtml: {
    order: 'post',
    handler(_html, ctx) {
      const chunks = Object.values(ctx.bundle ?? {}).flatMap((c) => (c.type === 'chunk' ? [c] : []));
      const services = chunks.find((c) => c.isDynamicEntry && c.facadeModuleId?.endsWith('/web/src/services.ts'));
      if (!services) return [];
      // With its own imports (the bundler's runtime helpers), except the entry, which is loading anyway.
      const entries = new Set(chunks.filter((c) => c.isEntry).map((c) => c.fileName));
      return [services.fileName, ...services.imports.filter((f) => !entries.has(f))]
        .map((file) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `./${file}` }, injectTo: 'head' as const }));
    },
  },
};

export default defineConfig({
  plugins: [preloadServices],
  root: 'web',
  base: './',
  build: {
    outDir: `${here}web/dist`,
    emptyOutDir: true,
    chunkSizeWarningLimit: 4000,
    target: 'es2022',
  },
  worker: { format: 'es' },
  server: {
    proxy: {
      '/api': { target: kernelServer, ws: true, changeOrigin: true },
    },
  },
});
