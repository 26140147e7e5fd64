/**
 * V8 code cache for the TypeScript compilers a kernel process loads (tslab's 5.0 fork, and TypeScript 5.9 when
 * generated code is dispatched). Node 20 has no `module.enableCompileCache()`, so CommonJS compilation of the
 * chosen files goes through `vm.Script` with `cachedData`. The cache is written after the kernel's warm-up
 * conversion, so it holds the functions parsing and checking a cell needs, not only the top-level code: the
 * next kernel process neither parses the 9 MB compiler nor lazily compiles those functions again.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
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
  _compile(content: string, filename: string): unknown;
  require(id: string): unknown;
}

/** Files large enough that their compile time matters for a kernel's start. */
const CACHED = /[\\/](?:@tslab[\\/]typescript-for-tslab|typescript)[\\/]lib[\\/]typescript\.js$/;

const scripts: CachedScript[] = [];
let installed = false;

/** `NIGHTHAWK_CODE_CACHE_DIR`, `off` to disable; by default a per-user directory under the system temp dir. */
export function codeCacheDir(): string | undefined {
  const configured = process.env['NIGHTHAWK_CODE_CACHE_DIR'];
  if (configured === 'off') return undefined;
  return configured || path.join(os.tmpdir(), `nighthawk-code-cache-${os.userInfo().uid}`);
}

function cacheFileFor(dir: string, filename: string): string {
  const stat = statSync(filename);
  const key = createHash('sha256')
    .update(`${process.version}\0${process.arch}\0${filename}\0${stat.size}\0${stat.mtimeMs}`)
    .digest('hex')
    .slice(0, 24);
  return path.join(dir, `${path.basename(filename, '.js')}-${key}.v8`);
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Routes CommonJS compilation of the compiler files through cached scripts. Idempotent. */
export function installCodeCache(dir = codeCacheDir()): void {
  if (installed || dir === undefined) return;
  installed = true;
  const proto = (Module as unknown as { prototype: CompilableModule }).prototype;
  const compile = proto._compile;
  proto._compile = function (this: CompilableModule & Record<string, unknown>, content: string, filename: string): unknown {
    if (!CACHED.test(filename)) return compile.call(this, content, filename);
    let cacheFile: string;
    try {
      cacheFile = cacheFileFor(dir, filename);
    } catch {
      return compile.call(this, content, filename);
    }
    const cachedData = readCache(cacheFile);
    const wrapper = (Module as unknown as { wrap(source: string): string }).wrap(content);
    const script = new vm.Script(wrapper, { filename, cachedData, importModuleDynamically: undefined });
    scripts.push({ filename, script, cacheFile, stale: cachedData === undefined || script.cachedDataRejected === true });
    const fn = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    const mod = this;
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
      mkdirSync(path.dirname(entry.cacheFile), { recursive: true });
      // Another kernel may write the same file at once; a rename never leaves a half-written cache.
      const temp = `${entry.cacheFile}.${process.pid}.tmp`;
      writeFileSync(temp, data);
      renameSync(temp, entry.cacheFile);
      written++;
    } catch {
      // A read-only or full disk only costs the next process its compile time.
    }
  }
  return written;
}
