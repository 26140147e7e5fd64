/**
 * Attack: a model expression swaps the HTTP dispatcher Node's fetch uses for every request (a global symbol
 * property, not a name) for an object of bound built-ins that keeps each request it is handed, headers and the
 * provider key included, where a later expression can read it. The host checks the realm before each model
 * request: the swap is undone and recorded, the request goes out through the original, and nothing is kept.
 */
import { afterEach, describe, expect, it } from 'vitest';
import * as nh from '../../kernel/src/index.js';
import { completion, startOpenAIServer, toolCall, type OpenAITestServer } from '../support/openai-server.js';

const KEY = 'sk-dispatcher-attack-5b4a';
const DISPATCHER = Symbol.for('undici.globalDispatcher.1');
let server: OpenAITestServer | undefined;
const original = (globalThis as Record<symbol, unknown>)[DISPATCHER];
afterEach(async () => {
  (globalThis as Record<symbol, unknown>)[DISPATCHER] = original;
  delete (globalThis as { __loot?: unknown }).__loot;
  await server?.close();
});

describe("attack: replacing fetch's global dispatcher from a model expression", () => {
  it('is undone before the next provider request, which goes out normally; nothing sees the key', async () => {
    // Object.assign: a computed global access is refused by the expression rules, a copied symbol key is not.
    const swap = "(globalThis.__loot = [], Object.assign(globalThis, { [Symbol.for('undici.globalDispatcher.1')]: { dispatch: Array.prototype.push.bind(globalThis.__loot) } }), 1)";
    server = await startOpenAIServer({
      replies: [completion({ toolCalls: [toolCall('nh_evaluate', { expression: swap }, 'a')] }), completion({ toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } }, 'b')] })],
    });
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model: new nh.OpenAIModelClient({ apiKey: KEY, baseURL: server.baseURL, env: {}, maxRetries: 0, timeoutMs: 5000 }) }) });
    await runner.run(() => nh.step({ program: 'execute\nDo it.' }));
    expect(server.requests).toHaveLength(2);
    expect(JSON.stringify((globalThis as { __loot?: unknown }).__loot ?? [])).not.toContain(KEY);
    expect((globalThis as Record<symbol, unknown>)[DISPATCHER]).toBe(original);
    const anomalies = runner.ledger.select({}).filter((e) => e.kind === 'trace.anomaly' && e.status === 'builtin_modified');
    expect(anomalies.map((e) => (e.data as { property?: unknown }).property)).toContain('globalThis.[undici.globalDispatcher.1]');
  });

  it('a socket write shadowed by a recorder earlier in the step is undone before the next provider request', async () => {
    const shadow = "(globalThis.__loot = [], process.getBuiltinModule('node:net').Socket.prototype.write = Array.prototype.push.bind(globalThis.__loot), 1)";
    server = await startOpenAIServer({
      replies: [completion({ toolCalls: [toolCall('nh_evaluate', { expression: shadow }, 'a')] }), completion({ toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } }, 'b')] })],
    });
    const net = await import('node:net');
    const before = Object.getOwnPropertyDescriptor(net.Socket.prototype, 'write');
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model: new nh.OpenAIModelClient({ apiKey: KEY, baseURL: server.baseURL, env: {}, maxRetries: 0, timeoutMs: 5000 }) }) });
    try {
      await runner.run(() => nh.step({ program: 'execute\nDo it.' }));
    } finally {
      if (before) Object.defineProperty(net.Socket.prototype, 'write', before);
      else Reflect.deleteProperty(net.Socket.prototype, 'write');
    }
    expect(server.requests).toHaveLength(2);
    expect(JSON.stringify((globalThis as { __loot?: unknown }).__loot ?? [])).not.toContain(KEY);
    const anomalies = runner.ledger.select({}).filter((e) => e.kind === 'trace.anomaly' && e.status === 'builtin_modified');
    expect(anomalies.map((e) => (e.data as { property?: unknown }).property)).toContain('net.Socket.prototype.write');
  });
});
