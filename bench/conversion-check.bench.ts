/**
 * A cell taken from the conversion store (a notebook run again, before the kernel builds the compiler's program)
 * waits for a check that everything the compiler observed on the file system still holds. The observations
 * here are the real ones of a kernel that converted a cell importing the library (module resolution of
 * nighthawk-ts, zod, openai and @types/node). Figure: one check with the directory notes (a directory unchanged
 * since it was noted vouches for its existence probes), against the same observations checked one probe at a
 * time, as before the notes (the baseline, measured alternately in the same run).
 */
import { createRequire } from 'node:module';
import type * as TS from 'typescript';
import type { Observation } from '../kernel/src/server/kernel/fs-observations.js';
import { prepareCompilerSystem } from '../kernel/src/server/kernel/compiler-system.js';
import { tslabPaths } from '../kernel/src/server/kernel/compiler-snapshot.js';
import { createTslabCompiler } from '../kernel/src/server/kernel/tslab-compiler.js';
import { report } from './stats.js';

const ROUNDS = 200;

// Nothing from the store: the cell is converted, so the compiler builds its program and observes.
process.env['NIGHTHAWK_CONVERSION_CACHE_DIR'] = 'off';
const compiler = createTslabCompiler();
const outcome = await compiler.execute('import * as nh from "nighthawk-ts";\ntypeof nh.Session', { executionCount: 1 });
if (outcome.kind !== 'ok') throw new Error(`the import cell failed: ${JSON.stringify(outcome)}`);
// The compiler's `sys` is already prepared for this directory: this hands back the observations it recorded.
const { sys } = createRequire(import.meta.url)(tslabPaths().tsPath) as typeof TS;
const { observations } = prepareCompilerSystem(sys, process.cwd());
const withNotes = JSON.parse(observations.manifest().json) as Observation[];
const withoutNotes = withNotes.filter(([key]) => !key.startsWith('parent\0'));
const probes = withNotes.filter(([key]) => key.startsWith('exists\0') || key.startsWith('dir\0')).length;
if (withoutNotes.length === 0) throw new Error('the compiler observed nothing: was its program built?');
if (!observations.holds(withNotes) || !observations.holds(withoutNotes)) throw new Error('the observations do not hold');

const noted: number[] = [];
const oneByOne: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  for (const [list, out] of [[withNotes, noted], [withoutNotes, oneByOne]] as const) {
    const t0 = performance.now();
    observations.holds(list);
    out.push(performance.now() - t0);
  }
}
console.log(`# ${withoutNotes.length} observations (${probes} existence probes) in ${withNotes.length - withoutNotes.length} directories noted`);
report('conversion-store-check-per-cell-directory-notes-vs-each-probe', noted.slice(10), oneByOne.slice(10));
compiler.close();
