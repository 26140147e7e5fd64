/**
 * Cell conversions kept on disk across kernel processes. Restarting a kernel and running the same notebook
 * again (Restart & Run All, papermill, nbconvert, a CI job) converts the same cells against the same
 * declarations, and the first of them otherwise waits for tslab's compiler to build its program (about a second:
 * the lib files, @types/node, the imported packages' declarations). A conversion is a function of the two texts
 * and of what the compiler observed on the file system, so each one is stored with those observations (a
 * manifest: every file read with its size and modification time, every existence probe, directory listing and
 * real path, recorded at the compiler's lowest file-system layer, and each probed directory's stamp: see
 * fs-observations.ts) and is used again only while all of them
 * still hold. That is as fresh as converting: a package installed, a declaration file edited or a module that
 * now resolves elsewhere each change an observation.
 *
 * `NIGHTHAWK_CONVERSION_CACHE_DIR` moves it, `off` disables it; by default `<user cache>/nighthawk-ts/conversions`.
 * The directory is this user's alone (mode 0700, checked as for the V8 code cache): what it holds runs as cells.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { safeDir, userCacheDir } from './code-cache.js';
import type { FileSystemObservations, Observation } from './fs-observations.js';

/** Bumped when what is stored, or how a conversion is made, changes. */
const SCHEMA = 'nh-conversion-1';
/** Entries kept; the oldest (by last use) go first. */
const MAX_ENTRIES = 400;

export interface StoredConversion<R> {
  result: R;
}

interface EntryFile<R> {
  schema: string;
  decls: string;
  code: string;
  manifest: string;
  result: R;
}

/**
 * Conversions on disk, named by a hash of the environment (`namespace`: Node, compiler and package versions,
 * the working directory) and the two texts. Reads are synchronous (a cell waits on them either way); writes
 * happen after the cell, each file written whole and renamed into place, so a reader never sees half of one.
 */
export class ConversionStore<R> {
  readonly #dir: string;
  readonly #namespace: string;
  readonly #observations: FileSystemObservations;
  /** Manifests read or written by this process, parsed (whether they hold is asked at every use). */
  #manifests = new Map<string, readonly Observation[]>();
  #writes = 0;
  #markedFirstCell = false;

  private constructor(dir: string, namespace: string, observations: FileSystemObservations) {
    this.#dir = dir;
    this.#namespace = namespace;
    this.#observations = observations;
  }

  /** The store for this user (undefined when disabled or when the directory is not this user's alone). */
  static open<R>(namespace: string, observations: FileSystemObservations, env: NodeJS.ProcessEnv = process.env): ConversionStore<R> | undefined {
    const dir = userCacheDir('conversions', 'NIGHTHAWK_CONVERSION_CACHE_DIR', env);
    if (dir === undefined || !safeDir(dir)) return undefined;
    return new ConversionStore<R>(dir, namespace, observations);
  }

  /** Marks that a first cell (no declarations before it) of this environment is stored. */
  get #firstCellMarker(): string {
    return path.join(this.#dir, `n-${createHash('sha256').update(SCHEMA).update('\0').update(this.#namespace).digest('hex').slice(0, 32)}`);
  }

  /**
   * A kernel before this one, in the same directory and environment, stored a first cell: notebooks are being
   * run here again, so a kernel with someone waiting may leave the program unbuilt until it is idle.
   */
  holdsFirstCells(): boolean {
    return existsSync(this.#firstCellMarker);
  }

  #key(decls: string, code: string): string {
    return createHash('sha256').update(SCHEMA).update('\0').update(this.#namespace).update('\0').update(decls).update('\0').update(code).digest('hex').slice(0, 40);
  }

  /** A stored conversion of exactly these texts whose observations all hold now, or undefined. */
  find(decls: string, code: string): StoredConversion<R> | undefined {
    const file = path.join(this.#dir, `c-${this.#key(decls, code)}.json`);
    let entry: EntryFile<R>;
    try {
      entry = JSON.parse(readFileSync(file, 'utf8')) as EntryFile<R>;
    } catch {
      return undefined; // none, or unreadable: converting is always correct
    }
    if (entry.schema !== SCHEMA || entry.decls !== decls || entry.code !== code || typeof entry.manifest !== 'string') return undefined;
    const observations = this.#readManifest(entry.manifest);
    if (!observations || !this.#observations.holds(observations)) return undefined;
    return { result: entry.result };
  }

  #readManifest(id: string): readonly Observation[] | undefined {
    if (!/^[0-9a-f]{32}$/.test(id)) return undefined;
    const known = this.#manifests.get(id);
    if (known) return known;
    try {
      const observations = JSON.parse(readFileSync(path.join(this.#dir, `m-${id}.json`), 'utf8')) as unknown;
      if (!Array.isArray(observations) || !observations.every((o) => Array.isArray(o) && typeof o[0] === 'string' && typeof o[1] === 'string')) return undefined;
      this.#manifests.set(id, observations as Observation[]);
      return observations as Observation[];
    } catch {
      return undefined;
    }
  }

  /** Keeps a conversion the compiler made, with everything it had observed when it made it (`manifest()` then). */
  save(decls: string, code: string, result: R, manifest: { id: string; json: string }): void {
    try {
      mkdirSync(this.#dir, { recursive: true, mode: 0o700 });
      const manifestFile = path.join(this.#dir, `m-${manifest.id}.json`);
      if (!this.#manifests.has(manifest.id)) {
        writeWhole(manifestFile, manifest.json);
        this.#manifests.set(manifest.id, JSON.parse(manifest.json) as Observation[]);
      }
      const entry: EntryFile<R> = { schema: SCHEMA, decls, code, manifest: manifest.id, result };
      writeWhole(path.join(this.#dir, `c-${this.#key(decls, code)}.json`), JSON.stringify(entry));
      if (decls === '' && !this.#markedFirstCell) {
        this.#markedFirstCell = true;
        writeWhole(this.#firstCellMarker, '');
      }
      if (++this.#writes === 1) this.#prune();
    } catch {
      // A full or read-only disk costs the next kernel its head start, nothing else.
    }
  }

  /** Keeps the newest MAX_ENTRIES conversions and the manifests they name. */
  #prune(): void {
    const entries = readdirSync(this.#dir).filter((n) => n.startsWith('c-'));
    if (entries.length <= MAX_ENTRIES) return;
    const aged = entries.map((name) => ({ name, at: statSync(path.join(this.#dir, name)).mtimeMs })).sort((a, b) => b.at - a.at);
    for (const { name } of aged.slice(MAX_ENTRIES)) rmSync(path.join(this.#dir, name), { force: true });
    const named = new Set<string>();
    for (const { name } of aged.slice(0, MAX_ENTRIES)) {
      try {
        named.add((JSON.parse(readFileSync(path.join(this.#dir, name), 'utf8')) as EntryFile<R>).manifest);
      } catch {
        /* unreadable: its manifest may go */
      }
    }
    for (const name of readdirSync(this.#dir)) {
      if (name.startsWith('m-') && !named.has(name.slice(2, -'.json'.length))) rmSync(path.join(this.#dir, name), { force: true });
    }
  }
}

function writeWhole(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text, { mode: 0o600 });
  renameSync(temp, file);
}
