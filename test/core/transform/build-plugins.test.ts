import { build as esbuild } from 'esbuild';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as viteBuild } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { nighthawkEsbuildPlugin, nighthawkVitePlugin } from '../../../kernel/src/build/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const workDir = path.join(here, '.nighthawk', `plugins-${process.pid}-${Date.now()}`);
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

function writeSource(name: string, source: string): string {
  mkdirSync(workDir, { recursive: true });
  const file = path.join(workDir, name);
  writeFileSync(file, source);
  return file;
}

const GOOD = `import * as nh from 'nighthawk-ts';
export const f = nh.function(async function f(): Promise<number> {
  let n = 1;
  'execute\\nSet <:n>.';
  return n;
});
`;

const BAD = `import * as nh from 'nighthawk-ts';
export const f = nh.function(async function f() {
  const n = 1;
  'execute\\nSet <:n>.';
});
`;

async function esbuildOutput(file: string): Promise<string> {
  const result = await esbuild({
    entryPoints: [file],
    bundle: false,
    format: 'esm',
    write: false,
    logLevel: 'silent',
    plugins: [nighthawkEsbuildPlugin({ root: workDir })],
  });
  return result.outputFiles[0]!.text;
}

describe('esbuild plugin', () => {
  it('rewrites blocks in a .ts module and marks the wrapper call as transformed', async () => {
    const out = await esbuildOutput(writeSource('good.ts', GOOD));
    expect(out).toContain('import { runBlock as nh$runBlock } from "nighthawk-ts"');
    expect(out).toContain('stepId: "good.ts:4"');
    expect(out).toContain('transformed: true, blocks: 1');
  });

  it('leaves a module without a sentinel exactly as esbuild alone would emit it', async () => {
    const plain = "import * as nh from 'nighthawk-ts';\nexport const g = nh.function(async () => 'plain text');\n";
    const file = writeSource('plain.ts', plain);
    const alone = await esbuild({ entryPoints: [file], bundle: false, format: 'esm', write: false, logLevel: 'silent' });
    expect(await esbuildOutput(file)).toBe(alone.outputFiles[0]!.text);
  });

  it('fails the build with the diagnostic at the block location', async () => {
    const file = writeSource('bad.ts', BAD);
    const failure = await esbuildOutput(file).then(
      () => undefined,
      (error: unknown) => error as { errors: { text: string; location: { file: string; line: number; column: number } | null }[] },
    );
    expect(failure?.errors).toHaveLength(1);
    expect(failure!.errors[0]!.text).toContain('<:n>');
    expect(failure!.errors[0]!.location).toMatchObject({ file: expect.stringMatching(/bad\.ts$/), line: 4, column: 2 });
  });
});

describe('Vite plugin', () => {
  const viteConfig = (entry: string) => ({
    configFile: false as const,
    root: workDir,
    logLevel: 'silent' as const,
    plugins: [nighthawkVitePlugin()],
    build: {
      write: false,
      minify: false,
      lib: { entry, formats: ['es' as const], fileName: 'out' },
      rollupOptions: { external: ['nighthawk-ts', 'zod'] },
    },
  });

  it('rewrites blocks before Vite strips the types', async () => {
    const result = await viteBuild(viteConfig(writeSource('vite-good.ts', GOOD)));
    const outputs = Array.isArray(result) ? result : [result];
    const code = outputs.flatMap((o) => ('output' in o ? o.output : [])).map((chunk) => ('code' in chunk ? chunk.code : '')).join('\n');
    expect(code).toContain('stepId: "vite-good.ts:4"');
    expect(code).toMatch(/transformed: true,\s*blocks: 1/);
  });

  it('fails the build with the formatted diagnostic', async () => {
    await expect(viteBuild(viteConfig(writeSource('vite-bad.ts', BAD)))).rejects.toThrow(/vite-bad\.ts:4:3: error: .*<:n>/);
  });
});
