import { describe, expect, it } from 'vitest';
import { formatTransformDiagnostic, transformNaturalBlocks } from '../../../kernel/src/core/transform/index.js';

function diagnose(lines: string[]) {
  const source = [`import * as nh from 'nighthawk-ts';`, ...lines, ''].join('\n');
  return transformNaturalBlocks(source, { fileName: 'diag.ts' }).diagnostics;
}

describe('block transform diagnostics', () => {
  it('a write binding to a const is an error naming the binding at the block line', () => {
    const diagnostics = diagnose([
      'export const f = nh.function(async function f() {',
      '  const answer = 1;',
      "  'execute\\nSet <:answer>.';",
      '});',
    ]);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: 'write-to-constant', severity: 'error', bindingName: 'answer', line: 4, column: 3 });
    expect(diagnostics[0]!.message).toContain('<:answer>');
    expect(formatTransformDiagnostic(diagnostics[0]!)).toMatch(/^diag\.ts:4:3: error: /);
  });

  it('write bindings to imports and function declarations are refused like const', () => {
    const diagnostics = diagnose([
      "import { helper } from './helper.js';",
      'export const f = nh.function(async function f() {',
      '  function local() {}',
      "  'execute\\nSet <:helper> and <:local>.';",
      '});',
    ]);
    expect(diagnostics.map((d) => [d.code, d.bindingName])).toEqual([
      ['write-to-constant', 'helper'],
      ['write-to-constant', 'local'],
    ]);
  });

  it('write bindings to parameters, var and catch variables are allowed', () => {
    const diagnostics = diagnose([
      'export const f = nh.function(async function f(p: number) {',
      '  var v = 1;',
      '  try { throw 1; } catch (e) {',
      "    'execute\\nSet <:p>, <:v> and <:e>.';",
      '  }',
      '});',
    ]);
    expect(diagnostics).toEqual([]);
  });

  it('an undeclared write binding tells the user to declare it with let', () => {
    const diagnostics = diagnose(['export const f = nh.function(async function f() {', "  'execute\\nSet <:fresh>.';", '});']);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: 'undeclared-write', severity: 'error', bindingName: 'fresh' });
    expect(diagnostics[0]!.message).toContain('let fresh');
  });

  it('a read binding that names nothing in scope is reported with its name; globals are not', () => {
    const diagnostics = diagnose([
      'export const f = nh.function(async function f() {',
      "  'execute\\nCompare <missing> with <Math> and <a.b>.';",
      '});',
    ]);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: 'unresolved-read', bindingName: 'missing', line: 3 });
    expect(diagnostics[0]!.message).toContain('<missing>');
  });

  it('a block in a non-async wrapped function is an error (Natural functions are always async)', () => {
    const diagnostics = diagnose(['export const f = nh.function(function f() {', "  'execute\\nDo it.';", '});']);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: 'sync-natural-function', severity: 'error', line: 2 });
  });

  it('a block outside a wrapped function is an error and is left as it was', () => {
    const source = "async function plain() {\n  'execute\\nDo it.';\n}\n";
    const result = transformNaturalBlocks(source, { fileName: 'diag.ts' });
    expect(result.diagnostics.map((d) => d.code)).toEqual(['block-outside-natural-function']);
    expect(result.code).toBe(source);
    expect(result.blockCount).toBe(0);
  });

  it('a block in a nested function of a wrapped function is outside a Natural function', () => {
    const diagnostics = diagnose([
      'export const f = nh.function(async function f() {',
      "  const inner = async () => { 'execute\\nDo it.'; };",
      '});',
    ]);
    expect(diagnostics.map((d) => d.code)).toEqual(['block-outside-natural-function']);
  });

  it('a binding token spanning an interpolation is an error', () => {
    const diagnostics = diagnose([
      'export const f = nh.function(async function f(name: string) {',
      '  `execute\nRead <${name}> now.`;',
      '});',
    ]);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: 'spanning-interpolation', severity: 'error' });
    expect(diagnostics[0]!.message).toContain('<${…}>');
  });

  it('invalid frontmatter and a decide block without exactly one write binding are reported', () => {
    const diagnostics = diagnose([
      'export const f = nh.function(async function f() {',
      "  'execute\\n---\\ndeny: [teleport]\\n---\\nDo it.';",
      "  'decide\\nPick nothing.';",
      '});',
    ]);
    expect(diagnostics.map((d) => [d.code, d.line])).toEqual([
      ['invalid-program', 3],
      ['invalid-program', 4],
    ]);
    expect(diagnostics[0]!.message).toContain('teleport');
  });

  it('wrapper options that cannot be read statically give a warning and fall back to annotations', () => {
    const diagnostics = diagnose([
      'export const f = nh.function(async function f() {',
      '  let n: number = 0;',
      "  'execute\\nSet <:n>.';",
      '}, makeOptions());',
    ]);
    expect(diagnostics.map((d) => [d.code, d.severity])).toEqual([['unreadable-bindings-option', 'warning']]);
  });
});
