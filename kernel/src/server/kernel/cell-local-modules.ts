/**
 * Local TypeScript modules a cell imports (`import { tool } from './tools'`). The cell's program type-checks them
 * with the cell; at run time Node's require cannot load a .ts file ("Cannot find module './tools'"), so a cell's
 * require loads them itself: transpiled by the kernel's TypeScript (checked already, so no second check), as
 * CommonJS, each with a require of the same kind for its own local imports. The host's transform runs first, as
 * for cells: Natural blocks in a helper module work as they do in a cell. A module whose file changed since it
 * was loaded is loaded again by the next require (a notebook edits its helpers and re-runs the importing cell); an
 * unchanged one keeps its instance and its state. Everything else (packages, .js, .json) loads as Node loads it.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import type * as TS from 'typescript';
import { loadCommonJsModule, newCommonJsModule, type CommonJsModule } from './commonjs-module.js';

const TS_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts'];
const JS_EXTENSIONS = ['.js', '.jsx', '.mjs', '.cjs'];

type Transpiler = Pick<typeof TS, 'transpileModule' | 'ModuleKind' | 'ScriptTarget' | 'JsxEmit'>;

const isFile = (file: string): boolean => {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
};

/** The TypeScript file a relative or absolute specifier names, when Node itself would find no JavaScript there. */
export function resolveLocalTypeScript(id: string, fromDir: string): string | undefined {
  if (!(id.startsWith('./') || id.startsWith('../') || id === '.' || id === '..' || path.isAbsolute(id))) return undefined;
  const target = path.resolve(fromDir, id);
  const ext = path.extname(target);
  if (TS_EXTENSIONS.includes(ext)) return isFile(target) ? target : undefined;
  if (isFile(target)) return undefined; // a file Node loads (.js, .json, .node)
  // `./math.js` naming `./math.ts`, as TypeScript's ESM style writes it.
  if (JS_EXTENSIONS.includes(ext)) {
    const stem = target.slice(0, -ext.length);
    return TS_EXTENSIONS.map((e) => stem + e).find(isFile);
  }
  if ([...JS_EXTENSIONS, '.json', '.node'].some((e) => isFile(target + e))) return undefined;
  return [...TS_EXTENSIONS.map((e) => target + e), ...TS_EXTENSIONS.map((e) => path.join(target, `index${e}`))].find(isFile);
}

/** A local module the host's transform refused (a Natural block it cannot compile), named with its file. */
export class LocalModuleError extends Error {
  override readonly name = 'LocalModuleError';
}

/** Loads local TypeScript modules for the cells of one compiler; one instance per file while the file is unchanged. */
export class LocalModules {
  readonly #loaded = new Map<string, { hash: string; module: CommonJsModule }>();

  constructor(
    private readonly ts: Transpiler,
    private readonly transform: (source: string) => string = (source) => source,
  ) {}

  /** `base` (a require made for `fromDir`), with local TypeScript files loaded here. */
  require(base: NodeJS.Require, fromDir: string): NodeJS.Require {
    return new Proxy(base, {
      apply: (target, thisArg, args: unknown[]) => {
        const id = args[0];
        const file = args.length === 1 && typeof id === 'string' ? resolveLocalTypeScript(id, fromDir) : undefined;
        return file === undefined ? Reflect.apply(target, thisArg, args) : this.#load(file);
      },
    });
  }

  #load(file: string): unknown {
    const source = readFileSync(file, 'utf8');
    const hash = createHash('sha256').update(source).digest('base64');
    const known = this.#loaded.get(file);
    if (known?.hash === hash) return known.module.exports;
    let transformed: string;
    try {
      transformed = this.transform(source);
    } catch (error) {
      throw new LocalModuleError(`${path.relative(process.cwd(), file) || file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    const { outputText } = this.ts.transpileModule(transformed, {
      fileName: file,
      compilerOptions: { module: this.ts.ModuleKind.CommonJS, target: this.ts.ScriptTarget.ES2022, esModuleInterop: true, jsx: this.ts.JsxEmit.React },
    });
    const module = newCommonJsModule(file);
    const own = Module.prototype.require as (this: CommonJsModule, id: string) => unknown;
    module.require = this.require(((id: string) => own.call(module, id)) as NodeJS.Require, path.dirname(file)) as (id: string) => unknown;
    // Registered before it runs, so an import cycle meets the partial exports, as Node's loader gives.
    this.#loaded.set(file, { hash, module });
    return loadCommonJsModule(module, outputText, () => this.#loaded.delete(file));
  }
}
