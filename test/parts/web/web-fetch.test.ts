import { afterEach, describe, expect, it } from 'vitest';
import {
  AgentExecutor,
  CapabilityRefusedError,
  InMemoryPerimeterAuditStore,
  NodeWebFetchClient,
  Runner,
  UnmediatedPerimeterEffectError,
  WebFetchFailedError,
  WebPolicyRefusedError,
  step,
  webUrlPolicy,
  webFetchCapability,
  type ModelMessage,
  type WebFetchResult,
} from '../../../kernel/src/index.js';
import { ScriptedModel, toolCall, type ScriptedTurn } from '../../../kernel/src/testing.js';
import { startServer, type TestServer } from './support.js';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function helloServer(): Promise<TestServer> {
  const server = await startServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'x-internal': 'not reported' });
    res.end(req.method === 'POST' ? `echo:${req.body}` : `hello from ${req.path}`);
  });
  servers.push(server);
  return server;
}

function egressRunner(turns: ScriptedTurn[] = []) {
  const store = new InMemoryPerimeterAuditStore();
  const model = new ScriptedModel(turns);
  const runner = new Runner({ executor: new AgentExecutor({ model, maxRequestsPerStep: 10 }), platformPolicy: ['egress'], perimeterAuditStore: store });
  return { runner, store, model };
}

const loopbackOnly = () => webFetchCapability({ policy: { schemes: ['http'], hostnames: ['127.0.0.1'] } });

describe('parts/web fetch capability', () => {
  it('an allowed fetch returns a typed bounded result and is recorded in the ledger and the perimeter audit store', async () => {
    const server = await helloServer();
    const { runner, store } = egressRunner();
    const fetcher = loopbackOnly();
    expect(fetcher.footprint).toEqual(['egress']);
    const result = (await runner.run((ctx) => ctx.invoke('web_fetch', { url: `${server.origin}/hello?x=1` }), { grant: { capabilities: [fetcher] } })) as WebFetchResult;
    expect(result).toEqual({ status: 200, url: `${server.origin}/hello?x=1`, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'hello from /hello?x=1', truncated: false, redirects: 0 });
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /hello?x=1']);
    const calls = runner.ledger.select({ kind: 'capability.call' });
    expect(calls.map((e) => e.status)).toEqual(['completed']);
    expect(calls[0]!.data).toMatchObject({ capability: 'web_fetch', footprint: ['egress'], arguments: { url: `${server.origin}/hello?x=1` } });
    const audit = store.list();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.status).toBe('completed');
    expect(audit[0]!.attempt).toMatchObject({ capability: 'web_fetch', footprint: ['egress'], runId: calls[0]!.runId });
    expect(JSON.parse(audit[0]!.attempt.arguments)).toEqual({ url: `${server.origin}/hello?x=1` });
  });

  it('a POST carries its body and the response body is cut at maxBytes with truncated set', async () => {
    const server = await helloServer();
    const { runner } = egressRunner();
    const fetcher = webFetchCapability({ policy: { schemes: ['http'], hostnames: ['127.0.0.1'] }, maxBytes: 8 });
    const result = (await runner.run((ctx) => ctx.invoke('web_fetch', { url: server.origin, method: 'POST', body: 'payload-1234', headers: { 'Content-Type': 'text/plain' } }), { grant: { capabilities: [fetcher] } })) as WebFetchResult;
    expect(server.requests[0]).toMatchObject({ method: 'POST', body: 'payload-1234' });
    expect(server.requests[0]!.headers['content-type']).toBe('text/plain');
    expect(result.body).toBe('echo:pay');
    expect(result.truncated).toBe(true);
  });

  it('a server that never answers ends in a typed timeout failure', async () => {
    const silent = await startServer(() => undefined);
    servers.push(silent);
    const { runner, store } = egressRunner();
    const fetcher = webFetchCapability({ policy: { schemes: ['http'], hostnames: ['127.0.0.1'] }, timeoutMs: 100 });
    const error = await runner.run((ctx) => ctx.invoke('web_fetch', { url: silent.origin }), { grant: { capabilities: [fetcher] } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebFetchFailedError);
    expect((error as WebFetchFailedError).reason).toBe('timeout');
    expect(silent.requests).toHaveLength(1);
    expect(store.list()[0]!.status).toBe('failed');
  });

  it('a disallowed scheme or host is refused before any connection is made', async () => {
    const server = await helloServer();
    const { runner, store } = egressRunner();
    const outcomes = await runner.run(
      async (ctx) => {
        const out: unknown[] = [];
        for (const url of [`https://127.0.0.1:${server.port}/`, `http://localhost:${server.port}/`, `http://user:pw@127.0.0.1:${server.port}/`]) {
          out.push(await ctx.invoke('web_fetch', { url }).catch((e: unknown) => e));
        }
        return out;
      },
      { grant: { capabilities: [loopbackOnly()] } },
    );
    expect(outcomes.map((e) => (e as WebPolicyRefusedError).reason)).toEqual(['scheme', 'hostname', 'credentials-in-url']);
    expect(outcomes.every((e) => e instanceof WebPolicyRefusedError && e.hop === 0)).toBe(true);
    expect(server.connections).toBe(0);
    expect(runner.ledger.select({ kind: 'capability.call' }).map((e) => e.status)).toEqual(['failed', 'failed', 'failed']);
    expect(store.list().map((e) => e.status)).toEqual(['failed', 'failed', 'failed']);
  });

  it('transport headers that could steer the request past the policy are refused as an invalid request', async () => {
    const server = await helloServer();
    const { runner, store } = egressRunner();
    const error = await runner
      .run((ctx) => ctx.invoke('web_fetch', { url: server.origin, headers: { Host: 'elsewhere.test' } }), { grant: { capabilities: [loopbackOnly()] } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CapabilityRefusedError);
    expect((error as CapabilityRefusedError).reason).toBe('invalid-request');
    expect(store.list()).toHaveLength(0);
    expect(server.connections).toBe(0);
  });

  it('a run without the grant cannot fetch', async () => {
    const server = await helloServer();
    const { runner, store } = egressRunner();
    const error = await runner.run((ctx) => ctx.invoke('web_fetch', { url: server.origin })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CapabilityRefusedError);
    expect((error as CapabilityRefusedError).reason).toBe('not-granted');
    expect(runner.ledger.select({ kind: 'capability.refused' })).toHaveLength(1);
    expect(store.list()).toHaveLength(0);
    expect(server.connections).toBe(0);
  });

  it('a run whose policy does not permit egress refuses the capability before its body', async () => {
    const server = await helloServer();
    const { runner, store } = egressRunner();
    const error = await runner
      .run((ctx) => ctx.invoke('web_fetch', { url: server.origin }), { grant: { capabilities: [loopbackOnly()] }, policy: [] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CapabilityRefusedError);
    expect((error as CapabilityRefusedError).reason).toBe('footprint-outside-policy');
    expect(store.list()).toHaveLength(0);
    expect(server.connections).toBe(0);
  });

  it('interior code that fetches directly, outside the capability, is refused by the effect audit', async () => {
    const server = await helloServer();
    const { runner } = egressRunner();
    const error = await runner.run(async () => fetch(server.origin), { grant: { capabilities: [loopbackOnly()] } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnmediatedPerimeterEffectError);
    expect(runner.ledger.select({ kind: 'trace.anomaly' })[0]!.status).toBe('unmediated_perimeter_effect');
    expect(server.connections).toBe(0);
  });

  it('the default backend used directly by interior code, outside the capability gateway, is refused by the effect audit', async () => {
    const server = await helloServer();
    const { runner } = egressRunner();
    const client = new NodeWebFetchClient();
    const policy = webUrlPolicy({ schemes: ['http'], hostnames: ['127.0.0.1'] });
    const error = await runner
      .run(async (ctx) => client.fetch({ url: server.origin, method: 'GET', headers: {} }, { policy, maxBytes: 100, maxRedirects: 0, responseHeaders: [], signal: ctx.signal }), { grant: { capabilities: [loopbackOnly()] } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnmediatedPerimeterEffectError);
    expect(runner.ledger.select({ kind: 'trace.anomaly' })[0]!.data).toMatchObject({ effect: 'http.request' });
    expect(server.connections).toBe(0);
  });

  it('a Natural step whose model calls the fetch tool gets the typed result and commits from it', async () => {
    const server = await helloServer();
    let seenResult: WebFetchResult | undefined;
    const turns: ScriptedTurn[] = [
      () => ({ toolCalls: [toolCall('web_fetch', { url: `${server.origin}/page` })] }),
      (messages: readonly ModelMessage[]) => {
        const tool = messages.find((m): m is Extract<ModelMessage, { role: 'tool' }> => m.role === 'tool' && m.name === 'web_fetch')!;
        seenResult = (JSON.parse(tool.content) as { value: WebFetchResult }).value;
        return { toolCalls: [toolCall('nh_assign', { target_path: 'page', expression: JSON.stringify(seenResult.body) }), toolCall('nh_output', { result: { kind: 'pass' } })] };
      },
    ];
    const { runner, store } = egressRunner(turns);
    const { bindings } = await runner.run(() => step({ program: 'execute\nFetch /page from the test server and put its body in <:page>.', writes: {} }), { grant: { capabilities: [loopbackOnly()] } });
    expect(bindings.page).toBe('hello from /page');
    expect(seenResult).toMatchObject({ status: 200, truncated: false });
    const call = runner.ledger.select({ kind: 'capability.call' })[0]!;
    expect(call.parentId).toBe(runner.ledger.select({ kind: 'execution.start' })[0]!.subjectId);
    expect(store.list()[0]!.attempt.executionId).toBe(call.parentId);
    expect(server.requests.map((r) => r.path)).toEqual(['/page']);
  });
});
