import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));
// The kernel server `npm run dev` proxies to; `npm start` serves web/dist itself on the same port.
const kernelServer = process.env.NIGHTHAWK_SERVER_URL ?? 'http://127.0.0.1:8888';

export default defineConfig({
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
