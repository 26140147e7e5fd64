/**
 * What TypeScript's compiler observed on the file system, recorded at its lowest `sys` layer: every file read
 * (size and modification time), every existence probe, directory listing and real path. A result derived from
 * the compiler (a stored conversion, a program built into a startup snapshot) is used again only while all of
 * these still hold. Imports nothing but `node:crypto` and `node:fs`: the compiler snapshot bundles it.
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';

/** The compiler's file-system calls a conversion can depend on (TypeScript's `System`, in part). */
export interface ObservedSystem {
  readFile(p: string, encoding?: string): string | undefined;
  fileExists(p: string): boolean;
  directoryExists(p: string): boolean;
  getDirectories(p: string): string[];
  readDirectory(p: string, extensions?: readonly string[], exclude?: readonly string[], include?: readonly string[], depth?: number): string[];
  realpath?(p: string): string;
}

type Operation = 'read' | 'exists' | 'dir' | 'dirs' | 'list' | 'real';
/** One observation: its key (operation, path and arguments) and what was observed. */
export type Observation = readonly [key: string, observed: string];

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
    for (const [key, observed] of observations) {
      const [op, p, arg] = key.split('\0') as [Operation, string, string | undefined];
      let now: string | undefined;
      switch (op) {
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
