/**
 * better-sqlite3, loaded when the first SQLite store opens: a native addon (~6 MB resident) that a process
 * importing the library without a persisted ledger or audit store (most notebook kernels) never needs.
 */
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import { DependencyUnavailableError } from '../core/index.js';

let loaded: typeof Database | undefined;

/** Throws DependencyUnavailableError when the addon cannot load (e.g. built for another Node version). */
export function sqliteDatabase(): typeof Database {
  if (loaded) return loaded;
  try {
    loaded = createRequire(import.meta.url)('better-sqlite3') as typeof Database;
  } catch (cause) {
    throw new DependencyUnavailableError({ dependency: 'better-sqlite3', neededFor: 'SQLite ledger and audit stores', cause });
  }
  return loaded;
}

/** The module if a store has loaded it: an error can only be its SqliteError then. */
export function loadedSqliteDatabase(): typeof Database | undefined {
  return loaded;
}
