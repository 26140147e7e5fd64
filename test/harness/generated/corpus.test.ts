/**
 * Corpus of raw-dynamic-execution spellings in generated source (issue 4, "Must show").
 *
 * | layer    | what catches it                                                            |
 * |----------|----------------------------------------------------------------------------|
 * | static   | validateGeneratedSource rejects it before anything runs (rule id asserted) |
 * | runtime  | the parser cannot see it; a runtime shadow refuses it and records an anomaly |
 * | gap      | neither layer sees it; documented in runtime-shadows.ts and asserted here so |
 * |          | a change in coverage shows up as a failing test                            |
 */
import { describe, expect, it } from 'vitest';
import {
  compileGenerated,
  GeneratedModuleRefusedError,
  GeneratedSourceRejectedError,
  RawDynamicExecutionError,
  validateGeneratedSource,
  type CodeProposal,
  type GeneratedCodeAnomaly,
  type RuntimeSpelling,
  type ViolationRule,
} from '../../../kernel/src/harness/generated/index.js';

type StaticCase = { spelling: string; top?: string; body?: string; rule: ViolationRule };

/** Caught statically. Each source also calls a granted capability at module top level to prove nothing ran. */
const STATIC: StaticCase[] = [
  { spelling: 'eval(...)', body: "return eval('1 + 1');", rule: 'eval' },
  { spelling: '(0, eval)(...)', body: "return (0, eval)('1 + 1');", rule: 'eval' },
  { spelling: 'globalThis.eval', body: "return globalThis.eval('1');", rule: 'eval' },
  { spelling: "window['eval']", body: "return window['eval']('1');", rule: 'eval' },
  { spelling: 'eval held in a local', body: "const e = eval; return e('1');", rule: 'eval' },
  { spelling: 'destructured eval', body: "const { eval: e } = globalThis; return e('1');", rule: 'eval' },
  { spelling: 'globalThis["ev"+"al"]', body: 'return globalThis["ev" + "al"]("1");', rule: 'computed-global-access' },
  { spelling: "globalThis[atob('ZXZhbA==')]", body: "return globalThis[atob('ZXZhbA==')]('1');", rule: 'computed-global-access' },
  { spelling: 'self[`ev${"al"}`]', body: "return self[`ev${'al'}`]('1');", rule: 'computed-global-access' },
  { spelling: 'Reflect.get(globalThis, key)', body: "return Reflect.get(globalThis, key)('1');", rule: 'computed-global-access' },
  { spelling: 'globalThis.globalThis[key]', body: "return globalThis.globalThis[key]('1');", rule: 'computed-global-access' },
  { spelling: 'Function(...)', body: "return Function('return 1')();", rule: 'function-constructor' },
  { spelling: 'new Function(...)', body: "return new Function('a', 'return a')(1);", rule: 'function-constructor' },
  { spelling: 'globalThis.Function', body: "return globalThis.Function('return 1')();", rule: 'function-constructor' },
  { spelling: '(function(){}).constructor', body: "return (function () {}).constructor('return 1')();", rule: 'function-constructor' },
  { spelling: '.constructor.constructor', body: "return (() => 0).constructor.constructor('return 1')();", rule: 'function-constructor' },
  { spelling: "[]['constructor']['constructor']", body: "return []['constructor']['constructor']('return 1')();", rule: 'function-constructor' },
  { spelling: 'AsyncFunction via prototype constructor', body: "return Object.getPrototypeOf(async function () {}).constructor('return 1');", rule: 'function-constructor' },
  { spelling: 'GeneratorFunction via prototype constructor', body: "return Object.getPrototypeOf(function* () {}).constructor('yield 1');", rule: 'function-constructor' },
  { spelling: 'Reflect.construct(Function, ...)', body: "return Reflect.construct(Function, ['return 1'])();", rule: 'function-constructor' },
  { spelling: 'destructured constructor', body: "const { constructor: C } = () => 0; return C('return 1')();", rule: 'function-constructor' },
  { spelling: "Reflect.get(fn, 'constructor')", body: "return Reflect.get(() => 0, 'constructor')('return 1')();", rule: 'function-constructor' },
  { spelling: 'Function captured in a shorthand property', body: "const o = { Function }; return o['Func' + 'tion']('return 1')();", rule: 'function-constructor' },
  { spelling: 'class extends Function', body: "return new (class extends Function {})('return 1')();", rule: 'function-constructor' },
  { spelling: 'import() of a constructed specifier', body: "return import('./' + name);", rule: 'dynamic-import' },
  { spelling: 'require() of a constructed specifier', body: 'return require(name);', rule: 'dynamic-require' },
  { spelling: "import from 'node:vm'", top: "import vm from 'node:vm';", body: "return vm.runInThisContext('1');", rule: 'forbidden-module' },
  { spelling: "import from 'child_process'", top: "import { exec } from 'child_process';", body: "return exec('node -e 1');", rule: 'forbidden-module' },
  { spelling: "require('vm')", body: "return require('vm').runInThisContext('1');", rule: 'forbidden-module' },
  { spelling: "import('node:child_process')", body: "return import('node:child_process');", rule: 'forbidden-module' },
  { spelling: "process.getBuiltinModule('vm')", body: "return process.getBuiltinModule('vm');", rule: 'forbidden-module' },
  { spelling: "import from 'node:inspector'", top: "import * as inspector from 'node:inspector';", body: 'return new inspector.Session();', rule: 'forbidden-module' },
  { spelling: "import from 'v8'", top: "import v8 from 'v8';", body: "v8.setFlagsFromString('--allow-natives-syntax');", rule: 'forbidden-module' },
  { spelling: 'new Worker(code, { eval: true })', top: "import { Worker } from 'node:worker_threads';", body: "return new Worker('postMessage(1)', { eval: true });", rule: 'worker-eval' },
  { spelling: 'new Worker(code, options held in a variable)', top: "import { Worker } from 'node:worker_threads';", body: "const o = scope; return new Worker('x', o);", rule: 'worker-eval' },
  { spelling: 'with statement', body: 'with (scope) { return x; }', rule: 'with-statement' },
  { spelling: 'setTimeout with a string', body: "setTimeout('tick()', 0);", rule: 'timer-string' },
  { spelling: 'setInterval with a template', body: 'setInterval(`tick(${n})`, 10);', rule: 'timer-string' },
  { spelling: 'process.binding', body: "return process.binding('contextify');", rule: 'process-binding' },
  { spelling: 'module.constructor._load', body: "return module.constructor._load('vm');", rule: 'module-load' },
  { spelling: 'assigning a reserved guard name', body: '__nh_guard = () => {};', rule: 'reserved-name' },
  { spelling: 'descriptor of a reserved guard name', body: "return Object.getOwnPropertyDescriptor(globalThis, '__nh_guard');", rule: 'reserved-name' },
  { spelling: 'arguments.callee', body: 'return arguments.callee;', rule: 'arguments-callee' },
  { spelling: 'debugger', body: 'debugger;', rule: 'debugger' },
];

type RuntimeCase = { spelling: string; body: string; refused: RuntimeSpelling };

/** Invisible to the parser; refused at run time by the shadows and recorded as a runtime anomaly. */
const RUNTIME: RuntimeCase[] = [
  { spelling: 'aliased global object, key joined at run time', body: "const g = globalThis; const k = ['ev', 'al'].join(''); return g[k]('1 + 1');", refused: 'global-eval' },
  { spelling: 'global object held in an object, key from char codes', body: "const o = { root: globalThis }; return o.root[String.fromCharCode(101, 118, 97, 108)]('1');", refused: 'global-eval' },
  { spelling: 'Reflect.get on an alias with a run-time key', body: "const g = globalThis; return Reflect.get(g, 'ev'.concat('al'))('1');", refused: 'global-eval' },
  { spelling: 'property descriptor of a run-time key', body: "const g = globalThis; return Object.getOwnPropertyDescriptor(g, 'ev'.concat('al')).value('1');", refused: 'global-eval' },
  { spelling: 'scan of all global descriptors for eval', body: "const g = globalThis; return Object.values(Object.getOwnPropertyDescriptors(g)).find((d) => d.value && d.value.name === 'eval').value('1');", refused: 'global-eval' },
  { spelling: 'globalThis reached again through the alias', body: "const g = globalThis; const h = g.globalThis; return h['ev'.concat('al')]('1');", refused: 'global-eval' },
  { spelling: 'Reflect.apply on a run-time global key', body: "const g = globalThis; return Reflect.apply(g['ev'.concat('al')], undefined, ['1']);", refused: 'global-eval' },
  { spelling: 'new on a run-time global Function key', body: "const g = globalThis; const F = g['Func'.concat('tion')]; return new F('return 1')();", refused: 'global-Function' },
  { spelling: 'Reflect.construct on a run-time global Function key', body: "const g = globalThis; return Reflect.construct(g['Func'.concat('tion')], ['return 1'])();", refused: 'global-Function' },
  { spelling: 'setTimeout with a string held in a variable', body: "const code = 'tick()'.trim(); setTimeout(code, 0);", refused: 'timer-string' },
  { spelling: 'setInterval with a string held in a variable', body: "const code = String(n); setInterval(code, 5);", refused: 'timer-string' },
  { spelling: 'setTimeout reached through an aliased global', body: "const g = globalThis; const code = 'tick()'.trim(); g.setTimeout(code, 0);", refused: 'timer-string' },
  { spelling: 'require held in a variable, forbidden module', body: "const load = require; return load('node:' + 'vm');", refused: 'forbidden-module' },
];

/** Neither layer sees these; they run. Documented limits of an in-realm check (runtime-shadows.ts). */
const GAPS: { spelling: string; body: string; args: unknown[]; result: unknown }[] = [
  { spelling: "Reflect.get(fn, k) with k computed as 'constructor' reaches the real Function", body: "const k = ['constr', 'uctor'].join(''); return Reflect.get(() => 0, k)('return 7')();", args: [], result: 7 },
  { spelling: 'a global object handed in by the host as an argument', body: "return name[['ev', 'al'].join('')]('3 * 3');", args: [globalThis], result: 9 },
];

function proposal(c: { top?: string; body?: string }): CodeProposal {
  return {
    language: 'javascript',
    intent: 'define',
    source: `${c.top ?? ''}\nsideEffect();\nexport function run(name, key, scope, n) {\n  ${c.body ?? ''}\n}\n`,
    dependencies: [{ name: 'sideEffect', kind: 'capability', type: '() => void' }],
  };
}

function compile(p: CodeProposal) {
  const anomalies: GeneratedCodeAnomaly[] = [];
  let ran = 0;
  const compiled = () =>
    compileGenerated(p, { onAnomaly: (a) => anomalies.push(a), isLive: () => true, dependencies: { sideEffect: () => void ran++ } });
  return { anomalies, compiled, ran: () => ran };
}

describe('raw dynamic execution corpus', () => {
  it('holds at least 30 spellings, each assigned to exactly one layer', () => {
    expect(STATIC.length + RUNTIME.length).toBeGreaterThanOrEqual(30);
    const names = [...STATIC, ...RUNTIME, ...GAPS].map((c) => c.spelling);
    expect(new Set(names).size).toBe(names.length);
  });

  describe('caught statically, before anything runs', () => {
    it.each(STATIC)('$spelling is rejected as $rule', (c) => {
      const p = proposal(c);
      const result = validateGeneratedSource(p);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.violations.map((v) => v.rule)).toContain(c.rule);
      const v = result.violations.find((x) => x.rule === c.rule)!;
      expect(v.line).toBeGreaterThan(0);

      const { anomalies, compiled, ran } = compile(p);
      expect(compiled).toThrow(GeneratedSourceRejectedError);
      expect(ran()).toBe(0);
      // Reaching for the guards is a refused attempt too, recorded under its own kind.
      const kind = ['reserved-name', 'arguments-callee', 'debugger'].includes(c.rule) ? 'generated_guard_evasion' : 'raw_dynamic_execution';
      expect(anomalies).toHaveLength(1);
      expect(anomalies[0]).toMatchObject({ kind, phase: 'validation' });
    });
  });

  describe('invisible to the parser, refused at run time and recorded', () => {
    it.each(RUNTIME)('$spelling passes validation and is refused as $refused', (c) => {
      const p = proposal(c);
      expect(validateGeneratedSource(p).ok).toBe(true);
      const { anomalies, compiled } = compile(p);
      const run = compiled().exports.run as (...args: unknown[]) => unknown;
      const expected = c.refused === 'forbidden-module' ? GeneratedModuleRefusedError : RawDynamicExecutionError;
      expect(() => run('n', 'k', {}, 1)).toThrow(expected);
      expect(anomalies).toEqual([expect.objectContaining({ kind: 'raw_dynamic_execution', phase: 'runtime', spelling: c.refused })]);
    });
  });

  describe('documented gaps of the in-realm check', () => {
    it.each(GAPS)('$spelling: not caught by either layer', (c) => {
      const p = proposal(c);
      expect(validateGeneratedSource(p).ok).toBe(true);
      const { anomalies, compiled } = compile(p);
      const run = compiled().exports.run as (...args: unknown[]) => unknown;
      expect(run(...c.args)).toBe(c.result);
      expect(anomalies).toEqual([]);
    });
  });
});
