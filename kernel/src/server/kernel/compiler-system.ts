/**
 * The layers a kernel puts under tslab's TypeScript `sys`, shared by the kernel and the compiler snapshot's
 * entry (which bundles this file, so it imports only Node built-ins and bundle-safe siblings):
 * 1. file-system observations, lowest, so they see and replay real paths (fs-observations.ts);
 * 1b. installed declaration files (TypeScript's lib, `node_modules`) handed over without their JSDoc (declaration-docs.ts);
 * 2. the package self-reference (self-reference.ts);
 * 3. counting watcher events and closes, which is what invalidates converted cells;
 * 4. deferring watchers: a program built while a cell waits opens them after that cell (see WatchDeferral).
 * State lives on `sys` under registry symbols, so a snapshot's copy of this module and the kernel's agree.
 */
import type * as TS from 'typescript';
import { stripDeclarationDocs } from './declaration-docs.js';
import { FileSystemObservations, type ObservedSystem } from './fs-observations.js';
import { findPackageSelf, installSelfReference, type PackageSelf } from './self-reference.js';

const OBSERVED = Symbol.for('nighthawk.kernel.fileSystemObserved');
const WATCHES = Symbol.for('nighthawk.kernel.watchEvents');
const PREPARED = Symbol.for('nighthawk.kernel.compilerSystemPrepared');
const DEFERRAL = Symbol.for('nighthawk.kernel.watchDeferral');

interface Marks {
  [OBSERVED]?: FileSystemObservations;
  [WATCHES]?: { count: number };
  [PREPARED]?: { rootDir: string; self: PackageSelf | undefined };
  [DEFERRAL]?: WatchDeferral;
}

/**
 * Watchers asked for after defer() open at arm(). Building a program opens one watcher per file it read and a
 * recursive one on node_modules, which on Linux is a watch per directory below it: ~0.2 s for 2,000
 * directories, spent before the first conversion returns. Deferred, that comes after the first cell; whoever
 * defers checks, once armed, that what the program read still holds (a change in between went unwatched).
 */
export interface WatchDeferral {
  defer(): void;
  /** Opens every watcher asked for since defer(), and opens later ones at once. */
  arm(): void;
}

function deferWatchers(sys: TS.System & Marks, watchEvents: { count: number }): WatchDeferral {
  const existing = sys[DEFERRAL];
  if (existing) return existing;
  const queue: Array<{ open: () => TS.FileWatcher; real: TS.FileWatcher | undefined; closed: boolean }> = [];
  let deferring = false;
  const later = (open: () => TS.FileWatcher): TS.FileWatcher => {
    if (!deferring) return open();
    const entry = { open, real: undefined as TS.FileWatcher | undefined, closed: false };
    queue.push(entry);
    return {
      close: () => {
        entry.closed = true;
        // Closed before it opened: its file left the program, which counts as a close of an open one does.
        if (entry.real) entry.real.close();
        else watchEvents.count++;
      },
    };
  };
  const { watchFile, watchDirectory } = sys;
  if (watchFile) sys.watchFile = (file, callback, interval, options) => later(() => watchFile.call(sys, file, callback, interval, options));
  if (watchDirectory) sys.watchDirectory = (dir, callback, recursive, options) => later(() => watchDirectory.call(sys, dir, callback, recursive, options));
  const deferral: WatchDeferral = {
    defer: () => {
      deferring = true;
    },
    arm: () => {
      deferring = false;
      for (const entry of queue.splice(0)) if (!entry.closed) entry.real = entry.open();
    },
  };
  sys[DEFERRAL] = deferral;
  return deferral;
}

/** Observes the compiler's file system once per process, under every other wrapper. */
function observeFileSystem(sys: TS.System & Marks): FileSystemObservations {
  return (sys[OBSERVED] ??= new FileSystemObservations(sys as unknown as ObservedSystem));
}

/**
 * Counts watcher events and closes: the converter's program reads files again only on one (a closed watcher:
 * its file left the program and could change unseen). tslab's own sys inherits these.
 */
function countWatchEvents(sys: TS.System & Marks): { count: number } {
  const existing = sys[WATCHES];
  if (existing) return existing;
  const counter = { count: 0 };
  sys[WATCHES] = counter;
  const counted = (watcher: TS.FileWatcher): TS.FileWatcher => ({
    close: () => {
      counter.count++;
      watcher.close();
    },
  });
  const { watchFile, watchDirectory } = sys;
  if (watchFile) {
    sys.watchFile = (file, callback, interval, options) =>
      counted(watchFile.call(sys, file, (name, kind, time) => {
        counter.count++;
        callback(name, kind, time);
      }, interval, options));
  }
  if (watchDirectory) {
    sys.watchDirectory = (dir, callback, recursive, options) =>
      counted(watchDirectory.call(sys, dir, (name) => {
        counter.count++;
        callback(name);
      }, recursive, options));
  }
  return counter;
}

export interface CompilerSystem {
  observations: FileSystemObservations;
  /** Watcher events and closes so far (read `.count`). */
  watchEvents: { readonly count: number };
  watchDeferral: WatchDeferral;
  self: PackageSelf | undefined;
}

/**
 * Puts the three layers under `sys` for cells resolving from `rootDir`. The self-reference is installed per
 * call, as a compiler for another directory needs its own; a `sys` already prepared for the same directory (by
 * the compiler snapshot) is taken as it is.
 */
export function prepareCompilerSystem(sys: TS.System, rootDir: string): CompilerSystem {
  const marked = sys as TS.System & Marks;
  const observations = observeFileSystem(marked);
  stripDeclarationDocs(marked);
  const prepared = marked[PREPARED];
  let self: PackageSelf | undefined;
  if (prepared?.rootDir === rootDir) self = prepared.self;
  else {
    self = findPackageSelf(rootDir);
    if (self) installSelfReference(sys as Parameters<typeof installSelfReference>[0], self);
    marked[PREPARED] = { rootDir, self };
  }
  const watchEvents = countWatchEvents(marked);
  const watchDeferral = deferWatchers(marked, watchEvents);
  return { observations, watchEvents, watchDeferral, self };
}

/** What a first notebook cell typically is; converting it loads everything such a cell needs. */
export const WARM_UP_CELL = 'import * as nh from "nighthawk-ts";\nnh.Session;\n';
/** Later warm-up rounds: differing texts (an unchanged program would skip the checker), ending on an import. */
export const WARM_UP_ROUNDS: readonly string[] = [
  'import * as nh from "nighthawk-ts";\ntypeof nh.Session',
  'import * as nh from "nighthawk-ts";\nconst limit = 3;\nlimit + 1',
  'import { z } from "zod";\nimport * as nh from "nighthawk-ts";\nconst schema = z.object({ n: z.number() });\ntypeof nh.run',
  'import * as nh from "nighthawk-ts";\nfunction twice(n: number): number {\n  return n * 2;\n}\ntwice(2)',
  'import * as nh from "nighthawk-ts";\nconst names: string[] = ["a"];\nnames.map((n) => n.length)',
  'import * as nh from "nighthawk-ts";\nnh.activeSession()',
];
