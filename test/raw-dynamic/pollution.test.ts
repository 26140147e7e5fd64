/**
 * The library survives a polluted realm (issue 13, item 4): each pollution the issue names, made from a
 * model expression and from generated code, is recorded as `builtin_modified` naming the property, the
 * built-in is put back, and a normal run afterwards completes (model tool call with a strict schema,
 * write binding, capability, JSON of the ledger).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InMemoryPerimeterAuditStore, defineCapability, defineTool, step, type Runner } from '../../kernel/src/index.js';
import { toolCall } from '../../kernel/src/testing.js';
import { callingGenerated, finish, scriptedRunner } from '../harness/support.js';

/** [name, pollution, property, detected at the end of the 'operation' (hot set) or of the Natural 'execution' (full set)] */
const POLLUTIONS: readonly [string, string, string, 'operation' | 'execution'][] = [
  ['Object.prototype.toJSON that throws', "Object.prototype.toJSON = function () { throw new Error('poisoned toJSON'); }", 'Object.prototype.toJSON', 'operation'],
  ['an enumerable key on Object.prototype', 'Object.prototype.polluted = 1', 'Object.prototype.polluted', 'operation'],
  ['RegExp.prototype.test replaced', 'RegExp.prototype.test = function () { return false; }', 'RegExp.prototype.test', 'operation'],
  ['JSON.stringify replaced', "JSON.stringify = function () { return '{}'; }", 'JSON.stringify', 'operation'],
  ['Array.prototype.map replaced', 'Array.prototype.map = function () { return []; }', 'Array.prototype.map', 'operation'],
  ['String.prototype.trim replaced', "String.prototype.trim = function () { return ''; }", 'String.prototype.trim', 'execution'],
  ['Headers.prototype.append replaced', 'Headers.prototype.append = function () {}', 'Headers.prototype.append', 'operation'],
  ['Date.now replaced (host record times, ids)', 'Date.now = function () { return 0; }', 'Date.now', 'execution'],
  ['the Map iterator replaced (host record walk)', 'Object.getPrototypeOf(new Map().entries()).next = function () { return { done: true }; }', 'MapIterator.prototype.next', 'execution'],
  // The host's own logging: replaced, it would hand the model what the host logs, and throw after the run.
  ['console.log replaced (the host logs through it)', 'console.log = function () {}', 'console.log', 'execution'],
  ['console.error replaced', 'console.error = function () {}', 'console.error', 'execution'],
  ['process.emitWarning replaced', 'process.emitWarning = function () {}', 'process.emitWarning', 'execution'],
  // A guarded process control replaced by an unguarded stand-in.
  ['process.removeAllListeners replaced', 'process.removeAllListeners = function () { return process; }', 'process.removeAllListeners', 'execution'],
  // The host formats every stack trace with it: a model's formatter would run (and, after its run, throw) there.
  ['Error.prepareStackTrace set', "Error.prepareStackTrace = function () { return 'forged stack'; }", 'Error.prepareStackTrace', 'operation'],
  ['Error.prepareStackTrace redefined', "Object.defineProperty(Error, 'prepareStackTrace', { value: function () { return 'forged stack'; }, configurable: true, writable: true })", 'Error.prepareStackTrace', 'execution'],
  // Host prototypes every model reaches through process: each of the host's emitters and streams would run it.
  ['EventEmitter.prototype.emit replaced (through process)', 'Object.getPrototypeOf(Object.getPrototypeOf(process)).emit = function () { return true; }', 'EventEmitter.prototype.emit', 'execution'],
  [
    // A pipe, a socket or a TTY: each standard stream is a Duplex.
    'Duplex.prototype.write replaced (through process.stdout)',
    "(() => { let p = process.stdout; while (p.constructor.name !== 'Duplex') p = Object.getPrototypeOf(p); p.write = function () { return true; }; })()",
    'Duplex.prototype.write',
    'execution',
  ],
];

const listen = EventTarget.prototype.addEventListener;
const nativeAbort = AbortController.prototype.abort;
const nativeMapGet = Map.prototype.get;
const nativeMapSet = Map.prototype.set;

const echo = defineCapability({ name: 'echo', description: 'echo', request: z.strictObject({ text: z.string() }), footprint: [], run: ({ text }) => ({ echoed: text }) });

/** A normal run: a strict-schema tool call, an assignment to a write binding, and a pass. */
async function normalRun(runner: Runner): Promise<unknown> {
  return await runner.run(
    async () => {
      const { bindings } = await step({ program: 'execute\nEcho, then set <:out>.', writes: { out: z.string() } });
      return bindings.out;
    },
    { grant: { capabilities: [echo] } },
  );
}

const normalTurns = () => [
  () => ({ toolCalls: [toolCall('echo', { text: 'hi' })] }),
  () => ({ toolCalls: [toolCall('nh_assign', { target_path: 'out', expression: "'done'.replace(/d/, 'D')" })] }),
  () => ({ toolCalls: [finish()] }),
];

afterEach(() => {
  // If detection failed, do not let one case poison the rest of the suite.
  delete (Object.prototype as Record<string, unknown>)['toJSON'];
  delete (Object.prototype as Record<string, unknown>)['polluted'];
});

describe('pollution of the shared realm', () => {
  it.each(POLLUTIONS)('%s from a model expression is recorded and undone; the next run completes', async (_name, expression, property, at) => {
    const { runner } = scriptedRunner([() => ({ toolCalls: [toolCall('nh_evaluate', { expression: `(${expression}, 1)` })] }), () => ({ toolCalls: [finish()] }), ...normalTurns()]);
    // Detected at the end of the operation, the polluting run itself completes; detected at the end of
    // the execution, the rest of that execution ran on the polluted built-in and may have failed.
    const polluting = await runner.run(async () => step({ program: 'execute\nGo.' })).then(() => 'completed', () => 'failed');
    if (at === 'operation') expect(polluting).toBe('completed');
    const anomaly = runner.ledger.select({ kind: 'trace.anomaly' }).find((e) => e.status === 'builtin_modified');
    expect(anomaly?.data).toMatchObject({ property, restored: true });
    const [operation] = runner.ledger.select({ kind: 'operation' });
    expect(anomaly!.parentId).toBe(at === 'operation' ? operation!.subjectId : operation!.parentId);
    expect(await normalRun(runner)).toBe('Done');
    expect(JSON.parse(JSON.stringify({ a: [1].map((x) => x + 1) }))).toEqual({ a: [2] });
    expect(/x/.test('x')).toBe(true);
    expect(new Error('after').stack).toMatch(/^Error: after\n/);
  });

  it.each(POLLUTIONS)('%s from generated code is recorded under its dispatch node and undone; the next run completes', async (_name, expression, property) => {
    const { runner } = scriptedRunner(normalTurns());
    await runner.run(async (ctx) => {
      const out = await ctx.dispatch({ language: 'javascript', intent: 'define', source: `export function run() { ${expression}; return 1; }` });
      return (out.exports['run'] as () => unknown)();
    });
    const anomaly = runner.ledger.select({ kind: 'trace.anomaly' }).find((e) => e.status === 'builtin_modified');
    expect(anomaly?.data).toMatchObject({ property, restored: true });
    const invocation = runner.ledger.select({ kind: 'dispatch.start' }).find((e) => e.status === 'invocation');
    expect(anomaly!.parentId).toBe(invocation!.subjectId);
    expect(await normalRun(runner)).toBe('Done');
  });

  it('a deleted built-in is recorded and put back', async () => {
    const { runner } = scriptedRunner([() => ({ toolCalls: [toolCall('nh_evaluate', { expression: '(delete String.prototype.padStart, 1)' })] }), () => ({ toolCalls: [finish()] })]);
    await runner.run(async () => step({ program: 'execute\nGo.' }));
    expect(runner.ledger.select({ kind: 'trace.anomaly' }).map((e) => e.data)).toEqual([expect.objectContaining({ property: 'String.prototype.padStart', change: 'deleted', restored: true })]);
    expect(runner.ledger.select({ kind: 'trace.anomaly' })[0]!.parentId).toBe(runner.ledger.select({ kind: 'execution.start' })[0]!.subjectId);
    expect('1'.padStart(2, '0')).toBe('01');
  });

  it('globals added by operator code are left alone and not reported', async () => {
    (globalThis as Record<string, unknown>)['operatorGlobal'] = 1;
    const { runner } = scriptedRunner([() => ({ toolCalls: [toolCall('nh_evaluate', { expression: '1 + 1' })] }), () => ({ toolCalls: [finish()] })]);
    await runner.run(async () => step({ program: 'execute\nGo.' }));
    expect(runner.ledger.select({ kind: 'trace.anomaly' })).toEqual([]);
    expect((globalThis as Record<string, unknown>)['operatorGlobal']).toBe(1);
    delete (globalThis as Record<string, unknown>)['operatorGlobal'];
  });
});

describe('host paths inside the polluted window', () => {
  it('audit checks answer from captured built-ins: a replaced RegExp.prototype.test or Set.prototype.has opens nothing', async () => {
    const fs = await import('node:fs');
    const { mkdtempSync, existsSync, rmSync } = fs;
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'nh-window-'));
    const { runner } = scriptedRunner([]);
    const source = `export function run() {
      RegExp.prototype.test = function () { return false; };
      Set.prototype.has = function () { return false; };
      const out = [];
      try { fs.openSync(dir + '/w', 'w'); out.push('opened'); } catch (e) { out.push(e.name); }
      try { process['getBuiltin' + 'Module'].call(process, 'vm'); out.push('vm'); } catch (e) { out.push(e.name); }
      return out;
    }`;
    const value = await runner.run(async (ctx) => {
      const m = await ctx.dispatch({ language: 'javascript', intent: 'define', source, dependencies: [{ name: 'fs', kind: 'reference', type: 'object' }, { name: 'dir', kind: 'reference', type: 'string' }] });
      return (m.exports['run'] as () => unknown)();
    }, { grant: { references: { fs, dir } } });
    expect(value).toEqual(['UnmediatedPerimeterEffectError', 'RawDynamicExecutionRefusedError']);
    expect(existsSync(join(dir, 'w'))).toBe(false);
    const statuses = runner.ledger.select({ kind: 'trace.anomaly' }).map((e) => e.status);
    expect(statuses).toEqual(['unmediated_perimeter_effect', 'raw_dynamic_execution', 'builtin_modified', 'builtin_modified']);
    expect(/x/.test('x') && new Set([1]).has(1)).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  });

  it('records made inside the window copy what the capability received: built-ins that lie only to the record walk hide nothing', async () => {
    // The attack on evidence: generated code replaces built-ins so they answer truthfully everywhere except
    // inside the host's snapshot walk (told apart by the stack), then calls a perimeter capability. The
    // request validator and the capability see the whole request; a walk asking the replacements would write
    // a capability.call record and a durable audit attempt without `amount`, `memo[1]` or the map entry.
    const received: unknown[] = [];
    const transfer = defineCapability({
      name: 'transfer',
      description: 'moves money',
      request: z.object({ to: z.string(), amount: z.number(), memo: z.array(z.string()), tags: z.map(z.string(), z.number()) }),
      footprint: ['egress'],
      run: (args) => {
        received.push(args);
        return { sent: args.amount };
      },
    });
    const store = new InMemoryPerimeterAuditStore();
    const { runner } = scriptedRunner([], { platformPolicy: ['egress'], perimeterAuditStore: store });
    const source = `export async function run() {
      // Started first: the gateway has validated and undone earlier changes; what follows meets the record alone.
      const call = transfer({ to: 'mallory', amount: 5000, memo: ['a', 'b'], tags: new Map([['urgent', 1]]) });
      const inWalk = () => /snapshot\\.[jt]s/.test(new Error().stack ?? '');
      const keys = Object.keys, gopd = Object.getOwnPropertyDescriptor, ownKeys = Reflect.ownKeys, push = Array.prototype.push;
      const entries = Map.prototype.entries, defineProperty = Object.defineProperty;
      Object.keys = function (o) { const k = keys(o); return inWalk() ? k.filter((x) => x !== 'amount') : k; };
      Reflect.ownKeys = function (o) { const k = ownKeys(o); return inWalk() ? k.filter((x) => x !== 'amount') : k; };
      Object.getOwnPropertyDescriptor = function (o, k) { return inWalk() && k === 'amount' ? undefined : gopd(o, k); };
      Array.prototype.push = function (...items) { return inWalk() && this.length >= 1 && items[0] === 'b' ? this.length : push.apply(this, items); };
      Map.prototype.entries = function () { return inWalk() ? new Map().entries() : entries.call(this); };
      defineProperty(Object.prototype, 'to', { configurable: true, set(v) { if (!inWalk()) defineProperty(this, 'to', { value: v, writable: true, enumerable: true, configurable: true }); } });
      return await call;
    }`;
    const value = await runner.run(callingGenerated(source, transfer), { grant: { capabilities: [transfer] }, policy: ['egress'] });
    delete (Object.prototype as Record<string, unknown>)['to'];
    expect(value).toEqual({ sent: 5000 });
    expect(received).toEqual([{ to: 'mallory', amount: 5000, memo: ['a', 'b'], tags: new Map([['urgent', 1]]) }]);
    const call = runner.ledger.select({ kind: 'capability.call' })[0]!;
    expect(call.data).toMatchObject({ arguments: { to: 'mallory', amount: 5000, memo: ['a', 'b'], tags: { $kind: 'map', entries: [['urgent', 1]] } } });
    const [audited] = store.list();
    expect(JSON.parse(audited!.attempt.arguments)).toMatchObject({ to: 'mallory', amount: 5000, memo: ['a', 'b'], tags: { $kind: 'map', entries: [['urgent', 1]] } });
    // The replacements are still reported and undone at the end of the dispatch node.
    const changed = runner.ledger.select({ kind: 'trace.anomaly' }).filter((e) => e.status === 'builtin_modified').map((e) => (e.data as unknown as { property: string }).property);
    expect(changed).toEqual(expect.arrayContaining(['Object.keys', 'Reflect.ownKeys', 'Object.getOwnPropertyDescriptor', 'Array.prototype.push', 'Map.prototype.entries']));
    expect(Object.keys({ amount: 1 })).toEqual(['amount']);
  });

  it('a footprint outside the policy stays refused when filter, includes, Set.prototype.has and Set.prototype.add lie', async () => {
    // The attack on a hard decision: the run permits no perimeter class, the platform would permit egress;
    // generated code makes every check of "which classes are outside the policy" answer "none".
    const effects: unknown[] = [];
    const send = defineCapability({ name: 'send', description: 'egress', request: z.object({ to: z.string() }), footprint: ['egress'], run: (args) => (effects.push(args), 'sent') });
    const { runner } = scriptedRunner([], { platformPolicy: ['egress'], perimeterAuditStore: new InMemoryPerimeterAuditStore() });
    const source = `export async function run() {
      // Lies only to the host's policy code (told apart by the stack), so the request validator still passes.
      const host = () => /(perimeter|grant|frozen-collections)\\.[jt]s/.test(new Error().stack ?? '');
      const filter = Array.prototype.filter, includes = Array.prototype.includes, has = Set.prototype.has, add = Set.prototype.add;
      Array.prototype.filter = function (...a) { return host() ? [] : filter.apply(this, a); };
      Array.prototype.includes = function (...a) { return host() || includes.apply(this, a); };
      Set.prototype.has = function (v) { return host() || has.call(this, v); };
      Set.prototype.add = function (v) { if (host()) add.call(this, 'egress'); return add.call(this, v); };
      try { return await send({ to: 'outside' }); } catch (e) { return e.name + ':' + e.reason; }
    }`;
    const value = await runner.run(callingGenerated(source, send), { grant: { capabilities: [send] }, policy: [] });
    expect(value).toBe('CapabilityRefusedError:footprint-outside-policy');
    expect(effects).toEqual([]);
    expect(runner.ledger.select({ kind: 'capability.refused' }).map((e) => e.status)).toEqual(['footprint-outside-policy']);
    expect([1, 2].filter((n) => n > 1)).toEqual([2]); // restored at the end of the dispatch node
  });

  it('a request is validated on the original built-ins: a Set.prototype.has that lies to the validator passes no forbidden value', async () => {
    const received: unknown[] = [];
    const pay = defineCapability({ name: 'pay', description: 'pays a known payee', request: z.object({ to: z.enum(['alice', 'bob']) }), footprint: [], run: (args) => (received.push(args), 'paid') });
    const { runner } = scriptedRunner([]);
    const source = `export async function run() {
      const has = Set.prototype.has;
      Set.prototype.has = function (v) { return /zod/.test(new Error().stack ?? '') || has.call(this, v); };
      try { return await pay({ to: 'mallory' }); } catch (e) { return e.name + ':' + e.reason; }
    }`;
    const value = await runner.run(callingGenerated(source, pay), { grant: { capabilities: [pay] } });
    expect(value).toBe('CapabilityRefusedError:invalid-request');
    expect(received).toEqual([]);
    const refused = runner.ledger.select({ kind: 'capability.refused' })[0]!;
    const anomaly = runner.ledger.select({ kind: 'trace.anomaly' }).find((e) => e.status === 'builtin_modified');
    expect(anomaly?.data).toMatchObject({ property: 'Set.prototype.has', restored: true });
    expect(anomaly!.sequence).toBeLessThan(refused.sequence); // undone before the request was read
  });

  it('the same validator attack from a model expression and from a SessionFunction body: the tool call paying mallory is refused', async () => {
    const lie = "((has) => { Set.prototype.has = function (v) { return /zod/.test(new Error().stack ?? '') || has.call(this, v); }; })(Set.prototype.has)";
    const received: unknown[] = [];
    const pay = defineCapability({ name: 'pay', description: 'pays a known payee', request: z.object({ to: z.enum(['alice', 'bob']) }), footprint: [], run: (args) => (received.push(args), 'paid') });
    const payMallory = () => ({ toolCalls: [toolCall('pay', { to: 'mallory' })] });

    // From a model expression: Set.prototype is outside the per-operation check (and the model request's
    // provider check), so the lie outlives its operation and meets the validator of the call that follows.
    const { runner } = scriptedRunner([() => ({ toolCalls: [toolCall('nh_evaluate', { expression: `(${lie}, 1)` }), toolCall('pay', { to: 'mallory' })] }), () => ({ toolCalls: [finish()] })]);
    await runner.run(async () => step({ program: 'execute\nPay.' }), { grant: { capabilities: [pay] } }).catch(() => undefined);
    expect(runner.ledger.select({ kind: 'capability.refused' }).map((e) => e.status)).toEqual(['invalid-request']);

    // From a SessionFunction body, before the step whose model makes the call.
    const { Session, AgentExecutor } = await import('../../kernel/src/index.js');
    const { ScriptedModel } = await import('../../kernel/src/testing.js');
    const turns = [payMallory, () => ({ toolCalls: [finish()] })];
    const session = new Session({ executor: new AgentExecutor({ model: new ScriptedModel(turns) }), grant: { capabilities: [pay] } });
    const real = Set.prototype.has;
    const { paying } = session.materialized(session.submit('async function paying() {}'), {
      paying: async () => {
        (0, eval)(lie);
        try {
          await step({ program: 'execute\nPay.' });
        } finally {
          Set.prototype.has = real;
        }
      },
    });
    await (paying as () => Promise<unknown>)().catch(() => undefined);
    expect(session.ledger.select({ kind: 'capability.refused' }).map((e) => e.status)).toEqual(['invalid-request']);
    expect(session.ledger.select({ kind: 'trace.anomaly' }).map((e) => (e.data as { property?: string }).property)).toContain('Set.prototype.has');
    expect(received).toEqual([]);
  });

  it('a request whose getter replaces a built-in while it is validated is refused, and the change undone', async () => {
    const received: unknown[] = [];
    const note = defineCapability({ name: 'note', description: 'notes', request: z.object({ text: z.string() }), footprint: [], run: (args) => (received.push(args), 'noted') });
    const { runner } = scriptedRunner([]);
    const source = `export async function run() {
      const request = { get text() { JSON.stringify = () => '{}'; return 'hello'; } };
      try { return await note(request); } catch (e) { return e.name + ':' + e.reason + ':' + e.message; }
    }`;
    const value = await runner.run(callingGenerated(source, note), { grant: { capabilities: [note] } });
    expect(value).toMatch(/^CapabilityRefusedError:invalid-request:.*modified built-ins/);
    expect(received).toEqual([]);
    expect(JSON.stringify({ a: 1 })).toBe('{"a":1}');
  });

  it('a perimeter attempt and its completion are stored even when Map.prototype.set and get drop audit rows', async () => {
    // set is replaced before the call (the gateway's realm check meets it first); get while the effect is in
    // flight, which meets the completion record alone.
    const effects: unknown[] = [];
    const send = defineCapability({
      name: 'send', description: 'egress', request: z.object({ to: z.string() }), footprint: ['egress'],
      // Microtasks only: a timer turn would let the test runner's own RPC meet the replaced Map.prototype.get
      // (and be refused as generated code outside its dispatch).
      run: async (args) => { await Promise.resolve(); effects.push(args); return 'sent'; },
    });
    const store = new InMemoryPerimeterAuditStore();
    const { runner } = scriptedRunner([], { platformPolicy: ['egress'], perimeterAuditStore: store });
    const source = `export async function run() {
      const set = Map.prototype.set, get = Map.prototype.get;
      Map.prototype.set = function (k, v) { return v && typeof v === 'object' && 'attempt' in v ? this : set.call(this, k, v); };
      const call = send({ to: 'outside' });
      Map.prototype.get = function (k) { const v = get.call(this, k); return v && typeof v === 'object' && 'attempt' in v ? undefined : v; };
      return await call;
    }`;
    const value = await runner.run(callingGenerated(source, send), { grant: { capabilities: [send] }, policy: ['egress'] });
    expect(value).toBe('sent');
    expect(Map.prototype.get).toBe(nativeMapGet);
    expect(Map.prototype.set).toBe(nativeMapSet);
    expect(effects).toHaveLength(1);
    expect(store.list().map((e) => [e.attempt.capability, e.status])).toEqual([['send', 'completed']]);
  });

  it('a tool without a grant, or outside the attenuated authority, stays refused when Map.prototype.has and get lie', async () => {
    // Interior code cannot widen its grant: it exposes a rogue tool, then a granted tool inside a scope
    // attenuated without it, after making the step admission's lookups answer "granted" (before the fix the
    // rogue tool ran).
    const { scope, currentState } = await import('../../kernel/src/index.js');
    const ran: string[] = [];
    const rogue = defineTool({ name: 'rogue', description: 'ungranted', input: z.object({}), run: () => { ran.push('rogue'); return 1; } });
    const beta = defineCapability({ name: 'beta', description: 'beta', request: z.object({}), footprint: [], run: () => { ran.push('beta'); return 1; } });
    const alpha = defineCapability({ name: 'alpha', description: 'alpha', request: z.object({}), footprint: [], run: () => 1 });
    const turn = () => ({ toolCalls: [toolCall('rogue', {}), toolCall('beta', {}), finish()] });
    const { runner } = scriptedRunner([turn, turn]);
    const real = { has: Map.prototype.has, get: Map.prototype.get };
    const lie = (): void => {
      Map.prototype.has = function (this: Map<unknown, unknown>, k: unknown) { return k === rogue ? true : real.has.call(this, k); };
      Map.prototype.get = function (this: Map<unknown, unknown>, k: unknown) { return real.get.call(this, k) ?? (k === rogue ? 'alpha' : undefined); };
    };
    const restore = (): void => {
      Map.prototype.has = real.has;
      Map.prototype.get = real.get;
    };
    const outcomes = await runner.run(async (ctx) => {
      const out: string[] = [];
      const betaTool = currentState()!.tools.find((t) => t.name === 'beta')!;
      for (const tools of [[rogue], [betaTool]]) {
        try {
          await ctx.attenuate({ capabilities: ['alpha'] }, () => scope({ tools }, () => { lie(); return step({ program: 'execute\nUse the tools.' }); }));
          out.push('ran');
        } catch (error) {
          out.push((error as { failure?: string }).failure ?? String(error));
        } finally {
          restore();
        }
      }
      return out;
    }, { grant: { capabilities: [alpha, beta] } });
    expect(ran).toEqual([]);
    expect(outcomes).toEqual(['trace_anomaly', 'trace_anomaly']);
    expect(runner.ledger.select({ kind: 'trace.anomaly' }).map((e) => e.status)).toEqual(expect.arrayContaining(['ungranted_tool', 'ambient_tool']));
  });

  it('a model expression that reads a secret and breaks Set.prototype.add is still named in its secret_read evidence', async () => {
    // Set.prototype is outside the per-operation check: the anomaly is built while the replacement is in place.
    const { registerSecret } = await import('../../kernel/src/index.js');
    const token = 'pollution-secret-4f1c9a7e2b';
    registerSecret('POLLUTION_TOKEN', token);
    try {
      const expression = '(Set.prototype.add = function () { return this; }, token + "!")';
      const { runner } = scriptedRunner([() => ({ toolCalls: [toolCall('nh_evaluate', { expression })] }), () => ({ toolCalls: [finish()] })]);
      // The model also broke its own step (the executor parses its next tool call with the replaced add): only
      // the evidence matters here.
      await runner.run(async () => step({ program: 'execute\nGo.' }), { grant: { references: { token } } }).catch(() => undefined);
      const reads = runner.ledger.select({ kind: 'trace.anomaly' }).filter((e) => e.status === 'secret_read');
      expect(reads.map((e) => e.data)).toEqual([expect.objectContaining({ via: 'operation', secrets: ['POLLUTION_TOKEN'] })]);
      expect(new Set([1]).size).toBe(1); // restored at the end of the execution
    } finally {
      registerSecret('POLLUTION_TOKEN', undefined);
    }
  });

  it('terminate() still reaches a capability in flight when AbortController.prototype.abort and the signal were replaced', async () => {
    // Termination is a host decision: generated code that disables the abort (or hides it from listeners)
    // before awaiting a long capability must not keep that capability running past the stop.
    let entered!: () => void;
    const started = new Promise<void>((resolve) => (entered = resolve));
    let seen = 'still running';
    const wait = defineCapability({
      name: 'wait',
      description: 'waits for the run to stop',
      request: z.object({}),
      footprint: [],
      // A careful capability listens through the method it captured at load; the host must still abort.
      run: (_args, ctx) =>
        new Promise((resolve) => {
          entered();
          Reflect.apply(listen, ctx.signal, ['abort', () => resolve((seen = 'aborted')), { once: true }]);
        }),
    });
    const { runner } = scriptedRunner([]);
    const source = `export async function run() {
      // Started first: the gateway's realm check has run; the stop must get through what follows.
      const call = wait({});
      AbortController.prototype.abort = function () {};
      const add = EventTarget.prototype.addEventListener;
      EventTarget.prototype.addEventListener = function (type, fn, o) { return type === 'abort' ? undefined : add.call(this, type, fn, o); };
      return await call;
    }`;
    const handle = runner.start(callingGenerated(source, wait), { grant: { capabilities: [wait] } });
    await started;
    await handle.terminate('operator stop');
    await handle.result.catch(() => undefined);
    expect(seen).toBe('aborted');
    expect(AbortController.prototype.abort).toBe(nativeAbort); // restored when the dispatch node ended
  });

  it('the ledger keeps events appended inside the window: replaced push, freeze, Date.now and Set.prototype.has change nothing', async () => {
    // The attack on the record itself: drop the capability.call event as the ledger stores it, leave it
    // unfrozen, forge its time, and make the terminal-event check answer "already ended".
    const source = `export async function run() {
      // Started first: the gateway has validated and undone earlier changes; what follows meets the record alone.
      const call = echo({ text: 'kept' });
      const push = Array.prototype.push, freeze = Object.freeze, has = Set.prototype.has, now = Date.now;
      Array.prototype.push = function (...items) { return items[0] && items[0].kind === 'capability.call' ? this.length : push.apply(this, items); };
      Object.freeze = (o) => o;
      Date.now = () => 0;
      Set.prototype.has = function (v) { return typeof v === 'string' && v.startsWith('run.end:') ? true : has.call(this, v); };
      return await call;
    }`;
    const { runner } = scriptedRunner([]);
    const before = Date.now();
    const value = await runner.run(callingGenerated(source, echo), { grant: { capabilities: [echo] } });
    expect(value).toEqual({ echoed: 'kept' });
    const [call] = runner.ledger.select({ kind: 'capability.call' });
    expect(call?.data).toMatchObject({ capability: 'echo', result: { echoed: 'kept' } });
    expect(Object.isFrozen(call)).toBe(true);
    expect(call!.at).toBeGreaterThanOrEqual(before);
    expect(runner.ledger.select({ kind: 'run.end' })).toHaveLength(1);
  });

  it('the same attack on the ledger from a model expression: later records of the execution keep true times and every event', async () => {
    // Date.now and Set.prototype.has are outside the per-operation check, so they stay replaced until the
    // execution ends; the capability call and the operations after it are recorded meanwhile.
    const pollute =
      "(Date.now = () => 0, ((has) => { Set.prototype.has = function (v) { return typeof v === 'string' && v.indexOf('run.end:') === 0 ? true : has.call(this, v); }; })(Set.prototype.has), 1)";
    const { runner } = scriptedRunner([
      () => ({ toolCalls: [toolCall('nh_evaluate', { expression: pollute })] }),
      () => ({ toolCalls: [toolCall('echo', { text: 'kept' })] }),
      () => ({ toolCalls: [finish()] }),
    ]);
    const before = Date.now();
    const outcome = await runner.run(async () => step({ program: 'execute\nGo.' }), { grant: { capabilities: [echo] } }).then(() => 'ok', (e: unknown) => e);
    expect(outcome).toBe('ok');
    expect(Date.now()).toBeGreaterThanOrEqual(before); // restored at the execution's end
    const events = runner.ledger.select({});
    expect(events.every((e) => e.at >= before)).toBe(true);
    expect(runner.ledger.select({ kind: 'capability.call' })).toHaveLength(1);
    expect(runner.ledger.select({ kind: 'run.end' })).toHaveLength(1);
    const changed = runner.ledger.select({ kind: 'trace.anomaly' }).map((e) => (e.data as unknown as { property: string }).property);
    expect(changed).toEqual(expect.arrayContaining(['Date.now', 'Set.prototype.has']));
  });

  it('the same attack on the ledger from a SessionFunction body: its run records every event once, with true times', async () => {
    const { Session, AgentExecutor } = await import('../../kernel/src/index.js');
    const { ScriptedModel } = await import('../../kernel/src/testing.js');
    const session = new Session({ executor: new AgentExecutor({ model: new ScriptedModel(() => ({ toolCalls: [finish()] })) }) });
    const real = { now: Date.now, has: Set.prototype.has, push: Array.prototype.push, freeze: Object.freeze };
    const { polluted } = session.materialized(session.submit('async function polluted() {}'), {
      polluted: async () => {
        Date.now = () => 0;
        Set.prototype.has = function (this: Set<unknown>, v: unknown) {
          return typeof v === 'string' && v.startsWith('run.end:') ? true : real.has.call(this, v);
        };
        Array.prototype.push = function (this: unknown[], ...items: unknown[]) {
          return (items[0] as { kind?: string } | undefined)?.kind === 'execution.end' ? this.length : real.push.apply(this, items);
        };
        Object.freeze = (<T>(o: T): T => o) as typeof Object.freeze;
        try {
          await step({ program: 'execute\nGo.' });
        } finally {
          Date.now = real.now;
          Set.prototype.has = real.has;
          Array.prototype.push = real.push;
          Object.freeze = real.freeze;
        }
        return 'done';
      },
    });
    const before = Date.now();
    await expect((polluted as () => Promise<unknown>)()).resolves.toBe('done');
    const runId = session.ledger.select({ kind: 'run.entry' }).at(-1)!.runId;
    const own = session.ledger.select({ runId });
    expect(own.filter((e) => e.kind === 'execution.end')).toHaveLength(1);
    expect(own.filter((e) => e.kind === 'run.end')).toHaveLength(1);
    expect(own.every((e) => e.at >= before && Object.isFrozen(e))).toBe(true);
  });

  /** Runs generated `source` (calling `echo`) with a SQLite ledger store attached; returns what it persisted. */
  async function persistedRun(source: string) {
    const { SqliteLedgerStore } = await import('../../kernel/src/index.js');
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'nh-window-db-'));
    const store = new SqliteLedgerStore(join(dir, 'ledger.db'));
    const { runner } = scriptedRunner([]);
    store.attach(runner.ledger);
    try {
      await runner.run(callingGenerated(source, echo), { grant: { capabilities: [echo] } });
      await new Promise((resolve) => setTimeout(resolve, 10));
      return { persisted: store.load(runner.ledger.select({})[0]!.runId), recorded: runner.ledger.select({}) };
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('the SQLite ledger persists events appended while push lies and queueMicrotask does nothing', async () => {
    // The store queues events and writes them in a microtask: a dropped queue entry, or a flush never
    // scheduled (and, before the fix, never scheduled again), loses the capability call from disk.
    const { persisted, recorded } = await persistedRun(`export async function run() {
      // Started first: the gateway has validated and undone earlier changes; what follows meets the record alone.
      const call = echo({ text: 'on disk' });
      const push = Array.prototype.push;
      Array.prototype.push = function (...items) { const row = items[0]; return Array.isArray(row) && row[1] && row[1].kind === 'capability.call' ? this.length : push.apply(this, items); };
      queueMicrotask = () => {};
      return await call;
    }`);
    expect(persisted.find((e) => e.kind === 'capability.call')?.data).toMatchObject({ result: { echoed: 'on disk' } });
    expect(persisted.length).toBe(recorded.length);
  });

  it('eviction inside the window keeps the ledger whole: a splice that empties arrays and a throwing Map iterator lose nothing', async () => {
    // A one-event window over a store: the calls' records cross the eviction threshold while generated code has
    // replaced what eviction would use. All calls start first (each passes the gateway's realm check), then
    // the pollution meets the records alone.
    const { SqliteLedgerStore, Ledger } = await import('../../kernel/src/index.js');
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'nh-evict-db-'));
    const store = new SqliteLedgerStore(join(dir, 'ledger.db'));
    const ledger = new Ledger({ store, window: 1 });
    const { runner } = scriptedRunner([], { ledger });
    const source = `export async function run() {
      const calls = [];
      for (let i = 0; i < 80; i++) calls.push(echo({ text: 'call ' + i }));
      Array.prototype.splice = function () { this.length = 0; return []; };
      Map.prototype[Symbol.iterator] = function () { throw new Error('no iteration'); };
      Map.prototype.entries = function () { throw new Error('no iteration'); };
      const results = await Promise.all(calls);
      return results.length;
    }`;
    try {
      const value = await runner.run(callingGenerated(source, echo), { grant: { capabilities: [echo] } });
      expect(value).toBe(80);
      const all = runner.ledger.select({});
      expect(all.filter((e) => e.kind === 'capability.call')).toHaveLength(80);
      expect(all.filter((e) => e.kind === 'run.end')).toHaveLength(1);
      expect(all.map((e) => e.sequence)).toEqual(all.map((_, i) => i + 1));
      expect(ledger.window.length).toBeLessThanOrEqual(1 + 64);
      const changed = all.filter((e) => e.kind === 'trace.anomaly').map((e) => (e.data as unknown as { property: string }).property);
      expect(changed).toEqual(expect.arrayContaining(['Array.prototype.splice']));
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the SQLite ledger persists events appended while Object.prototype.toJSON throws', async () => {
    const { persisted, recorded } = await persistedRun(`export function run() {
      Object.defineProperty(Object.prototype, 'toJSON', { value: function () { throw new Error('poisoned'); }, configurable: true, writable: true });
      return echo({ text: 'inside the window' });
    }`);
    expect(persisted.find((e) => e.kind === 'capability.call')?.data).toMatchObject({ capability: 'echo', result: { echoed: 'inside the window' } });
    expect(persisted.length).toBe(recorded.length);
  });
});
