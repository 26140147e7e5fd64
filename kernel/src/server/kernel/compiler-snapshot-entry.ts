/**
 * The script a compiler snapshot is built from (`node --snapshot-blob <blob> --build-snapshot <this, bundled>`;
 * see compiler-snapshot.ts). It loads tslab's converter and its TypeScript, puts the kernel's layers under the
 * compiler's `sys`, builds the program for the working directory and converts the warm-up cells, so a kernel
 * process started from the blob has the lib files, @types/node and the library's declarations parsed, bound
 * and checked before its first instruction. After deserialization it hands the compiler over through a registry
 * slot (taken once, by tslab-compiler.ts) and runs the process's real entry script.
 *
 * A snapshot builder may require only Node's built-ins, so CommonJS packages load through the small loader below,
 * each with its real `__filename` (TypeScript finds its lib files next to itself). Watchers are deferred: no
 * handle may be open when the heap is written; the kernel opens them (~0.12 s for ~130) once its first cell is done.
 */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import type * as TS from 'typescript';
import { prepareCompilerSystem, WARM_UP_CELL } from './compiler-system.js';
import { COMPILER_SNAPSHOT_SLOT, type CompilerSnapshotConfig, type CompilerSnapshotHandoff } from './compiler-snapshot-slot.js';
import { mendConverterSource } from './tslab-converter-fixes.js';

declare const require: (id: string) => unknown;

const config = JSON.parse(process.env['NIGHTHAWK_COMPILER_SNAPSHOT'] ?? 'null') as CompilerSnapshotConfig | null;
if (!config) throw new Error('NIGHTHAWK_COMPILER_SNAPSHOT is not set: this script only builds a compiler snapshot');

interface LoadedModule {
  exports: unknown;
  filename: string;
}
const loaded = new Map<string, LoadedModule>();

function resolveFile(candidate: string): string | undefined {
  for (const file of [candidate, `${candidate}.js`, `${candidate}.json`, path.join(candidate, 'index.js')]) {
    try {
      if (statSync(file).isFile()) return realpathSync(file);
    } catch {
      // next candidate
    }
  }
  return undefined;
}

function resolvePackage(id: string, fromDir: string): string | undefined {
  const [scopeOrName, ...rest] = id.split('/');
  const nameParts = scopeOrName!.startsWith('@') ? 2 : 1;
  const name = id.split('/').slice(0, nameParts).join('/');
  const subpath = (scopeOrName!.startsWith('@') ? rest.slice(1) : rest).join('/');
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const root = path.join(dir, 'node_modules', name);
    if (existsSync(root)) {
      if (subpath) return resolveFile(path.join(root, subpath));
      let main = 'index.js';
      try {
        const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { main?: unknown };
        if (typeof pkg.main === 'string') main = pkg.main;
      } catch {
        // no manifest: index.js
      }
      return resolveFile(path.join(root, main));
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

function load(file: string): unknown {
  const hit = loaded.get(file);
  if (hit) return hit.exports;
  const module: LoadedModule = { exports: {}, filename: file };
  loaded.set(file, module);
  const read = readFileSync(file, 'utf8');
  // tslab's converter, mended as the kernel loads it (tslab-converter-fixes.ts).
  const source = file === config!.converterPath ? mendConverterSource(read, file) : read;
  if (file.endsWith('.json')) {
    module.exports = JSON.parse(source);
    return module.exports;
  }
  const dirname = path.dirname(file);
  const localRequire = (id: string): unknown => {
    if (id.startsWith('node:')) return require(id);
    const target = id.startsWith('.') || path.isAbsolute(id) ? resolveFile(path.resolve(dirname, id)) : resolvePackage(id, dirname);
    if (target) return load(target);
    return require(id); // a built-in (`fs`, `path`), or an optional package missing here (tried and caught)
  };
  const wrapper = vm.compileFunction(source, ['exports', 'require', 'module', '__filename', '__dirname'], { filename: file });
  wrapper.call(module.exports, module.exports, localRequire, module, file, dirname);
  return module.exports;
}

interface TslabConverter {
  convert(prevDecl: string, src: string): unknown;
}

const ts = load(config.tsPath) as typeof TS;
const converterModule = load(config.converterPath) as { createConverter(options: { isJS: boolean; isBrowser: boolean }): TslabConverter };
const { observations, watchDeferral } = prepareCompilerSystem(ts.sys, config.rootDir);
// A snapshot cannot hold open watchers: the program's wait until the kernel that adopts it arms them.
watchDeferral.defer();
const converter = converterModule.createConverter({ isJS: false, isBrowser: false });
// One cell: what later rounds add in a live kernel is optimized code, which a snapshot does not keep.
converter.convert('', WARM_UP_CELL);
const manifest = observations.manifest();

interface NodeModule {
  filename: string;
  paths: string[];
  exports: unknown;
  loaded: boolean;
}
interface NodeModuleClass {
  new (id: string): NodeModule;
  _cache: Record<string, NodeModule>;
  _nodeModulePaths(dir: string): string[];
}

/** Node's module cache gets the modules loaded here, so a later `require` of tslab or its TypeScript finds these. */
function seedModuleCache(): void {
  const Module = require('node:module') as NodeModuleClass;
  for (const { filename, exports } of loaded.values()) {
    if (Module._cache[filename]) continue;
    const module = new Module(filename);
    module.filename = filename;
    module.paths = Module._nodeModulePaths(path.dirname(filename));
    module.exports = exports;
    module.loaded = true;
    Module._cache[filename] = module;
  }
}

v8.startupSnapshot.setDeserializeMainFunction(() => {
  const handoff: CompilerSnapshotHandoff = {
    rootDir: config.rootDir,
    tsPath: config.tsPath,
    converterPath: config.converterPath,
    ts,
    converterModule,
    converter,
    manifest: manifest.json,
    armWatchers: () => watchDeferral.arm(),
  };
  seedModuleCache();
  Object.defineProperty(globalThis, Symbol.for(COMPILER_SNAPSHOT_SLOT), { value: handoff, configurable: true, enumerable: false, writable: false });
  // Node's own entry for process.argv[1] (ESM or CommonJS), as if no snapshot had been used.
  (require('node:module') as { runMain(): void }).runMain();
});
