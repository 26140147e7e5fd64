/** Deterministic validation of export kinds, intent/source mismatch and syntax, without false positives on ordinary code. */
import { describe, expect, it } from 'vitest';
import { validateGeneratedSource, type CodeProposal } from '../../../kernel/src/harness/generated/index.js';

const ts = (source: string, extra: Partial<CodeProposal> = {}): CodeProposal => ({ language: 'typescript', intent: 'define', source, ...extra });
const rules = (p: CodeProposal): string[] => {
  const r = validateGeneratedSource(p);
  return r.ok ? [] : r.violations.map((v) => v.rule);
};

describe('export kinds', () => {
  it('functions, async functions, Natural functions and values are exported with their kinds', () => {
    const result = validateGeneratedSource(
      ts(`
        export function add(a: number, b: number) { return a + b; }
        export async function load() { return 1; }
        export const double = (x: number) => x * 2;
        export const summarize = naturalFunction(async () => 'x');
        export const limit = 10;
        function helper() { return 1; }
        export { helper as aliased };
        export default add;`),
    );
    expect(result).toEqual({
      ok: true,
      exports: [
        { name: 'add', kind: 'function', line: 2 },
        { name: 'load', kind: 'async-function', line: 3 },
        { name: 'double', kind: 'function', line: 4 },
        { name: 'summarize', kind: 'natural-function', line: 5 },
        { name: 'limit', kind: 'value', line: 6 },
        { name: 'aliased', kind: 'function', line: 8 },
        { name: 'default', kind: 'function', line: 9 },
      ],
    });
  });

  it.each([
    ['export class', 'export class A {}'],
    ['export default class', 'export default class {}'],
    ['a class exported by name', 'class A {}\nexport { A };'],
    ['a class expression', 'export const A = class {};'],
  ])('%s is rejected as class-export', (_label, source) => {
    expect(rules(ts(source))).toEqual(['class-export']);
  });

  it('a class used as a private helper is allowed', () => {
    expect(validateGeneratedSource(ts('class A { x = 1; }\nexport function make() { return new A().x; }')).ok).toBe(true);
  });

  it.each([
    ['a generator expression (a generator lambda)', 'export const g = function* () { yield 1; };'],
    ['a generator expression passed as a callback', 'export function f() { return [1].map(function* (x) { yield x; }); }'],
    ['a generator method', 'export const o = { *g() { yield 1; } };'],
    ['an async generator method', 'export const o = { async *g() { yield 1; } };'],
    ['a generator method of a private class', 'class A { *g() { yield 1; } }\nexport function f() { return new A(); }'],
  ])('%s is rejected as generator', (_label, source) => {
    expect(rules(ts(source))).toContain('generator');
  });

  it.each([
    ['an async method of an object literal', 'export const o = { async load() { return 1; } };'],
    ['an async method of a private class', 'class A { async load() { return 1; } }\nexport function f() { return new A(); }'],
  ])('%s is rejected as a coroutine method (seed 001)', (_label, source) => {
    expect(rules(ts(source))).toEqual(['coroutine-method']);
  });

  it('async arrow functions held by properties are not methods and stay allowed', () => {
    expect(validateGeneratedSource(ts('export const o = { load: async () => 1 };')).ok).toBe(true);
  });

  it.each([
    ['a generator declaration', 'export function* g() { yield 1; }', 'function'],
    ['an async generator declaration', 'export async function* g() { yield 1; }', 'function'],
  ])('%s is accepted: it is compiled to a guarded proxy', (_label, source, kind) => {
    expect(validateGeneratedSource(ts(source))).toEqual({ ok: true, exports: [{ name: 'g', kind, line: 1 }] });
  });

  it.each([
    ['re-exports', "export { join } from 'node:path';"],
    ['export =', 'export = 1;'],
    ['destructured exports', 'export const { a } = { a: 1 };'],
    ['enums', 'export enum E { A }'],
  ])('%s are rejected as export-form', (_label, source) => {
    expect(rules(ts(source))).toContain('export-form');
  });
});

describe('intent/source mismatch', () => {
  const entry = (source: string, entryName?: string) => rules(ts(source, { intent: 'define-and-invoke', entry: entryName }));

  it('define-and-invoke with a sync function entry is accepted', () => {
    expect(entry('export function main() { return 1; }', 'main')).toEqual([]);
  });
  it('define-and-invoke without an entry is a mismatch', () => {
    expect(entry('export function main() {}')).toEqual(['intent-mismatch']);
  });
  it('an entry that is not exported is a mismatch', () => {
    expect(entry('function main() {}\nexport const x = 1;', 'main')).toEqual(['intent-mismatch']);
  });
  it('an async entry is a mismatch', () => {
    expect(entry('export async function main() {}', 'main')).toEqual(['intent-mismatch']);
  });
  it('a Natural function entry is a mismatch', () => {
    expect(entry('export const main = naturalFunction(async () => 1);', 'main')).toEqual(['intent-mismatch']);
  });
  it('a value entry is a mismatch', () => {
    expect(entry('export const main = 3;', 'main')).toEqual(['intent-mismatch']);
  });
  it('define with an entry or args is a mismatch', () => {
    expect(rules(ts('export function main() {}', { entry: 'main' }))).toEqual(['intent-mismatch']);
    expect(rules(ts('export function main() {}', { args: [1] }))).toEqual(['intent-mismatch']);
  });
});

describe('syntax and unsupported forms', () => {
  it('a syntax error is reported with its position', () => {
    const r = validateGeneratedSource(ts('export function f( {'));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.violations[0]).toMatchObject({ rule: 'syntax', line: 1 });
  });
  it('type annotations in a JavaScript proposal are a syntax violation', () => {
    expect(rules({ language: 'javascript', intent: 'define', source: 'export const x: number = 1;' })).toContain('syntax');
  });
  it('top-level await is rejected', () => {
    expect(rules(ts('await Promise.resolve();'))).toContain('top-level-await');
  });
  it('using declarations and import.meta are rejected', () => {
    expect(rules(ts('export function f(r: Disposable) { using x = r; }'))).toContain('unsupported-syntax');
    expect(rules(ts('export const u = import.meta.url;'))).toContain('unsupported-syntax');
  });
  it('dependency names that the host binds or reserves are rejected', () => {
    const deps = (name: string) => rules(ts('export const x = 1;', { dependencies: [{ name, kind: 'reference', type: 'number' }] }));
    expect(deps('eval')).toEqual(['dependency-name']);
    expect(deps('__nh_x')).toEqual(['dependency-name']);
    expect(deps('class')).toEqual(['dependency-name']);
    expect(deps('a-b')).toEqual(['dependency-name']);
  });
});

describe('no false positives on ordinary code', () => {
  it.each([
    ['constructor name and comparison', 'export const f = (x: object) => x.constructor.name + String(x.constructor === Object);'],
    ['instanceof Function and typeof Function', 'export const f = (x: unknown) => x instanceof Function && typeof Function;'],
    ['Function in a type position', 'export const f = (x: Function): Function => x;'],
    ['computed access on ordinary objects', 'export const f = (o: Record<string, number>, k: string) => o[k];'],
    ['a local named self', 'export function f() { const self = { a: 1 }; const k = "a"; return self[k as "a"]; }'],
    ['literal imports of ordinary modules', "import { join } from 'node:path';\nexport const f = () => join('a', 'b');"],
    ['setTimeout with a function', 'export const f = () => setTimeout(() => {}, 0);'],
    ['literal property access on the global object', 'export const f = () => globalThis.Math.max(1, 2);'],
    ['type-only imports', "import type { Script } from 'node:vm';\nexport const f = (s: Script) => s;"],
  ])('%s is accepted', (_label, source) => {
    expect(validateGeneratedSource(ts(source))).toMatchObject({ ok: true });
  });

  it('validation is deterministic for equal input', () => {
    const p = ts('eval("1"); with (x) {}\nexport class A {}\nexport const b = globalThis[k];');
    expect(validateGeneratedSource(p)).toEqual(validateGeneratedSource({ ...p }));
  });
});
