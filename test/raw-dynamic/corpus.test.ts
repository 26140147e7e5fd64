/**
 * Corpus of raw-dynamic-execution and escape spellings (issue 13, "Must show"): generated code through a
 * real dispatch and model expressions through a real Natural execution. Each spelling is refused before
 * running (static tier) or at run time (run-time tier), always with a `raw_dynamic_execution`
 * trace.anomaly, and none runs the code it constructed: the constructed text would bump a global counter.
 */
import vm from 'node:vm';
import Module from 'node:module';
import workerThreads from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { step, type LedgerEvent } from '../../kernel/src/index.js';
import { toolCall } from '../../kernel/src/testing.js';
import { finish, runGenerated, scriptedRunner } from '../harness/support.js';

const counter = globalThis as { corpusRan?: number };
/** Constructed function body and constructed script: either one, if run, bumps the counter. */
const P = 'globalThis.corpusRan = (globalThis.corpusRan || 0) + 1; return 1;';
const E = 'globalThis.corpusRan = (globalThis.corpusRan || 0) + 1';
const WASM = [0, 97, 115, 109, 1, 0, 0, 0];
const K = "const k = 'con' + 'structor';";

/** Spellings in generated code: the body of `export async function run()`; P, E, wt, vmRef, modRef, holder are granted references. */
export const GENERATED: readonly [string, string][] = [
  ['computed constructor key', `${K} return (() => 0)[k](P)();`],
  ['Reflect.get of a computed constructor key', `${K} return Reflect.get(() => 0, k)(P)();`],
  ['property descriptor of the constructor', `${K} const d = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(() => 0), k); return (d.get ? d.get.call(() => 0) : d.value)(P)();`],
  ['destructured computed constructor', `${K} const { [k]: C } = () => 0; return C(P)();`],
  ['key coerced through toString', "const k = { toString: () => 'constr' + 'uctor' }; return (() => 0)[k](P)();"],
  ['key coerced through Symbol.toPrimitive', "const k = { [Symbol.toPrimitive]: () => 'constr' + 'uctor' }; return (() => 0)[k](P)();"],
  ['constructor through a Proxy', `${K} const p = new Proxy({}, { get: (_t, key) => (() => 0)[key] }); return p[k](P)();`],
  ['constructor as a template tag', `${K} const C = (() => 0)[k]; return C\`x\`;`],
  ['constructor bound to its body', `${K} return (() => 0)[k].bind(null, P)()();`],
  ['constructor through apply', `${K} return (() => 0)[k].apply(null, [P])();`],
  ['constructor through call', `${K} return (() => 0)[k].call(null, P)();`],
  ['Reflect.apply on the constructor', `${K} return Reflect.apply((() => 0)[k], null, [P])();`],
  ['Reflect.construct on the constructor', `${K} return Reflect.construct((() => 0)[k], [P])();`],
  ['new on the constructor', `${K} const C = (() => 0)[k]; return new C(P)();`],
  ['constructor handed to Array.prototype.map', `${K} return [P].map((() => 0)[k])[0]();`],
  ['constructor handed to Array.from', `${K} return Array.from([P], (() => 0)[k])[0]();`],
  ['constructor handed to a promise reaction', `${K} const f = await Promise.resolve(P).then((() => 0)[k]); return f();`],
  ['class extending the constructor', `${K} const C = (() => 0)[k]; return new (class extends C {})(P)();`],
  ['AsyncFunction through a computed key', `${K} return Object.getPrototypeOf(async () => {})[k](P)();`],
  ['constructor of the Array constructor', `${K} return [][k][k](P)();`],
  ['constructor of Object', `${K} return Object[k](P)();`],
  ['constructor of a number', `${K} return (1)[k][k](P)();`],
  ['constructor of a string', `${K} return ''[k][k](P)();`],
  ['constructor of Math.max', `${K} return Math.max[k](P)();`],
  ['constructor of JSON.parse', `${K} return JSON.parse[k](P)();`],
  ['descriptor map of Function.prototype', `${K} return Object.getOwnPropertyDescriptors(Object.getPrototypeOf(() => 0))[k].get.call(null)(P)();`],
  ['descriptor scan by entries', `${K} const [, d] = Object.entries(Object.getOwnPropertyDescriptors(Object.getPrototypeOf(() => 0))).find(([n]) => n === k); return d.get()(P)();`],
  ['key from char codes', 'return (() => 0)[String.fromCharCode(99, 111, 110, 115, 116, 114, 117, 99, 116, 111, 114)](P)();'],
  ['key from base64', "return (() => 0)[atob('Y29uc3RydWN0b3I=')](P)();"],
  ['key reversed', "return (() => 0)[[...'rotcurtsnoc'].reverse().join('')](P)();"],
  ['key from JSON', 'return (() => 0)[JSON.parse(\'"con\' + \'structor"\')](P)();'],
  ['constructor after an await', `${K} await null; return (() => 0)[k](P)();`],
  ['constructor in a timer callback', `${K} return await new Promise((resolve, reject) => setTimeout(() => { try { resolve((() => 0)[k](P)()); } catch (e) { reject(e); } }, 0));`],
  ['constructor in a microtask', `${K} return await new Promise((resolve, reject) => queueMicrotask(() => { try { resolve((() => 0)[k](P)()); } catch (e) { reject(e); } }));`],
  ['eval reached through a granted global object', "return holder.g['ev' + 'al'](E);"],
  ['Function reached through a granted global object', "return holder.g['Func' + 'tion'](P)();"],
  ['process binding with a computed name', "const b = 'bind' + 'ing'; return process[b]('spawn_sync');"],
  ['process._linkedBinding with a computed name', "return process['_linked' + 'Binding']('spawn_sync');"],
  ['process.dlopen with a computed name', "return process['dl' + 'open']({ exports: {} }, '/nonexistent.node');"],
  ['getBuiltinModule through call', "return process.getBuiltinModule.call(process, 'v' + 'm').runInThisContext(E);"],
  ['createRequire through getBuiltinModule', "return process.getBuiltinModule.call(process, 'mod' + 'ule').createRequire('/')('vm');"],
  ['getBuiltinModule through Reflect.apply', "return Reflect.apply(process.getBuiltinModule, process, ['child_' + 'process']);"],
  ['getBuiltinModule held in a variable', "const g = process['getBuiltin' + 'Module']; return g('node:' + 'vm');"],
  ['getBuiltinModule of inspector', "return process.getBuiltinModule.call(process, 'insp' + 'ector');"],
  ['getBuiltinModule of worker_threads', "return process.getBuiltinModule.call(process, 'worker_' + 'threads');"],
  ['getBuiltinModule of async_hooks', "return process.getBuiltinModule.call(process, 'async_' + 'hooks');"],
  ['getBuiltinModule of v8', "return process.getBuiltinModule.call(process, 'v' + '8');"],
  ['getBuiltinModule of trace_events', "return process.getBuiltinModule.call(process, 'trace_' + 'events');"],
  ['Worker with a computed eval option', "return new wt.Worker(E, { ['ev' + 'al']: true });"],
  ['Worker from a data: URL object', "return new wt.Worker(new URL('data:text/javascript,' + encodeURIComponent(E)));"],
  ['Worker from a data: URL string', "return new wt.Worker('data:text/javascript,' + encodeURIComponent(E));"],
  ['granted vm.runInThisContext', 'return vmRef.runInThisContext(E);'],
  ['granted vm.Script', 'return new vmRef.Script(E).runInThisContext();'],
  ['granted vm.compileFunction', 'return vmRef.compileFunction(P)();'],
  ['granted vm.runInNewContext', 'return vmRef.runInNewContext(E, { globalThis });'],
  ['granted vm.createContext', 'return vmRef.createContext({});'],
  ['granted module.createRequire', "return modRef.createRequire('/')('vm');"],
  ['granted Module._load', "return modRef['_lo' + 'ad']('vm');"],
  ['WebAssembly.compile', `return WebAssembly.compile(new Uint8Array([${WASM}]));`],
  ['new WebAssembly.Module', `return new WebAssembly.Module(new Uint8Array([${WASM}]));`],
  ['literal eval', 'return eval(E);'],
  ['literal Function', 'return Function(P)();'],
  ['literal dynamic import', "return import('data:text/javascript,export default 1');"],
  ['literal require of vm', "return require('vm');"],
];

/** Spellings in model expressions (nh_evaluate); P, E, wt, vmRef, modRef are granted references. */
export const EXPRESSIONS: readonly [string, string][] = [
  ["this['ev'+'al']", "this['ev' + 'al'](E)"],
  ['unicode-escaped eval', '\\u0065val(E)'],
  ['Function as a template tag', 'Function`x`'],
  ['comment inside import/**/(', "import/**/('data:text/javascript,export default 1')"],
  ['newline between import and (', "import\n('node:fs')"],
  ['import of a data: URL', "import('data:text/javascript,export default 1')"],
  ['Reflect.construct(Function, …)', 'Reflect.construct(Function, [P])()'],
  ['AsyncFunction through getPrototypeOf', 'Object.getPrototypeOf(async () => {}).constructor(P)'],
  ['process.binding', "process.binding('spawn_sync')"],
  ["process.getBuiltinModule('vm')", "process.getBuiltinModule('vm')"],
  ['data: URL Worker', "new wt.Worker('data:text/javascript,' + encodeURIComponent(E))"],
  ['eval-option Worker', 'new wt.Worker(E, { eval: true })'],
  ["this['Func'+'tion']", "this['Func' + 'tion'](P)()"],
  ['Reflect.get on globalThis', "Reflect.get(globalThis, 'ev' + 'al')(E)"],
  ['eval accessor read directly', "Object.getOwnPropertyDescriptor(globalThis, 'ev' + 'al').get.call(globalThis)(E)"],
  ['computed constructor key', "(() => 0)['con' + 'structor'](P)()"],
  ['constructor of the Array constructor', "[]['con' + 'structor']['con' + 'structor'](P)()"],
  ['GeneratorFunction through a computed key', "Object.getPrototypeOf(function* () {})['con' + 'structor'](P)().next()"],
  ['AsyncGeneratorFunction through a computed key', "Object.getPrototypeOf(async function* () {})['con' + 'structor'](P)().next()"],
  ['AsyncFunction through a computed key', "Object.getPrototypeOf(async () => {})['con' + 'structor'](P)()"],
  ['Function handed to map', '[P].map(Function)[0]()'],
  ['Function handed to Array.from', 'Array.from([P], Function)[0]()'],
  ['Function as a promise reaction', 'Promise.resolve(P).then(Function).then((f) => f())'],
  ['Function in a timer callback', 'new Promise((resolve, reject) => setTimeout(() => { try { resolve([P].map(Function)[0]()); } catch (e) { reject(e); } }, 0))'],
  ['Function after an await', '(async () => { await null; return [P].map(Function)[0](); })()'],
  ['Function in a microtask', 'new Promise((resolve, reject) => queueMicrotask(() => { try { resolve([P].map(Function)[0]()); } catch (e) { reject(e); } }))'],
  ['Function.prototype.call.call', 'Function.prototype.call.call(Function, null, P)()'],
  ['Function.bind', 'Function.bind(null, P)()()'],
  ['Function.apply', 'Function.apply(null, [P])()'],
  ['class extends Function', 'new (class extends Function {})(P)()'],
  ['key through Symbol.toPrimitive', "(() => 0)[{ [Symbol.toPrimitive]: () => 'constr' + 'uctor' }](P)()"],
  ['key through toString', "(() => 0)[{ toString: () => 'constr' + 'uctor' }](P)()"],
  ['constructor through a Proxy', "new Proxy({}, { get: (_t, key) => (() => 0)[key] })['con' + 'structor'](P)()"],
  ['destructured computed constructor', "(({ ['con' + 'structor']: C }) => C(P)())(() => 0)"],
  ['process binding with a computed name', "process['bind' + 'ing']('spawn_sync')"],
  ['process._linkedBinding', "process._linkedBinding('spawn_sync')"],
  ['process.dlopen', "process.dlopen({ exports: {} }, '/nonexistent.node')"],
  ['createRequire through getBuiltinModule', "process.getBuiltinModule.call(process, 'module').createRequire('/')('vm')"],
  ["getBuiltinModule('child_process')", "process.getBuiltinModule('child_process')"],
  ["getBuiltinModule('node:inspector')", "process.getBuiltinModule('node:inspector')"],
  ["getBuiltinModule('async_hooks')", "process.getBuiltinModule('async_hooks')"],
  ["getBuiltinModule('v8')", "process.getBuiltinModule('v8')"],
  ["getBuiltinModule('trace_events')", "process.getBuiltinModule('trace_events')"],
  ["getBuiltinModule('worker_threads')", "process.getBuiltinModule('worker_threads')"],
  ['granted vm.runInThisContext', 'vmRef.runInThisContext(E)'],
  ['granted vm.Script', 'new vmRef.Script(E)'],
  ['granted vm.compileFunction', 'vmRef.compileFunction(P)()'],
  ['granted vm.createContext', 'vmRef.createContext({})'],
  ['granted module.createRequire', "modRef.createRequire('/')('vm')"],
  ['WebAssembly.compile', `WebAssembly.compile(new Uint8Array([${WASM}]))`],
  ['new WebAssembly.Module', `new WebAssembly.Module(new Uint8Array([${WASM}]))`],
  ['global object through an arrow parameter', "((g) => g['ev' + 'al'])(globalThis)(E)"],
  ['key from JSON', '(() => 0)[JSON.parse(\'"con\' + \'structor"\')](P)()'],
  ['key from char codes', '(() => 0)[String.fromCharCode(99, 111, 110, 115, 116, 114, 117, 99, 116, 111, 114)](P)()'],
  ['key from base64', "(() => 0)[atob('Y29uc3RydWN0b3I=')](P)()"],
  ['key reversed', "(() => 0)[[...'rotcurtsnoc'].reverse().join('')](P)()"],
  ['constructor of Math.max', "Math.max['con' + 'structor'](P)()"],
  ['constructor of Object', "Object['con' + 'structor'](P)()"],
  ['constructor of a number', "(1)['con' + 'structor']['con' + 'structor'](P)()"],
  ['assignment over the Function constructor accessor', "(Object.getPrototypeOf(() => 0)['con' + 'structor'] = 1)"],
  ['literal eval', 'eval(E)'],
  ['literal new Function', 'new Function(P)()'],
  ['literal require', "require('vm')"],
];

const grants = { references: { P, E, wt: workerThreads, vmRef: vm, modRef: Module, holder: { g: globalThis } } };

const rawAnomalies = (events: readonly LedgerEvent[]) => events.filter((e) => e.kind === 'trace.anomaly' && e.status === 'raw_dynamic_execution');

let before = 0;
beforeAll(() => {
  before = counter.corpusRan ?? 0;
});
afterAll(() => {
  expect(counter.corpusRan ?? 0).toBe(before);
});

describe('raw dynamic execution corpus (issue 13)', () => {
  it('holds at least 100 distinct spellings across generated code and expressions', () => {
    expect(GENERATED.length + EXPRESSIONS.length).toBeGreaterThanOrEqual(100);
    expect(new Set(GENERATED.map(([n]) => n)).size).toBe(GENERATED.length);
    expect(new Set(EXPRESSIONS.map(([n]) => n)).size).toBe(EXPRESSIONS.length);
  });

  describe('generated code, dispatched in a real run', () => {
    it.each(GENERATED)('%s is refused and recorded; nothing constructed runs', async (_name, body) => {
      const ran = counter.corpusRan ?? 0;
      const { runner, outcome } = await runGenerated(`export async function run() {\n${body}\n}`, grants.references);
      expect(outcome, JSON.stringify(outcome, (_k, v) => (v instanceof Error ? `${v.name}: ${v.message}` : v))).toHaveProperty("error");
      const anomalies = rawAnomalies(runner.ledger.select({ kind: "trace.anomaly" }));
      expect(anomalies.length, `${JSON.stringify(outcome, (_k, v) => (v instanceof Error ? `${v.name}: ${v.message}` : v))} ${JSON.stringify(runner.ledger.select({}).map((e) => [e.kind, e.status]))}`).toBeGreaterThanOrEqual(1);
      const dispatchIds = new Set(runner.ledger.select({ kind: 'dispatch.start' }).map((e) => e.subjectId));
      // Static refusals hang under the materialization node, run-time ones under the node that ran the code.
      expect(anomalies.every((a) => dispatchIds.has(a.parentId!))).toBe(true);
      expect(counter.corpusRan ?? 0).toBe(ran);
    });
  });

  describe('model expressions, evaluated in a real Natural execution', () => {
    it.each(EXPRESSIONS)('%s is refused and recorded; nothing constructed runs', async (_name, expression) => {
      const ran = counter.corpusRan ?? 0;
      const { runner } = scriptedRunner([() => ({ toolCalls: [toolCall('nh_evaluate', { expression })] }), () => ({ toolCalls: [finish()] })]);
      await runner.run(async () => step({ program: 'execute\nGo.' }), { grant: grants });
      const [operation] = runner.ledger.select({ kind: 'operation' });
      expect(['rejected', 'failed']).toContain(operation!.status);
      const anomalies = rawAnomalies(runner.ledger.select({ kind: "trace.anomaly" }));
      expect(anomalies).toHaveLength(1);
      const opId = operation!.subjectId;
      const executionId = operation!.parentId;
      // The static tier records under the execution it inspected; the run-time tier under the operation.
      expect([opId, executionId]).toContain(anomalies[0]!.parentId);
      if (operation!.status === 'failed') expect(anomalies[0]!.parentId).toBe(opId);
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(counter.corpusRan ?? 0).toBe(ran);
    });
  });

  describe('outside interior execution nothing changes', () => {
    it('operator code constructs functions, evals directly and loads vm; zod compiles its parsers', () => {
      const local = 41;
      expect(eval('local + 1')).toBe(42);
      expect(local).toBe(41);
      expect(new Function('a', 'return a * 2')(21)).toBe(42);
      expect(Object.getPrototypeOf(async () => {}).constructor('return 1')).toBeInstanceOf(Function);
      expect(vm.runInThisContext('6 * 7')).toBe(42);
      expect(z.strictObject({ a: z.number() }).parse({ a: 1 })).toEqual({ a: 1 });
      expect((() => 0).constructor).toBe(Function);
    });

    it('zod parsers first compiled inside generated code still work and record nothing', async () => {
      const { runner } = scriptedRunner([]);
      const source = "export function run() { return schema().safeParse({ fresh: 'x' }).success; }";
      const schema = () => z.strictObject({ fresh: z.string() });
      const value = await runner.run(async (ctx) => (await ctx.dispatch({ language: 'javascript', intent: 'define-and-invoke', entry: 'run', source, dependencies: [{ name: 'schema', kind: 'reference', type: 'function' }] })).invocation!.value, {
        grant: { references: { schema } },
      });
      expect(value).toBe(true);
      expect(runner.ledger.select({ kind: 'trace.anomaly' })).toEqual([]);
    });

    it('a plain function reference called from an expression runs inside it, so its Function use is refused', async () => {
      const { runner } = scriptedRunner([() => ({ toolCalls: [toolCall('nh_evaluate', { expression: 'compute(20)' })] }), () => ({ toolCalls: [finish()] })]);
      const compute = (n: number) => new Function('n', 'return n + 22')(n) as number;
      await runner.run(async () => step({ program: 'execute\nGo.' }), { grant: { references: { compute } } });
      expect(runner.ledger.select({ kind: 'operation' })[0]!.status).toBe('failed');
      expect(rawAnomalies(runner.ledger.select({ kind: "trace.anomaly" }))).toHaveLength(1);
    });
  });
});
