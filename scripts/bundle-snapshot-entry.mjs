// Bundles the compiler snapshot's builder script (kernel/src/server/kernel/compiler-snapshot-entry.ts) into one
// CommonJS file beside the built kernel: `node --build-snapshot` runs a single script that may require only
// Node's built-ins. Run by `npm run build` after tsc.
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
await build({
  entryPoints: [path.join(root, 'kernel', 'src', 'server', 'kernel', 'compiler-snapshot-entry.ts')],
  outfile: path.join(root, 'dist', 'kernel', 'src', 'server', 'kernel', 'compiler-snapshot-entry.cjs'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  logLevel: 'warning',
});
