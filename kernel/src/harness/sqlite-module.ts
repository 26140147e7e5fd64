/**
 * better-sqlite3, loaded when the first SQLite store opens: a native addon (~6 MB resident) that a process
 * importing the library without a persisted ledger or audit store (most notebook kernels) never needs.
 */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type Database from 'better-sqlite3';
import { DependencyUnavailableError } from '../core/index.js';

// Made at load: the first store may open while model code runs, where `module.createRequire` is refused.
const requireHere = createRequire(import.meta.url);
let loaded: typeof Database | undefined;

/** Throws DependencyUnavailableError when the addon cannot load (e.g. built for another Node version). */
export function sqliteDatabase(): typeof Database {
  if (loaded) return loaded;
  try {
    loaded = requireHere('better-sqlite3') as typeof Database;
  } catch (cause) {
    throw new DependencyUnavailableError({ dependency: 'better-sqlite3', neededFor: 'SQLite ledger and audit stores', cause });
  }
  return loaded;
}

/** The module if a store has loaded it: an error can only be its SqliteError then. */
export function loadedSqliteDatabase(): typeof Database | undefined {
  return loaded;
}

/**
 * Opens the database file at `path`, creating the folders it names first (this user's alone, 0700): a store
 * pointed at `.nighthawk/audit.db` in a fresh checkout opens instead of failing. In-memory names and `file:`
 * URIs are passed through as they are.
 */
export function openSqliteFile(path: string, options?: Database.Options): Database.Database {
  const Sqlite = sqliteDatabase();
  if (path !== ':memory:' && path !== '' && !path.startsWith('file:')) mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  return new Sqlite(path, options);
}
