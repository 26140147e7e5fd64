/**
 * The TypeScript compiler, required on first use. Generated code is rare next to everything else a kernel or
 * a Session does, and a static `import ts from 'typescript'` made every importer of the library load, parse
 * and lex the 9 MB compiler (about half a second and tens of megabytes in each kernel process).
 */
import { createRequire } from 'node:module';
import type TS from 'typescript';

// The require is made now, at load: the first use may come while model code runs (a definition id computed for a
// proposal it made), and there the run-time tier refuses `module.createRequire` as it should.
const requireHere = createRequire(import.meta.url);
let loaded: typeof TS | undefined;
const load = (): typeof TS => (loaded ??= requireHere('typescript') as typeof TS);

export const ts: typeof TS = new Proxy({} as typeof TS, {
  get: (_target, name) => (load() as unknown as Record<string | symbol, unknown>)[name],
  has: (_target, name) => name in load(),
});
