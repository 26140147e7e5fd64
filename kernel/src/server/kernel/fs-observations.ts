/**
 * What TypeScript's compiler observed on the file system, recorded at its lowest `sys` layer: every file read
 * (size and modification time), every existence probe, directory listing and real path. A result derived from
 * the compiler (a stored conversion, a program built into a startup snapshot) is used again only while all of
 * these still hold. Imports nothing but `node:crypto` and `node:fs`: the compiler snapshot bundles it.
 *
 * Checking them is a stat per observation, and a program holds ~2,000 of them, most of them existence probes of
 * module resolution (~1,700 in ~110 directories): ~5 ms for each cell a kernel takes from the store. So the first
 * probe in a directory also notes the directory's stamp (device, inode, modification and change times), and
 * while that stamp is unchanged its entries are the same names of the same kinds: its probes hold without asking
 * each. Symbolic links in it are asked one by one (their targets change without the directory changing), and a
 * directory changed in the two seconds before it was noted is never trusted (a later change within the same
 * timestamp would not show).
 */
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';

/** The compiler's file-system calls a conversion can depend on (TypeScript's `System`, in part). */
export interface ObservedSystem {
  readFile(p: string, encoding?: string): string | undefined;
  fileExists(p: string): boolean;
  directoryExists(p: string): boolean;
  getDirectories(p: string): string[];
  readDirectory(p: string, extensions?: readonly string[], exclude?: readonly string[], include?: readonly string[], depth?: number): string[];
  realpath?(p: string): string;
}

type Operation = 'read' | 'exists' | 'dir' | 'dirs' | 'list' | 'real' | 'parent';
/** One observation: its key (operation, path and arguments) and what was observed. */
export type Observation = readonly [key: string, observed: string];

/** A directory whose probes are asked one by one (changed too recently, unreadable, not a directory). */
const UNSETTLED = 'unsettled';
const MISSING = 'missing';
/** How long a directory must have been unchanged for its stamp to stand for its entries. */
const SETTLED_MS = 2_000;

/** `p`'s directory and name, split at its last slash (a name of '', '.' or '..' has none: its probe is asked). */
function splitPath(p: string): { dir: string; name: string } | undefined {
  const cut = p.lastIndexOf('/');
  const name = p.slice(cut + 1);
  if (cut < 0 || name === '' || name === '.' || name === '..') return undefined;
  return { dir: cut === 0 ? '/' : p.slice(0, cut), name };
}

/** A directory's identity and last change, or MISSING; undefined for anything else (a file, no permission). */
function directoryStamp(dir: string): { stamp: string; changedMs: number } | typeof MISSING | undefined {
  try {
    const stat = statSync(dir, { bigint: true, throwIfNoEntry: false });
    if (stat === undefined) return MISSING;
    if (!stat.isDirectory()) return undefined;
    const changed = stat.mtimeNs > stat.ctimeNs ? stat.mtimeNs : stat.ctimeNs;
    return { stamp: `${stat.dev}:${stat.ino}:${stat.mtimeNs}:${stat.ctimeNs}`, changedMs: Number(changed / 1_000_000n) };
  } catch {
    return undefined;
  }
}

/** What a directory's note records: MISSING, UNSETTLED, or its stamp and the names of its symbolic links. */
function directoryNote(dir: string): string {
  const before = directoryStamp(dir);
  if (before === undefined) return UNSETTLED;
  if (before === MISSING) return MISSING;
  if (Date.now() - before.changedMs < SETTLED_MS) return UNSETTLED;
  let links: string[];
  try {
    links = readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isSymbolicLink()).map((entry) => entry.name);
  } catch {
    return UNSETTLED;
  }
  // The listing belongs to the stamp only if nothing changed while it was read.
  const after = directoryStamp(dir);
  if (after === undefined || after === MISSING || after.stamp !== before.stamp) return UNSETTLED;
  return links.length === 0 ? before.stamp : `${before.stamp}|${links.join('/')}`;
}

function statStamp(p: string): string | undefined {
  try {
    const stat = statSync(p);
    return stat.isFile() ? `${stat.size}:${stat.mtimeMs}` : undefined;
  } catch {
    return undefined;
  }
}

/** What a file read observed: size and modification time (content of a file that has no stat: its hash). */
function fileStamp(p: string, text: string | undefined): string {
  if (text === undefined) return 'missing';
  return statStamp(p) ?? `sha256:${createHash('sha256').update(text).digest('base64')}`;
}

/** A directory note as a check reads it (UNSETTLED notes have none). */
interface DirectoryNote {
  missing: boolean;
  stamp: string;
  links: ReadonlySet<string>;
}

/** An observation split once: a store asks the same manifest again for every cell it serves. */
interface Check {
  op: Operation;
  p: string;
  arg: string | undefined;
  observed: string;
  /** For an existence probe: its directory and name. */
  probe: { dir: string; name: string } | undefined;
  /** For a directory's note. */
  note: DirectoryNote | undefined;
}

const parsedChecks = new WeakMap<readonly Observation[], readonly Check[]>();

function checksOf(observations: readonly Observation[]): readonly Check[] {
  let checks = parsedChecks.get(observations);
  if (checks) return checks;
  checks = observations.map(([key, observed]): Check => {
    const [op, p, arg] = key.split('\0') as [Operation, string, string | undefined];
    const probe = op === 'exists' || op === 'dir' ? splitPath(p) : undefined;
    let note: DirectoryNote | undefined;
    if (op === 'parent' && observed !== UNSETTLED) {
      const bar = observed.indexOf('|');
      note = observed === MISSING
        ? { missing: true, stamp: '', links: new Set() }
        : { missing: false, stamp: bar < 0 ? observed : observed.slice(0, bar), links: new Set(bar < 0 ? [] : observed.slice(bar + 1).split('/')) };
    }
    return { op, p, arg, observed, probe, note };
  });
  parsedChecks.set(observations, checks);
  return checks;
}

/**
 * Records what the compiler observes through `sys`, whose methods it replaces once per process (before tslab
 * builds a host, which binds some of them). Installed under any other wrapper (the self-reference), so it sees
 * the real paths and replays them on the real file system.
 */
export class FileSystemObservations {
  readonly #raw: ObservedSystem;
  readonly #seen = new Map<string, string>();
  /** Changes with every new or changed observation; the manifest is rebuilt only then. */
  #version = 0;
  #manifest: { version: number; id: string; json: string } | undefined;

  constructor(sys: ObservedSystem) {
    const raw: ObservedSystem = {
      readFile: sys.readFile.bind(sys),
      fileExists: sys.fileExists.bind(sys),
      directoryExists: sys.directoryExists.bind(sys),
      getDirectories: sys.getDirectories.bind(sys),
      readDirectory: sys.readDirectory.bind(sys),
      realpath: sys.realpath?.bind(sys),
    };
    this.#raw = raw;
    sys.readFile = (p, encoding) => {
      const text = raw.readFile(p, encoding);
      this.#note(`read\0${p}\0${encoding ?? ''}`, fileStamp(p, text));
      return text;
    };
    sys.fileExists = (p) => this.#noted('exists', p, raw.fileExists(p));
    sys.directoryExists = (p) => this.#noted('dir', p, raw.directoryExists(p));
    sys.getDirectories = (p) => {
      const names = raw.getDirectories(p);
      this.#note(`dirs\0${p}`, JSON.stringify(names));
      return names;
    };
    sys.readDirectory = (p, extensions, exclude, include, depth) => {
      const names = raw.readDirectory(p, extensions, exclude, include, depth);
      this.#note(`list\0${p}\0${JSON.stringify([extensions, exclude, include, depth])}`, JSON.stringify(names));
      return names;
    };
    if (raw.realpath) {
      const realpath = raw.realpath;
      sys.realpath = (p) => {
        const real = realpath(p);
        this.#note(`real\0${p}`, real);
        return real;
      };
    }
  }

  #noted(op: Operation, p: string, value: boolean): boolean {
    this.#note(`${op}\0${p}`, value ? '1' : '0');
    // Noted after the probe, never again: a directory that changed since is no longer trusted for any of them.
    const dir = splitPath(p)?.dir;
    if (dir !== undefined && !this.#seen.has(`parent\0${dir}`)) this.#note(`parent\0${dir}`, directoryNote(dir));
    return value;
  }

  #note(key: string, observed: string): void {
    if (this.#seen.get(key) === observed) return;
    this.#seen.set(key, observed);
    this.#version++;
  }

  /** Everything observed so far, with an id naming its content. */
  manifest(): { id: string; json: string } {
    if (this.#manifest?.version !== this.#version) {
      const json = JSON.stringify([...this.#seen].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
      this.#manifest = { version: this.#version, id: createHash('sha256').update(json).digest('hex').slice(0, 32), json };
    }
    return this.#manifest;
  }

  /** Whether every observation still holds, asked of the real file system (never recorded). */
  holds(observations: readonly Observation[]): boolean {
    const raw = this.#raw;
    const checks = checksOf(observations);
    // Directories noted as they still are: a probe in one holds unless it names a symbolic link, and a directory
    // noted missing answers only for probes that found nothing.
    const unchanged = new Map<string, DirectoryNote>();
    for (const { op, p, note } of checks) {
      if (op !== 'parent' || note === undefined) continue;
      const now = directoryStamp(p);
      if (note.missing ? now === MISSING : now !== undefined && now !== MISSING && now.stamp === note.stamp) unchanged.set(p, note);
    }
    for (const { op, p, arg, observed, probe } of checks) {
      const known = probe && unchanged.get(probe.dir);
      if (known && (known.missing ? observed === '0' : !known.links.has(probe.name))) continue;
      let now: string | undefined;
      switch (op) {
        case 'parent':
          continue;
        case 'read':
          // A stamp is checked by stat alone; a file that had none (or had no content) is read again.
          now = observed === 'missing' || observed.startsWith('sha256:') ? fileStamp(p, raw.readFile(p, arg || undefined)) : statStamp(p);
          break;
        case 'exists':
          now = raw.fileExists(p) ? '1' : '0';
          break;
        case 'dir':
          now = raw.directoryExists(p) ? '1' : '0';
          break;
        case 'dirs':
          now = JSON.stringify(raw.getDirectories(p));
          break;
        case 'list': {
          const [extensions, exclude, include, depth] = JSON.parse(arg ?? '[]') as [string[]?, string[]?, string[]?, number?];
          now = JSON.stringify(raw.readDirectory(p, extensions ?? undefined, exclude ?? undefined, include ?? undefined, depth ?? undefined));
          break;
        }
        case 'real':
          now = raw.realpath ? raw.realpath(p) : p;
          break;
        default:
          return false;
      }
      if (now !== observed) return false;
    }
    return true;
  }
}
