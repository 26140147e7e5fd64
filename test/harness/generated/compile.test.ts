/** Guarded compilation: wrapped exports, sibling calls through wrappers, declared dependencies only, module rules. */
import { describe, expect, it } from 'vitest';
import { naturalFunction } from '../../../kernel/src/core/index.js';
import {
  compileGenerated,
  DependencyMismatchError,
  GeneratedExportError,
  GeneratedModuleRefusedError,
  type CodeProposal,
  type CompileOptions,
} from '../../../kernel/src/harness/generated/index.js';

const base = (over: Partial<CompileOptions> = {}): CompileOptions => ({ onAnomaly: () => {}, isLive: () => true, dependencies: {}, ...over });
const define = (source: string, over: Partial<CodeProposal> = {}): CodeProposal => ({ language: 'typescript', intent: 'define', source, ...over });

describe('compileGenerated', () => {
  it('function exports are host wrappers and sibling calls inside the module go through them', () => {
    const calls: string[] = [];
    const compiled = compileGenerated(
      define(`
        export function total(xs: number[]) { return xs.reduce((a, x) => add(a, x), 0); }
        export function add(a: number, b: number) { return a + b; }
        export const twice = (x: number) => add(x, x);`),
      base({ wrapExport: (name, fn) => (...args) => (calls.push(name), fn(...args)) }),
    );
    expect((compiled.exports.total as (xs: number[]) => number)([1, 2, 3])).toBe(6);
    expect(calls).toEqual(['total', 'add', 'add', 'add']);
    calls.length = 0;
    expect((compiled.exports.twice as (x: number) => number)(4)).toBe(8);
    expect(calls).toEqual(['twice', 'add']);
  });

  it('a returned sibling is the wrapper, not the raw function', () => {
    const wrappers = new Set<unknown>();
    const compiled = compileGenerated(
      define('export function a() { return b; }\nexport function b() { return 1; }'),
      base({ wrapExport: (_name, fn) => { const w = (...args: unknown[]) => fn(...args); wrappers.add(w); return w; } }),
    );
    const returned = (compiled.exports.a as () => unknown)();
    expect(returned).toBe(compiled.exports.b);
    expect(wrappers.has(returned)).toBe(true);
  });

  it('exports are frozen and keep value exports as they are', () => {
    const compiled = compileGenerated(define('export const config = { n: 1 };\nexport const n = 2;'), base());
    expect(compiled.exports).toEqual({ config: { n: 1 }, n: 2 });
    expect(Object.isFrozen(compiled.exports)).toBe(true);
  });

  it('a define-and-invoke entry is a sync function export that can be invoked with the proposal args', () => {
    const p = define('export function main(a: number, b: number) { return a * b; }', { intent: 'define-and-invoke', entry: 'main', args: [6, 7] });
    const compiled = compileGenerated(p, base());
    expect((compiled.exports[p.entry!] as (...a: unknown[]) => unknown)(...p.args!)).toBe(42);
  });

  it('an export that turns out to be a class at materialisation is rejected', () => {
    expect(() => compileGenerated(define('function make() { return class {}; }\nexport const C = make();'), base())).toThrow(GeneratedExportError);
  });

  it('a Natural function export is reported with the natural-function kind', () => {
    const compiled = compileGenerated(
      define('export const summarize = naturalFunction(async (text: string) => text.length);', {
        dependencies: [{ name: 'naturalFunction', kind: 'reference', type: 'typeof naturalFunction' }],
      }),
      base({ dependencies: { naturalFunction } }),
    );
    expect(compiled.exportInfo).toEqual([{ name: 'summarize', kind: 'natural-function', line: 1 }]);
    expect(typeof compiled.exports.summarize).toBe('function');
  });

  it('a value export that is a function at run time is wrapped and reported as a function', () => {
    const wrapped: string[] = [];
    const compiled = compileGenerated(
      define('function make() { return async () => 1; }\nexport const f = make();'),
      base({ wrapExport: (name, fn) => (wrapped.push(name), fn) }),
    );
    expect(wrapped).toEqual(['f']);
    expect(compiled.exportInfo).toEqual([{ name: 'f', kind: 'async-function', line: 2 }]);
  });

  it('only declared dependencies are bound', () => {
    const compiled = compileGenerated(
      define('export const f = () => typeof secret + ":" + typeof lookup;', {
        dependencies: [{ name: 'lookup', kind: 'capability', type: '(k: string) => string' }],
      }),
      base({ dependencies: { lookup: (k: string) => k, secret: 'not declared' } }),
    );
    expect((compiled.exports.f as () => string)()).toBe('undefined:function');
  });

  it('a declared dependency that is not supplied, or a capability that is not callable, is rejected before the body', () => {
    let ran = 0;
    const p = define('touch();\nexport const x = 1;', {
      dependencies: [
        { name: 'touch', kind: 'capability', type: '() => void' },
        { name: 'limit', kind: 'capability', type: '() => number' },
      ],
    });
    const attempt = (limit?: unknown) => () =>
      compileGenerated(p, base({ dependencies: { touch: () => void ran++, ...(limit === undefined ? {} : { limit }) } }));
    expect(attempt()).toThrow(DependencyMismatchError);
    expect(attempt(5)).toThrow(expect.objectContaining({ mismatches: [expect.objectContaining({ kind: 'not-callable', name: 'limit' })] }));
    expect(ran).toBe(0);
  });

  it('a grant whose declared type differs is rejected before the body runs', () => {
    let ran = 0;
    const p = define('touch();\nexport const x = 1;', { dependencies: [{ name: 'touch', kind: 'capability', type: '() => void' }] });
    expect(() =>
      compileGenerated(p, base({ dependencies: { touch: () => void ran++ }, granted: { touch: { kind: 'capability', type: '(n: number) => void' } } })),
    ).toThrow(DependencyMismatchError);
    expect(ran).toBe(0);
  });

  it('literal imports of Node built-ins resolve by default; other modules need a resolver', () => {
    const compiled = compileGenerated(define("import { join } from 'node:path';\nexport const f = () => join('a', 'b');"), base());
    expect((compiled.exports.f as () => string)()).toBe('a/b');
    expect(() => compileGenerated(define("import x from 'left-pad';\nexport const y = x;"), base())).toThrow(GeneratedModuleRefusedError);
    const provided = compileGenerated(
      define("import { greet } from 'host-lib';\nexport const f = () => greet('x');"),
      base({ resolveModule: (s) => (s === 'host-lib' ? { greet: (n: string) => `hi ${n}` } : undefined) }),
    );
    expect((provided.exports.f as () => string)()).toBe('hi x');
    expect(() =>
      compileGenerated(define("import { greet } from 'other-lib';\nexport const g = greet;"), base({ resolveModule: () => undefined })),
    ).toThrow(GeneratedModuleRefusedError);
  });

  it('reassigning an export after materialisation fails instead of bypassing the wrapper', () => {
    const compiled = compileGenerated(define('export let f = () => 1;\nexport function swap() { f = () => 2; }'), base());
    expect(() => (compiled.exports.swap as () => void)()).toThrow(TypeError);
    expect((compiled.exports.f as () => number)()).toBe(1);
  });
});
