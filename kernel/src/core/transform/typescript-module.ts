/**
 * Loads the TypeScript compiler on first use, so importing the core (which re-exports the
 * transform) does not pay for parsing the compiler's ~9 MB module.
 */
import { createRequire } from 'node:module';
import type TS from 'typescript';

// Made at load, not on first use (which may come while model code runs, where `module.createRequire` is refused).
const requireHere = createRequire(import.meta.url);
let loaded: typeof TS | undefined;

export function typescript(): typeof TS {
  loaded ??= requireHere('typescript') as typeof TS;
  return loaded;
}
