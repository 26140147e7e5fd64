/**
 * Attacks on primitives the host shares with model code in one realm, with only built-in functions (a
 * bound built-in is not model-made, so the late-callback guard never sees it run):
 * - a `diagnostics_channel` subscriber would see every request the host's own HTTP client sends (the
 *   provider's key in its headers);
 * - a replaced `Hash.prototype.digest` would forge generated definition identities and approved source
 *   hashes, and stay replaced after the run;
 * - a `Symbol.hasInstance` defined on an exported error class (or on `Error`) would turn the host's
 *   `instanceof` decisions and drop `allocation.exhausted` or a failed capability call from the ledger.
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

const pass = () => toolCall('nh_output', { result: { kind: 'pass' } });
const evaluate = (expression: string) => toolCall('nh_evaluate', { expression });
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** One step whose model evaluates `expression` first, then finishes. */
async function expressionRun(expression: string, extra: Record<string, unknown> = {}) {
  const model = new ScriptedModel([() => ({ toolCalls: [evaluate(expression)] }), () => ({ toolCalls: [pass()] })]);
  const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
  await runner.run(() => nh.scope({ taskReferences: { nh, ...extra } }, () => nh.step({ program: 'execute\nDo it.' })));
  const events = runner.ledger.select({});
  const operation = events.find((e) => e.kind === 'operation')!;
  return { runner, events, operation, anomalies: events.filter((e) => e.kind === 'trace.anomaly') };
}

const hashProto = Object.getPrototypeOf(createHash('sha256')) as { digest: unknown; update: unknown };
const originalDigest = hashProto.digest;
/** The real SHA-256 while Hash.prototype.digest is replaced: the original digest, called directly. */
const sha256Real = (text: string) => (originalDigest as (this: unknown, encoding: string) => string).call(createHash('sha256').update(text, 'utf8'), 'hex');
const errorHasInstance = Object.getOwnPropertyDescriptor(Error, Symbol.hasInstance);

afterEach(() => {
  // Whatever a failing case left behind must not spill into the next one.
  hashProto.digest = originalDigest;
  for (const ctor of [Error, nh.NighthawkError, nh.AllocationExhaustedError, nh.CapabilityRefusedError]) {
    if (Object.getOwnPropertyDescriptor(ctor, Symbol.hasInstance) && !(ctor === Error && errorHasInstance)) {
      Reflect.deleteProperty(ctor, Symbol.hasInstance);
    }
  }
});

describe('attack: a diagnostics_channel subscriber from model code', () => {
  it('a model expression cannot load diagnostics_channel: refused at run time and recorded', async () => {
    const { operation, anomalies } = await expressionRun(
      "(() => { const dc = process.getBuiltinModule('node:diagnostics_channel'); const seen = []; dc.subscribe('undici:client:sendHeaders', Array.prototype.push.bind(seen)); return 'subscribed'; })()",
    );
    expect(operation.status).toBe('failed');
    expect(JSON.stringify(operation.data)).toContain('RawDynamicExecutionRefusedError');
    expect(anomalies.map((a) => [a.status, (a.data as { module?: string }).module])).toContainEqual(['raw_dynamic_execution', 'node:diagnostics_channel']);
  });

  it('nor through process.getBuiltinModule without the node: prefix', async () => {
    const { operation, anomalies } = await expressionRun("process.getBuiltinModule('diagnostics_channel').channel('x').hasSubscribers");
    expect(operation.status).toBe('failed');
    expect(anomalies.some((a) => a.status === 'raw_dynamic_execution')).toBe(true);
  });
});

describe("attack: a write put on the HTTPS socket class's prototype", () => {
  it('shadowing net.Socket.prototype.write with a recorder is undone by the realm check and recorded', async () => {
    const tls = await import('node:tls');
    const before = Object.getOwnPropertyDescriptor(tls.TLSSocket.prototype, 'write');
    const { anomalies } = await expressionRun(
      "(() => { const tls = process.getBuiltinModule('node:tls'); globalThis.__sent = []; tls.TLSSocket.prototype.write = Array.prototype.push.bind(globalThis.__sent); return 1; })()",
    );
    delete (globalThis as { __sent?: unknown }).__sent;
    expect(Object.getOwnPropertyDescriptor(tls.TLSSocket.prototype, 'write')).toEqual(before);
    expect(anomalies.map((a) => (a.data as { property?: string }).property)).toContain('tls.TLSSocket.prototype.write');
  });
});

describe('attack: a replaced Hash.prototype.digest', () => {
  it('is put back when the step ends and recorded; a later submission hashes its real source', async () => {
    const forged = 'f'.repeat(64);
    const { anomalies } = await expressionRun(
      `(() => { const c = process.getBuiltinModule('node:crypto'); Object.getPrototypeOf(c.createHash('sha256')).digest = String.prototype.toString.bind('${forged}'); return 1; })()`,
    );
    expect(hashProto.digest).toBe(originalDigest);
    expect(anomalies.map((a) => (a.data as { property?: string }).property)).toContain('crypto.Hash.prototype.digest');
    const session = new nh.Session({ executor: new nh.AgentExecutor({ model: new ScriptedModel([]) }) });
    const source = 'const answer = 42;';
    expect(session.submit(source).sourceHash).toBe(sha256(source));
  });

  it('replaced from generated code: put back when its node ends and recorded; a later dispatch hashes its real source', async () => {
    const forged = 'f'.repeat(64);
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model: new ScriptedModel([]) }) });
    const later = { language: 'javascript' as const, intent: 'define' as const, source: 'export function later() { return 2; }' };
    const ids = await runner.run(async (ctx) => {
      const out = await ctx.dispatch({
        language: 'javascript',
        intent: 'define-and-invoke',
        entry: 'spoil',
        source: `export function spoil() { const c = process.getBuiltinModule('node:crypto'); Object.getPrototypeOf(c.createHash('sha256')).digest = String.prototype.toString.bind('${forged}'); return 1; }`,
        dependencies: [],
      });
      expect(out.invocation!.value).toBe(1);
      await ctx.dispatch(later);
      return runner.ledger.select({ kind: 'dispatch.start' }).map((e) => (e.data as { definitionId: string }).definitionId);
    });
    expect(hashProto.digest).toBe(originalDigest);
    expect(ids.at(-1)).toBe(nh.definitionIdOf(later));
    expect(ids.every((id) => !id.includes(forged))).toBe(true);
    const anomalies = runner.ledger.select({ kind: 'trace.anomaly' });
    expect(anomalies.map((a) => (a.data as { property?: string }).property)).toContain('crypto.Hash.prototype.digest');
  });

  it('replaced in a SessionFunction body (operator code, so not undone): the host still hashes dispatched and submitted source truly', async () => {
    const forged = 'e'.repeat(64);
    const session = new nh.Session({ executor: new nh.AgentExecutor({ model: new ScriptedModel([]) }) });
    const proposal = { language: 'javascript' as const, intent: 'define' as const, source: 'export function two() { return 2; }' };
    const body = async () => {
      hashProto.digest = String.prototype.toString.bind(forged);
      await nh.currentDispatcher().dispatch(proposal);
      return 1;
    };
    const { spoil } = session.materialized(session.submit('async function spoil() { /* replaces Hash.prototype.digest, then dispatches */ }'), { spoil: body });
    await spoil!();
    const ids = session.ledger.select({ kind: 'dispatch.start' }).map((e) => (e.data as { definitionId: string }).definitionId);
    hashProto.digest = originalDigest;
    expect(ids).toEqual([nh.definitionIdOf(proposal)]);
    expect(ids[0]).not.toContain(forged);
    const source = 'const next = 1;';
    hashProto.digest = String.prototype.toString.bind(forged);
    try {
      expect(session.submit(source).sourceHash).toBe(sha256Real(source));
    } finally {
      hashProto.digest = originalDigest;
    }
  });

  it('the host hashes on captured primitives: a digest replaced before the run changes no definition identity', async () => {
    const proposal = { language: 'javascript' as const, intent: 'define' as const, source: 'export function add(a, b) { return a + b; }' };
    const expected = nh.definitionIdOf(proposal);
    hashProto.digest = String.prototype.toString.bind('0'.repeat(64));
    try {
      expect(nh.definitionIdOf(proposal)).toBe(expected);
      const session = new nh.Session({ executor: new nh.AgentExecutor({ model: new ScriptedModel([]) }) });
      expect(session.submit('let x = 1;').sourceHash).not.toBe('0'.repeat(64));
    } finally {
      hashProto.digest = originalDigest;
    }
    expect(nh.definitionIdOf(proposal)).toBe(`sha256:${createHash('sha256').update(JSON.stringify({ v: 1, language: 'javascript', intent: 'define', source: proposal.source, dependencies: [] })).digest('hex')}`);
  });
});

describe("attack: Symbol.hasInstance on the host's error classes", () => {
  for (const target of ['nh.AllocationExhaustedError', 'nh.NighthawkError', 'Error']) {
    it(`defined on ${target} from a model expression: allocation.exhausted is still recorded`, async () => {
      const model = new ScriptedModel([
        () => ({ toolCalls: [evaluate(`(Object.defineProperty(${target}, Symbol.hasInstance, { value: () => false, configurable: true }), 1)`)] }),
        () => ({ toolCalls: [evaluate('2')] }),
        () => ({ toolCalls: [evaluate('3')] }),
        () => ({ toolCalls: [pass()] }),
      ]);
      const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
      const error = await runner
        .run(() => nh.scope({ taskReferences: { nh } }, () => nh.step({ program: 'execute\nLoop.' })), { allocation: { maxExecutorSteps: 2 } })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      const events = runner.ledger.select({});
      expect(events.filter((e) => e.kind === 'allocation.exhausted')).toHaveLength(1);
      const end = events.find((e) => e.kind === 'execution.end')!;
      expect((end.data as { failure?: string }).failure).toBe('allocation_exhausted');
    });
  }

  it('defined on nh.AllocationExhaustedError from generated code: allocation.exhausted is still recorded', async () => {
    const model = new ScriptedModel(() => ({ toolCalls: [evaluate('1')] }));
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
    const error = await runner
      .run(
        async () => {
          const out = await nh.currentDispatcher().dispatch({
            language: 'javascript',
            intent: 'define-and-invoke',
            entry: 'spoil',
            source: 'export function spoil() { try { Object.defineProperty(nh.AllocationExhaustedError, Symbol.hasInstance, { value: () => false, configurable: true }); return 1; } catch (e) { return e.name; } }',
            dependencies: [{ name: 'nh', kind: 'reference', type: 'object' }],
          });
          // The library's error classes are frozen (error-classes.test.ts): the engine refuses the definition.
          expect(out.invocation!.value).toBe('TypeError');
          await nh.step({ program: 'execute\nLoop.' });
        },
        { grant: { capabilities: [], references: { nh } }, allocation: { maxExecutorSteps: 2 } },
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(runner.ledger.select({}).filter((e) => e.kind === 'allocation.exhausted')).toHaveLength(1);
  });

  it('defined on nh.AllocationExhaustedError from a SessionFunction body: allocation.exhausted is still recorded', async () => {
    const model = new ScriptedModel(() => ({ toolCalls: [evaluate('1')] }));
    const session = new nh.Session({ executor: new nh.AgentExecutor({ model }), allocation: { maxExecutorSteps: 2 } });
    let defined = 'not tried';
    const body = async () => {
      try {
        Object.defineProperty(nh.AllocationExhaustedError, Symbol.hasInstance, { value: () => false, configurable: true });
        defined = 'defined';
      } catch (e) {
        defined = (e as Error).name;
      }
      await nh.step({ program: 'execute\nLoop.' });
    };
    const { agent } = session.materialized(session.submit('async function agent() { /* spoils instanceof, then loops */ }'), { agent: body });
    await expect(agent!()).rejects.toBeInstanceOf(Error);
    // Frozen like every library error class: even operator code cannot define it now.
    expect(defined).toBe('TypeError');
    expect(session.ledger.select({}).filter((e) => e.kind === 'allocation.exhausted')).toHaveLength(1);
  });

  it('true for every value on CapabilityRefusedError: a capability that fails is still recorded failed', async () => {
    const broken = nh.defineCapability({ name: 'broken', description: 'Always fails', request: z.object({}), run: () => { throw new Error('disk on fire'); } });
    const model = new ScriptedModel([
      () => ({ toolCalls: [evaluate('(Object.defineProperty(nh.CapabilityRefusedError, Symbol.hasInstance, { value: () => true, configurable: true }), 1)')] }),
      () => ({ toolCalls: [toolCall('broken', {})] }),
      () => ({ toolCalls: [pass()] }),
    ]);
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
    await runner.run(() => nh.scope({ taskReferences: { nh } }, () => nh.step({ program: 'execute\nCall broken.' })), { grant: { capabilities: [broken] } });
    const calls = runner.ledger.select({}).filter((e) => e.kind === 'capability.call');
    expect(calls.map((e) => e.status)).toContain('failed');
  });
});
