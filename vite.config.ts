import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { build, defineConfig, type Plugin } from 'vite';

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

/**
 * The page's first requests (web/src/early-start.ts) as a classic script inlined at the top of index.html's head:
 * it runs as the parser reaches it, so the notebook, the session and the kernel's socket are on their way while
 * the page's scripts download and compile. The server's Content-Security-Policy allows no inline script but
 * those named by hash in csp.json, which this writes beside index.html (kernel/src/server/api/content-security.ts).
 */
const SCRIPT_HASHES_FILE = 'csp.json';
const EARLY_START_MARKER = /<!-- nighthawk:early-start[^>]*-->/;
function inlineEarlyStart(): Plugin {
  let code: string | undefined;
  const built = async (): Promise<string> => {
    if (code !== undefined) return code;
    const out = await build({
      configFile: false,
      logLevel: 'warn',
      root: here,
      build: { write: false, minify: true, target: 'es2022', lib: { entry: `${here}web/src/early-inline.ts`, formats: ['iife'], name: 'nighthawkEarly' } },
    });
    const chunk = (Array.isArray(out) ? out : [out]).flatMap((o) => ('output' in o ? o.output : [])).find((c) => c.type === 'chunk');
    if (!chunk || chunk.type !== 'chunk') throw new Error('web/src/early-inline.ts built to no script');
    // Inlined between <script> tags: nothing in it may end the element or open a comment.
    if (/<\/script|<!--/i.test(chunk.code)) throw new Error('the inlined early script contains </script or <!--');
    code = chunk.code.trim();
    return code;
  };
  return {
    name: 'nighthawk-inline-early-start',
    // `npm run dev`: built again after an edit to what it bundles.
    watchChange(id) {
      if (/[\\/](early-start|early-inline|load-marks)\.ts$|[\\/]shared[\\/]rest\.ts$/.test(id)) code = undefined;
    },
    transformIndexHtml: {
      order: 'post',
      // At the marker, after the charset and before the stylesheets: a classic script waits for a stylesheet above it.
      async handler(html) {
        const at = html.search(EARLY_START_MARKER);
        if (at < 0) throw new Error('web/index.html lacks the <!-- nighthawk:early-start --> marker');
        const script = `<script>${await built()}</script>`;
        return html.replace(EARLY_START_MARKER, () => script);
      },
    },
    async generateBundle() {
      const hash = `sha256-${createHash('sha256').update(await built()).digest('base64')}`;
      this.emitFile({ type: 'asset', fileName: SCRIPT_HASHES_FILE, source: `${JSON.stringify({ scriptHashes: [hash] })}\n` });
    },
  };
}

/**
 * What the services modules the page imports (web/src/services.ts) take from their package's index (`require('..')`):
 * only the server connection and one enum. Resolved to this instead, the index and the rest of the package it
 * loads stay out of the page. A module of that package this does not list still gets the real index.
 */
const SERVICES_INDEX = '\0nighthawk-services-index';
const SERVICES_INDEX_NAMES = ['ServerConnection', 'CommsOverSubshells'];
const SERVICES_INDEX_USERS = /[\\/]@jupyterlab[\\/]services[\\/]lib[\\/](kernel[\\/]default|session[\\/]default|contents[\\/]index)\.js$/;
const slimServicesIndex: Plugin = {
  name: 'nighthawk-slim-services-index',
  enforce: 'pre',
  resolveId(source, importer) {
    return source === '..' && importer !== undefined && SERVICES_INDEX_USERS.test(importer) ? SERVICES_INDEX : undefined;
  },
  load(id) {
    if (id !== SERVICES_INDEX) return undefined;
    return [
      "export { ServerConnection } from '@jupyterlab/services/lib/serverconnection';",
      "export { CommsOverSubshells } from '@jupyterlab/services/lib/kernel/comm';",
    ].join('\n');
  },
  // Another version of the package that takes more from its index fails the build here, not the page at run time.
  transform(code, id) {
    if (!SERVICES_INDEX_USERS.test(id)) return undefined;
    if (!/\bconst __1 = require\("\.\."\);/.test(code)) this.error(`${id} no longer reads its package index as \`__1\`: check slimServicesIndex`);
    const taken = [...new Set([...code.matchAll(/\b__1\.(\w+)/g)].map((m) => m[1]!))].filter((name) => !SERVICES_INDEX_NAMES.includes(name));
    if (taken.length > 0) this.error(`${id} takes ${taken.join(', ')} from its package index: add them to slimServicesIndex`);
    return undefined;
  },
};

export default defineConfig({
  plugins: [slimServicesIndex, inlineEarlyStart(), preloadServices],
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
