/**
 * V8 code cache for the TypeScript compilers a kernel process loads (tslab's 5.0 fork, and TypeScript 5.9 when
 * generated code is dispatched). Node 20 has no `module.enableCompileCache()`, so CommonJS compilation of the
 * chosen files goes through `vm.Script` with `cachedData`. The cache is written after the kernel's warm-up
 * conversion, so it holds the functions parsing and checking a cell needs, not only the top-level code: the
 * next kernel process neither parses the 9 MB compiler nor lazily compiles those functions again.
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';

interface CachedScript {
  filename: string;
  script: vm.Script;
  cacheFile: string;
  /** The cache was missing or V8 rejected it, so a fresh one should be written. */
  stale: boolean;
}

interface CompilableModule {
  require(id: string): unknown;
}

/** Files large enough that their compile time matters for a kernel's start. */
const CACHED = /[\\/](?:@tslab[\\/]typescript-for-tslab|typescript)[\\/]lib[\\/]typescript\.js$/;

const scripts: CachedScript[] = [];
let installed = false;

/**
 * `NIGHTHAWK_CODE_CACHE_DIR`, `off` to disable; by default the user's cache directory (`$XDG_CACHE_HOME`,
 * `~/.cache`, `~/Library/Caches`, `%LOCALAPPDATA%`), so every kernel of that user shares it and the system's
 * temp cleaner does not empty it between starts.
 */
export function codeCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return userCacheDir('v8-code-cache', 'NIGHTHAWK_CODE_CACHE_DIR', env);
}

/** `<user cache>/nighthawk-ts/<name>`, or the directory `variable` names (`off`: none). */
export function userCacheDir(name: string, variable: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const configured = env[variable];
  if (configured === 'off') return undefined;
  if (configured) return configured;
  let home: string;
  try {
    home = os.homedir();
  } catch {
    return path.join(os.tmpdir(), `nighthawk-${name}-${process.getuid?.() ?? 'user'}`);
  }
  const base =
    process.platform === 'win32'
      ? env['LOCALAPPDATA'] ?? path.join(home, 'AppData', 'Local')
      : process.platform === 'darwin'
        ? path.join(home, 'Library', 'Caches')
        : env['XDG_CACHE_HOME'] || path.join(home, '.cache');
  return path.join(base, 'nighthawk-ts', name);
}

function cacheFileFor(dir: string, filename: string): string {
  const stat = statSync(filename);
  const key = createHash('sha256')
    // V8 rejects data produced under other flags (--max-semi-space-size …): one file per flag set, no thrashing.
    // `ascii`: the source compiled is asciiWrappedSource's, which caches of the decoded source do not match.
    .update(`${process.version}\0${process.arch}\0${process.execArgv.join(' ')}\0${filename}\0${stat.size}\0${stat.mtimeMs}\0ascii`)
    .digest('hex')
    .slice(0, 24);
  return path.join(dir, `${path.basename(filename, '.js')}-${key}.v8`);
}

/**
 * A cache file is MAGIC, the SHA-256 of the V8 data, then the data. V8 checks that data belongs to this source,
 * V8 version and flags, but trusts its contents: a file cut short by a full disk or flipped on disk is caught
 * here and never handed to V8.
 */
const MAGIC = Buffer.from('NHV8CC1\n');
const DIGEST_BYTES = 32;

type CacheRead = { kind: 'missing' } | { kind: 'corrupt' } | { kind: 'ok'; data: Buffer };

function readCache(file: string): CacheRead {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return { kind: 'missing' };
  }
  const start = MAGIC.length + DIGEST_BYTES;
  if (bytes.length <= start || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return { kind: 'corrupt' };
  const data = bytes.subarray(start);
  const digest = createHash('sha256').update(data).digest();
  return digest.equals(bytes.subarray(MAGIC.length, start)) ? { kind: 'ok', data } : { kind: 'corrupt' };
}

/** Jupyter shows a kernel's stderr in its server log (the compiler loads before cell output is captured). */
const warn = (line: string): void => void process.stderr.write(line + '\n');

/**
 * Cached code runs as this user's code: a directory another user owns or can write to (a squatted temp dir)
 * is not used.
 */
/** Owned by this user and writable by nobody else (what a cache whose contents run as code requires). */
export function ownedAlone(stat: { uid: number; mode: number }): boolean {
  const uid = process.getuid?.();
  return (uid === undefined || stat.uid === uid) && (process.platform === 'win32' || (stat.mode & 0o022) === 0);
}

export function safeDir(dir: string): boolean {
  try {
    const stat = statSync(dir);
    return stat.isDirectory() && ownedAlone(stat);
  } catch {
    return true; // created by saveCodeCache with mode 0700
  }
}

function touch(file: string): void {
  try {
    const now = new Date();
    utimesSync(file, now, now);
  } catch {
    // A read-only cache still serves; it is only pruned less well.
  }
}

/**
 * Cache files kept per directory. Each Node version, flag set, install path and compiler version has its own
 * file (~3 MB each); without a bound, upgrades and checkouts pile them up.
 */
export const CODE_CACHE_KEEP = 8;
const CACHE_FILE = /^[\w.-]+-[0-9a-f]{24}\.v8$/;
const TEMP_FILE = /^[\w.-]+-[0-9a-f]{24}\.v8\.\d+\.tmp$/;
/** A temp file this old was left by a process that died while writing. */
const TEMP_ABANDONED_MS = 10 * 60_000;
/** Bytes asciiWrappedSource hands isAscii at a time. */
const SCAN_CHUNK = 64 * 1024;

/**
 * Removes all but the `keep` most recently used cache files of `dir`, and temp files abandoned by crashed writers.
 * Only names this module writes are touched: the directory may be shared with anything the user put there.
 */
export function pruneCodeCache(dir: string, keep = CODE_CACHE_KEEP, now = Date.now()): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  // Only names this module writes, each with its last use (a name gone meanwhile is skipped).
  const ours = names.flatMap((name) => {
    if (!CACHE_FILE.test(name) && !TEMP_FILE.test(name)) return [];
    try {
      return [{ name, used: statSync(path.join(dir, name)).mtimeMs }];
    } catch {
      return [];
    }
  });
  const files = ours.filter((f) => CACHE_FILE.test(f.name)).sort((a, b) => b.used - a.used);
  const doomed = [...files.slice(keep), ...ours.filter((f) => TEMP_FILE.test(f.name) && now - f.used > TEMP_ABANDONED_MS)].map((f) => f.name);
  const removed: string[] = [];
  for (const name of doomed) {
    try {
      rmSync(path.join(dir, name), { force: true });
      removed.push(name);
    } catch {
      // Another kernel may be pruning too.
    }
  }
  return removed;
}

/**
 * The CommonJS wrapper around a module's UTF-8 bytes, as a string of ASCII only: every non-ASCII character is
 * written as \uXXXX escapes, which mean the same in strings, regular expressions, identifiers and comments
 * (tslab's typescript.js has five, all in comments); undefined when the bytes are not valid UTF-8.
 * Why: one non-Latin-1 character makes V8 keep a script's whole source two bytes a character, so the
 * compiler's 8 MB of source held 16 MB of the kernel's large-object space for its life; and the UTF-8 string
 * Node's loader decodes first was another 16 MB of garbage until the next full GC, which in a kernel process
 * may not come for several cells. From the bytes, Node makes a source this large an external one-byte string
 * (outside the V8 heap, 8 MB) and no decoded copy exists.
 */
export function asciiWrappedSource(bytes: Uint8Array): string | undefined {
  const [head, tail] = (Module as unknown as { wrapper: [string, string] }).wrapper;
  // Each non-ASCII character as [start, end, escape]. Chunks are cleared by the native isAscii and only one
  // holding such a character is walked byte by byte: the compiler's 8 MB take ~10 ms, where a JS loop and
  // isUtf8 over every byte took ~60 ms of a cold kernel start. Checking each sequence where the one before
  // ended checks the whole file: ASCII bytes are valid UTF-8 by themselves.
  const escapes: Array<[number, number, string]> = [];
  let next = 0;
  for (let chunk = 0; chunk < bytes.length; chunk += SCAN_CHUNK) {
    const end = Math.min(chunk + SCAN_CHUNK, bytes.length);
    let i = Math.max(chunk, next);
    if (i >= end || isAscii(bytes.subarray(i, end))) continue;
    for (; i < end; i++) {
      const lead = bytes[i]!;
      if (lead < 0x80) continue;
      const last = i + (lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2);
      const sequence = bytes.subarray(i, last);
      if (last > bytes.length || !isUtf8(sequence)) return undefined;
      const text = Buffer.from(sequence.buffer, sequence.byteOffset, sequence.length).toString('utf8');
      let escaped = '';
      for (let u = 0; u < text.length; u++) escaped += `\\u${text.charCodeAt(u).toString(16).padStart(4, '0')}`;
      escapes.push([i, last, escaped]);
      i = last - 1;
    }
    next = i;
  }
  // One buffer of the final length, written once: its latin1 string is the one copy V8 keeps (external, 8 MB).
  let length = head.length + bytes.length + tail.length;
  for (const [from, to, escaped] of escapes) length += escaped.length - (to - from);
  const out = Buffer.allocUnsafe(length);
  let at = out.write(head, 0, 'latin1');
  let start = 0;
  for (const [from, to, escaped] of escapes) {
    out.set(bytes.subarray(start, from), at);
    at += from - start;
    at += out.write(escaped, at, 'latin1');
    start = to;
  }
  out.set(bytes.subarray(start), at);
  at += bytes.length - start;
  out.write(tail, at, 'latin1');
  return out.toString('latin1');
}

/** Routes CommonJS loading of the compiler files through cached scripts. Idempotent. */
export function installCodeCache(dir = codeCacheDir()): void {
  if (installed || dir === undefined) return;
  if (!safeDir(dir)) {
    warn(`kernel: not using the V8 code cache in ${dir}: another user owns it or can write to it`);
    return;
  }
  installed = true;
  // The '.js' loader, not Module.prototype._compile: _compile receives the source Node already decoded.
  type Loader = (this: unknown, module: CompilableModule, filename: string) => unknown;
  const loaders = (Module as unknown as { _extensions: Record<string, Loader> })._extensions;
  const load = loaders['.js']!;
  loaders['.js'] = function (this: unknown, module: CompilableModule, filename: string): unknown {
    if (!CACHED.test(filename)) return load.call(this, module, filename);
    let cacheFile: string;
    let source: string | undefined;
    try {
      cacheFile = cacheFileFor(dir, filename);
      source = asciiWrappedSource(readFileSync(filename));
    } catch {
      return load.call(this, module, filename);
    }
    if (source === undefined) return load.call(this, module, filename);
    const cached = readCache(cacheFile);
    const cachedData = cached.kind === 'ok' ? cached.data : undefined;
    // The modification time says when a file was last used: pruning keeps the recently used ones.
    if (cachedData) touch(cacheFile);
    let script: vm.Script;
    try {
      script = new vm.Script(source, { filename, cachedData, importModuleDynamically: undefined });
    } catch {
      // An escape where the language allows none (a non-ASCII space between tokens): Node's own loading.
      return load.call(this, module, filename);
    }
    // Rejected data (another V8 build wrote it, or it is damaged) only costs this compile; it is rewritten.
    if (cached.kind === 'corrupt' || script.cachedDataRejected === true) warn(`kernel: ignored an unusable V8 code cache ${cacheFile}; compiling ${path.basename(filename)} and rewriting it`);
    scripts.push({ filename, script, cacheFile, stale: cachedData === undefined || script.cachedDataRejected === true });
    const fn = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    const mod = module as CompilableModule & Record<string, unknown>;
    const require = Object.assign((id: string) => mod.require(id), {
      resolve: (request: string, options?: { paths?: string[] }) =>
        (Module as unknown as { _resolveFilename(r: string, m: unknown, main: boolean, o?: unknown): string })._resolveFilename(request, mod, false, options),
      cache: (Module as unknown as { _cache: unknown })._cache,
      main: (process as unknown as { mainModule?: unknown }).mainModule,
    });
    return fn.call(mod['exports'], mod['exports'], require, mod, filename, path.dirname(filename));
  };
}

/** The compiler files this process loaded, and whether V8 took each from the cache. */
export function codeCacheEntries(): Array<{ filename: string; fromCache: boolean }> {
  return scripts.map((s) => ({ filename: s.filename, fromCache: s.script.cachedDataRejected === false }));
}

/** True when a compiler file loaded without a usable cache, so saveCodeCache() has something to write. */
export function codeCacheStale(): boolean {
  return scripts.some((s) => s.stale);
}

/**
 * Writes the cache of every script whose cache was missing or rejected, including the functions compiled
 * since it loaded. Call it once the process has done what its first cell will do (the warm-up).
 */
export function saveCodeCache(): number {
  let written = 0;
  for (const entry of scripts) {
    if (!entry.stale) continue;
    entry.stale = false;
    try {
      const data = entry.script.createCachedData();
      mkdirSync(path.dirname(entry.cacheFile), { recursive: true, mode: 0o700 });
      // Another kernel may write the same file at once; a rename never leaves a half-written cache.
      const temp = `${entry.cacheFile}.${process.pid}.tmp`;
      writeFileSync(temp, Buffer.concat([MAGIC, createHash('sha256').update(data).digest(), data]), { mode: 0o600 });
      renameSync(temp, entry.cacheFile);
      written++;
    } catch {
      // A read-only or full disk only costs the next process its compile time.
    }
  }
  // Pruned only when something was added: a process starting from the cache does no directory work.
  const dirs = new Set(written > 0 ? scripts.map((s) => path.dirname(s.cacheFile)) : []);
  for (const dir of dirs) pruneCodeCache(dir);
  return written;
}
