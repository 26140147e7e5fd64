/**
 * better-sqlite3, loaded when the first SQLite store opens: a native addon (~6 MB resident) that a process
 * importing the library without a persisted ledger or audit store (most notebook kernels) never needs.
 */
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';

let loaded: typeof Database | undefined;

export function sqliteDatabase(): typeof Database {
  loaded ??= createRequire(import.meta.url)('better-sqlite3') as typeof Database;
  return loaded;
}

/** The module if a store has loaded it: an error can only be its SqliteError then. */
export function loadedSqliteDatabase(): typeof Database | undefined {
  return loaded;
}
