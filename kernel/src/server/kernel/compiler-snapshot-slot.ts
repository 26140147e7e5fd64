/**
 * What a process started from a compiler snapshot finds in its registry slot (set by compiler-snapshot-entry.ts
 * after deserialization, taken once by tslab-compiler.ts before any cell can run). Bundle-safe: types and a name.
 */
import type * as TS from 'typescript';

export const COMPILER_SNAPSHOT_SLOT = 'nighthawk.kernel.compilerSnapshot';

/** Passed to the snapshot builder in NIGHTHAWK_COMPILER_SNAPSHOT. */
export interface CompilerSnapshotConfig {
  rootDir: string;
  tsPath: string;
  converterPath: string;
}

export interface CompilerSnapshotHandoff {
  rootDir: string;
  tsPath: string;
  converterPath: string;
  ts: typeof TS;
  converterModule: unknown;
  /** tslab's converter with its program built and the warm-up cells converted. */
  converter: unknown;
  /** FileSystemObservations manifest JSON: what the program read, to be checked before the converter is used. */
  manifest: string;
  /** Opens the program's file and directory watchers, deferred while the snapshot was built. Once. */
  armWatchers: () => void;
}
