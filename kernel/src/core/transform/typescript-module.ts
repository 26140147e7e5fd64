/**
 * Loads the TypeScript compiler on first use, so importing the core (which re-exports the
 * transform) does not pay for parsing the compiler's ~9 MB module.
 */
import { createRequire } from 'node:module';
import type TS from 'typescript';

let loaded: typeof TS | undefined;

export function typescript(): typeof TS {
  loaded ??= createRequire(import.meta.url)('typescript') as typeof TS;
  return loaded;
}
