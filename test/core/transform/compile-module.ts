/**
 * Compiles a TypeScript module with the esbuild plugin (bundle off, ESM) into a scratch folder in
 * this directory, so `zod` and the library source resolve, then imports it under vitest's loader.
 */
import { build } from 'esbuild';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { nighthawkEsbuildPlugin } from '../../../kernel/src/build/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The library's source entry: the compiled modules import `runBlock` (and `nh`) from it. */
export const ENTRY = path.resolve(here, '../../../kernel/src/index.ts');
// `.nighthawk/` is git-ignored.
const workDir = path.join(here, '.nighthawk', `compile-${process.pid}-${Date.now()}`);

let counter = 0;

export async function compileModule<T>(source: string, name = `module${counter++}`): Promise<T> {
  mkdirSync(workDir, { recursive: true });
  const input = path.join(workDir, `${name}.ts`);
  writeFileSync(input, source);
  await build({
    entryPoints: [input],
    outdir: workDir,
    outExtension: { '.js': '.mjs' },
    bundle: false,
    format: 'esm',
    platform: 'node',
    write: true,
    logLevel: 'silent',
    plugins: [nighthawkEsbuildPlugin({ runtimeModule: ENTRY, root: workDir })],
  });
  return (await import(path.join(workDir, `${name}.mjs`))) as T;
}

export function removeCompiledModules(): void {
  rmSync(workDir, { recursive: true, force: true });
}
