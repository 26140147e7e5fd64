import { describe, expect, it } from 'vitest';
import { mayContainNaturalBlocks, transformNaturalBlocks } from '../../../kernel/src/core/transform/index.js';

const HEAD = `import * as nh from 'nighthawk-ts';\n`;

function transform(body: string, fileName = 'demo.ts') {
  return transformNaturalBlocks(HEAD + body, { fileName });
}

/** The spec object literal of the n-th emitted runBlock call, as text. */
function specOf(code: string, index = 0): string {
  const calls = code.split('nh$runBlock({').slice(1);
  const text = calls[index];
  if (!text) throw new Error(`no runBlock call #${index} in:\n${code}`);
  return text.slice(0, text.indexOf('});'));
}

describe('block transform output', () => {
  it('a source without a sentinel is returned unchanged and reports no blocks', () => {
    const source = HEAD + `export const f = nh.function(async function f() { return 'execute'; });\n`;
    expect(mayContainNaturalBlocks(source)).toBe(false);
    expect(transformNaturalBlocks(source, { fileName: 'x.ts' })).toEqual({ code: source, diagnostics: [], blockCount: 0 });
  });

  it('every line keeps its line number after the rewrite', () => {
    const body = [
      'export const f = nh.function(async function f(): Promise<number> {',
      '  let total = 0;',
      '  `execute',
      '  Add one to <:total>.',
      '  Then return it.`;',
      '  const marker = "after the block";',
      '  return total;',
      '});',
      '',
    ].join('\n');
    const { code, blockCount, diagnostics } = transform(body);
    expect(diagnostics).toEqual([]);
    expect(blockCount).toBe(1);
    const inLines = (HEAD + body).split('\n');
    const outLines = code.split('\n');
    expect(outLines).toHaveLength(inLines.length);
    expect(outLines.indexOf('  const marker = "after the block";')).toBe(inLines.indexOf('  const marker = "after the block";'));
    expect(outLines[3]).toContain('nh$runBlock');
  });

  it('injects the runtime import under a reserved name, from the configured module', () => {
    const body = `export const f = nh.function(async function f() { 'execute\\nDo it.'; });\n`;
    const custom = transformNaturalBlocks(HEAD + body, { fileName: 'a.ts', runtimeModule: '/abs/kernel/src/index.ts' });
    expect(custom.code.startsWith('import { runBlock as nh$runBlock } from "/abs/kernel/src/index.ts";')).toBe(true);
    expect(transform(body).code.startsWith('import { runBlock as nh$runBlock } from "nighthawk-ts";')).toBe(true);
  });

  it('the step id is the file name and the line of the block', () => {
    const body = `export const f = nh.function(async function f() {\n  let x = 1;\n  'execute\\nUse <x>.';\n});\n`;
    expect(specOf(transform(body, 'src/agents/plan.ts').code)).toContain('stepId: "src/agents/plan.ts:4"');
  });

  it('lists every local in scope as a getter thunk, and module-level names only when the program references them', () => {
    const body = [
      'const unrelated = 1;',
      'const limit = 3;',
      'export const f = nh.function(async function f(a: number, { b, c: [d] }: { b: number; c: number[] }) {',
      '  var early = 1;',
      '  function helper() { return 1; }',
      '  for (const item of [1]) {',
      '    try { throw 1; } catch (caught) {',
      "      'execute\\nCompare <a> with <limit>.';",
      '      const laterInBlock = 2;',
      '    }',
      '  }',
      '  if (a) { var hoisted = 2; let hidden = 3; }',
      '  const after = 4;',
      '});',
      '',
    ].join('\n');
    const spec = specOf(transform(body).code);
    const scope = /scope: \{ (.*?) \}, writes/.exec(spec)![1]!.split(', ').map((entry) => entry.split(':')[0]);
    expect(new Set(scope)).toEqual(
      new Set(['laterInBlock', 'caught', 'item', 'early', 'helper', 'after', 'hoisted', 'a', 'b', 'd', 'f', 'limit']),
    );
    expect(spec).toContain('a: () => a');
  });

  it('write-back is guarded per binding and cast to the declared annotation', () => {
    const body = [
      'export const f = nh.function(async function f() {',
      "  let mode: 'fast' | 'slow' = 'fast';",
      '  let count = 0;',
      "  'execute\\nSet <:mode> and <:count>.';",
      '});',
      '',
    ].join('\n');
    const { code } = transform(body);
    expect(code).toContain(`assign: (nh$b: Readonly<Record<string, unknown>>) => { if ("mode" in nh$b) mode = nh$b["mode"] as 'fast' | 'slow';`);
    expect(code).toContain(`if ("count" in nh$b) count = nh$b["count"] as typeof count; }`);
    expect(specOf(code)).toContain('writes: { mode: nh$z.union([nh$z.literal("fast"), nh$z.literal("slow")]), count: undefined }');
    expect(code).toContain('import { z as nh$z } from "zod";');
  });

  it('derives zod schemas from simple annotations and leaves other types to run-time inference', () => {
    const body = [
      'export const f = nh.function(async function f() {',
      '  let a: string[] = [];',
      '  let b: Array<{ id: number; tag?: string | null }> = [];',
      '  let c: readonly [boolean, bigint] = [true, 1n];',
      '  let d: Map<string, number> = new Map();',
      '  let e: -1 | 0 | 1 = 0;',
      "  'execute\\nFill <:a>, <:b>, <:c>, <:d>, <:e>.';",
      '});',
      '',
    ].join('\n');
    const spec = specOf(transform(body).code);
    expect(spec).toContain('a: nh$z.array(nh$z.string())');
    expect(spec).toContain(
      'b: nh$z.array(nh$z.object({ id: nh$z.number(), tag: nh$z.union([nh$z.string(), nh$z.null()]).optional() }))',
    );
    expect(spec).toContain('c: nh$z.tuple([nh$z.boolean(), nh$z.bigint()])');
    expect(spec).toContain('d: undefined');
    expect(spec).toContain('e: nh$z.union([nh$z.literal(-1), nh$z.literal(0), nh$z.literal(1)])');
  });

  it('an explicit schema in the wrapper options wins over the annotation', () => {
    const body = [
      'export const f = nh.function(async function f() {',
      '  let n: number = 0;',
      "  'execute\\nSet <:n>.';",
      '}, { bindings: { n: z.number().int() } });',
      '',
    ].join('\n');
    const { code } = transform(body);
    expect(specOf(code)).toContain('writes: { n: z.number().int() }');
    expect(code).toContain('{ ...({ bindings: { n: z.number().int() } }), transformed: true, blocks: 1 }');
  });

  it('explicit schemas from an options variable are looked up at run time, falling back to the annotation', () => {
    const body = [
      'const opts = { bindings: { n: z.number().int() } };',
      'export const f = nh.function(async function f() {',
      '  let n: number = 0;',
      "  'execute\\nSet <:n>.';",
      '}, opts);',
      '',
    ].join('\n');
    const { code } = transform(body);
    expect(specOf(code)).toContain('writes: { n: opts.bindings?.["n"] ?? nh$z.number() }');
    expect(code).toContain('{ ...(opts), transformed: true, blocks: 1 }');
  });

  it('the return annotation Promise<T> becomes the returns schema and the cast of the returned value', () => {
    const body = `export const f = nh.function(async (): Promise<{ ok: boolean }> => { 'execute\\nDecide.'; return { ok: true }; });\n`;
    const { code } = transform(body);
    expect(specOf(code)).toContain('returns: nh$z.object({ ok: nh$z.boolean() })');
    expect(code).toContain('return nh$r.value as { ok: boolean };');
  });

  it('break and continue are emitted only inside a loop of the same function', () => {
    const body = [
      'export const f = nh.function(async function f() {',
      '  for (;;) {',
      "    'execute\\nIn loop.';",
      '    const inner = async () => 1;',
      '  }',
      "  'execute\\nNot in loop.';",
      '});',
      '',
    ].join('\n');
    const { code } = transform(body);
    expect(specOf(code, 0)).toContain('inLoop: true');
    expect(specOf(code, 1)).toContain('inLoop: false');
    const lines = code.split('\n');
    expect(lines[3]).toContain('if (nh$r.kind === "break") break;');
    expect(lines[3]).toContain('if (nh$r.kind === "continue") continue;');
    expect(lines[6]).not.toContain('break');
  });

  it('a switch between the block and its loop gets a labelled break', () => {
    const body = [
      'export const f = nh.function(async function f(k: number) {',
      '  while (true) {',
      '    switch (k) {',
      "      case 1: 'execute\\nPick.';",
      '    }',
      '  }',
      '});',
      '',
    ].join('\n');
    const { code } = transform(body);
    expect(code).toContain('nh$loop_0: while (true) {');
    expect(code).toContain('break nh$loop_0;');
  });

  it('keeps \\< escapes from the raw literal and cooks every other escape', () => {
    const body = `export const f = nh.function(async function f() { 'execute\\nShow \\<tag> and \\\\<other>, tab\\there \\u0041.'; });\n`;
    const { code, diagnostics } = transform(body);
    expect(specOf(code)).toContain('program: "execute\\nShow \\\\<tag> and \\\\<other>, tab\\there A."');
    // Escaped tokens are no read bindings, so nothing is reported as unresolved.
    expect(diagnostics).toEqual([]);
  });

  it('a template block keeps its interpolations and escapes interpolated text so it creates no binding', () => {
    const body = 'export const f = nh.function(async function f(topic: string) {\n  let out = "";\n  `execute\n  Write about ${topic} into <:out>.`;\n});\n';
    const { code, diagnostics } = transform(body);
    expect(diagnostics).toEqual([]);
    expect(specOf(code)).toContain('program: `execute\\n  Write about ${nh$escape(topic)} into <:out>.`');
    expect(code).toContain('const nh$escape = (value: unknown): string => String(value).replace(/</g, "\\\\<");');
  });

  it('marks every wrapper call as transformed with its block count, including imported aliases', () => {
    const source = [
      "import { naturalFunction as natural, function as fn } from 'nighthawk-ts';",
      "export const a = natural(async () => { 'execute\\nOne.'; 'decide\\nTwo <:x>.'; }, );",
      'export const b = fn(async function b() { return 1; });',
      "export const c = (async function c() { 'execute\\nNot wrapped.'; });",
      '',
    ].join('\n');
    const { code, blockCount, diagnostics } = transformNaturalBlocks(source, { fileName: 'm.ts' });
    expect(blockCount).toBe(2);
    expect(code).toContain('}, { transformed: true, blocks: 2 }, );');
    expect(code).toContain('return 1; }, { transformed: true, blocks: 0 });');
    expect(diagnostics.map((d) => d.code)).toEqual(['undeclared-write', 'block-outside-natural-function']);
  });
});

describe('block transform header', () => {
  it('goes after a shebang, leading comments and triple-slash directives, on the first statement line', () => {
    const source = [
      '#!/usr/bin/env node',
      '/// <reference types="node" />',
      '// A leading comment.',
      "import * as nh from 'nighthawk-ts';",
      "export const f = nh.function(async () => { 'execute\\nGo.'; });",
      '',
    ].join('\n');
    const lines = transformNaturalBlocks(source, { fileName: 'h.ts' }).code.split('\n');
    expect(lines.slice(0, 3)).toEqual(source.split('\n').slice(0, 3));
    expect(lines[3]).toBe(`import { runBlock as nh$runBlock } from "nighthawk-ts"; import * as nh from 'nighthawk-ts';`);
  });
});
