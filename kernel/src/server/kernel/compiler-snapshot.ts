/**
 * Compiler snapshots: a V8 startup snapshot (`node --snapshot-blob`) of a process that loaded tslab's TypeScript,
 * built the program for one working directory and converted the warm-up cells. A kernel process started from it
 * finds the lib files, @types/node and the library's declarations parsed, bound and checked: its first cell
 * converts in ~30 ms instead of waiting about a second for the program (a 49 MB blob deserializes in ~0.2 s).
 *
 * A blob is named by everything V8 and the compiler depend on: Node's version and binary, the process's flags
 * (V8 refuses a blob built under other flags, and Node then exits), the entry script, tslab's files and the
 * working directory. What the program read is checked again in the kernel before the converter is used
 * (fs-observations.ts); a blob whose observations no longer hold is deleted there and built again.
 *
 * `NIGHTHAWK_COMPILER_SNAPSHOT_DIR` moves the blobs, `off` disables them; by default
 * `<user cache>/nighthawk-ts/compiler-snapshots`. The directory and every blob must be this user's alone: a blob
 * is code the kernel runs.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ownedAlone, safeDir, userCacheDir } from './code-cache.js';
import { withKernelEnv } from './kernel-env.js';
import { COMPILER_SNAPSHOT_SLOT, type CompilerSnapshotConfig, type CompilerSnapshotHandoff } from './compiler-snapshot-slot.js';

/** Bumped when what a snapshot holds, or how it is handed over, changes. */
const SCHEMA = 'nh-compiler-snapshot-1';
/** Blobs kept per directory (~50 MB each): working directories and upgrades otherwise pile them up. */
export const COMPILER_SNAPSHOTS_KEPT = 4;
/** A lock older than this belongs to a builder that died. */
const STALE_LOCK_MS = 120_000;
const BLOB = /^[0-9a-f]{32}\.blob$/;

export function compilerSnapshotDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return userCacheDir('compiler-snapshots', 'NIGHTHAWK_COMPILER_SNAPSHOT_DIR', env);
}

/** The bundled builder script (`npm run build` writes it beside this module's built file). */
function entryScript(): string | undefined {
  const here = fileURLToPath(import.meta.url);
  const root = path.resolve(path.dirname(here), '..', '..', '..', '..');
  const built = here.endsWith('.js')
    ? path.join(path.dirname(here), 'compiler-snapshot-entry.cjs')
    : path.join(root, 'dist', 'kernel', 'src', 'server', 'kernel', 'compiler-snapshot-entry.cjs');
  return existsSync(built) ? built : undefined;
}

/** tslab's converter and the TypeScript it requires, resolved as tslab-compiler.ts loads them. */
export function tslabPaths(): { converterPath: string; tsPath: string } {
  const converterPath = createRequire(import.meta.url).resolve('tslab/dist/converter');
  return { converterPath, tsPath: createRequire(converterPath).resolve('@tslab/typescript-for-tslab') };
}

function stamp(file: string): string {
  const stat = statSync(file);
  return `${file}\0${stat.size}\0${stat.mtimeMs}`;
}

export interface CompilerSnapshotTarget {
  dir: string;
  blob: string;
  config: CompilerSnapshotConfig;
  entry: string;
  flags: readonly string[];
}

/**
 * Where the blob for kernels started with `flags` in `cwd` lives, or nothing when snapshots are off, the
 * directory is not this user's alone, or the builder script was not built.
 */
export function compilerSnapshotTarget(cwd: string, flags: readonly string[], env: NodeJS.ProcessEnv = process.env): CompilerSnapshotTarget | undefined {
  const dir = compilerSnapshotDir(env);
  const entry = entryScript();
  if (!dir || !entry || !safeDir(dir)) return undefined;
  let rootDir: string;
  let paths: { converterPath: string; tsPath: string };
  let key: string;
  try {
    rootDir = path.resolve(cwd);
    paths = tslabPaths();
    key = createHash('sha256')
      // NODE_OPTIONS may carry V8 flags too: a blob built under others would make Node exit instead of starting.
      .update([SCHEMA, process.version, process.arch, stamp(process.execPath), flags.join(' '), env['NODE_OPTIONS'] ?? '', stamp(entry), stamp(paths.converterPath), stamp(paths.tsPath), rootDir].join('\n'))
      .digest('hex')
      .slice(0, 32);
  } catch {
    return undefined;
  }
  // Named by everything V8 and the compiler depend on: Node, its flags, the compiler, the entry script, the directory.
  return { dir, entry, flags, blob: path.join(dir, `${key}.blob`), config: { rootDir, ...paths } };
}

/** The blob kernels with `flags` in `cwd` can start from now, if one was built and is this user's alone. */
export function readyCompilerSnapshot(target: CompilerSnapshotTarget | undefined): string | undefined {
  if (!target) return undefined;
  try {
    const stat = statSync(target.blob);
    return stat.isFile() && ownedAlone(stat) ? target.blob : undefined;
  } catch {
    return undefined;
  }
}

const building = new Map<string, Promise<boolean>>();

/**
 * Builds the blob in a child process (a few seconds of one core, at low priority), unless it exists or another
 * process holds its lock. Resolves true when the blob is there afterwards. Never rejects.
 */
export function buildCompilerSnapshot(target: CompilerSnapshotTarget): Promise<boolean> {
  const running = building.get(target.blob);
  if (running) return running;
  const promise = build(target).finally(() => building.delete(target.blob));
  building.set(target.blob, promise);
  return promise;
}

async function build(target: CompilerSnapshotTarget): Promise<boolean> {
  if (readyCompilerSnapshot(target)) return true;
  try {
    mkdirSync(target.dir, { recursive: true, mode: 0o700 });
  } catch {
    return false;
  }
  if (!safeDir(target.dir)) return false;
  const lock = `${target.blob}.lock`;
  if (!takeLock(lock)) return false;
  const temp = `${target.blob}.${process.pid}.tmp`;
  try {
    const ok = await new Promise<boolean>((resolve) => {
      const child = spawn(process.execPath, [...target.flags, '--snapshot-blob', temp, '--build-snapshot', target.entry], {
        cwd: target.config.rootDir,
        // The kernel's own environment (withKernelEnv), as the processes that start from the blob have.
        env: { ...withKernelEnv(process.env), NIGHTHAWK_COMPILER_SNAPSHOT: JSON.stringify(target.config) },
        stdio: 'ignore',
      });
      try {
        if (child.pid !== undefined) os.setPriority(child.pid, 10);
      } catch {
        // not permitted here: it builds at normal priority
      }
      child.on('error', () => resolve(false));
      child.on('exit', (code) => resolve(code === 0));
    });
    if (!ok || !existsSync(temp)) return false;
    renameSync(temp, target.blob);
    prune(target.dir, target.blob);
    return true;
  } catch {
    return false;
  } finally {
    rmSync(temp, { force: true });
    rmSync(lock, { force: true });
  }
}

function takeLock(lock: string): boolean {
  try {
    closeSync(openSync(lock, 'wx', 0o600));
    return true;
  } catch {
    try {
      if (Date.now() - statSync(lock).mtimeMs < STALE_LOCK_MS) return false;
      rmSync(lock, { force: true });
      closeSync(openSync(lock, 'wx', 0o600));
      return true;
    } catch {
      return false;
    }
  }
}

/** Keeps the newest COMPILER_SNAPSHOTS_KEPT blobs (by modification time), and the one just built. */
function prune(dir: string, keep: string): void {
  try {
    const blobs = readdirSync(dir)
      .filter((name) => BLOB.test(name))
      .map((name) => ({ file: path.join(dir, name), mtime: statSync(path.join(dir, name)).mtimeMs }))
      .sort((a, b) => b.mtime - a.mtime);
    for (const { file } of blobs.slice(COMPILER_SNAPSHOTS_KEPT)) if (file !== keep) rmSync(file, { force: true });
  } catch {
    // pruned next time
  }
}

/** The blob a process started from (`--snapshot-blob`), if any. */
function blobIn(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--snapshot-blob') return args[i + 1];
    if (arg.startsWith('--snapshot-blob=')) return arg.slice('--snapshot-blob='.length);
  }
  return undefined;
}

/**
 * Read once, when the kernel loads this module and before any cell: `process.execArgv` is an ordinary array that
 * code running later could rewrite to name another file for discardStartupBlob.
 */
const STARTUP_BLOB = blobIn([...process.execArgv]);

let taken = false;
/** The compiler a snapshot handed over, once per process (the slot is removed before any cell can run). */
export function takeCompilerSnapshot(): CompilerSnapshotHandoff | undefined {
  if (taken) return undefined;
  taken = true;
  const key = Symbol.for(COMPILER_SNAPSHOT_SLOT);
  const slot = globalThis as Record<symbol, unknown>;
  const handoff = slot[key] as CompilerSnapshotHandoff | undefined;
  delete slot[key];
  return handoff && typeof handoff === 'object' && typeof handoff.manifest === 'string' ? handoff : undefined;
}

/** Deletes the blob this process started from, when what its program read has changed: the next kernel builds a new one. */
export function discardStartupBlob(): void {
  if (STARTUP_BLOB && BLOB.test(path.basename(STARTUP_BLOB))) rmSync(STARTUP_BLOB, { force: true });
}
