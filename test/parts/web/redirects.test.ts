import type http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AgentExecutor,
  InMemoryPerimeterAuditStore,
  Runner,
  WebPolicyRefusedError,
  WebRedirectLimitError,
  webFetchCapability,
  type WebFetchCapabilityOptions,
  type WebFetchClient,
  type WebFetchResult,
} from '../../../kernel/src/index.js';
import { ScriptedModel } from '../../../kernel/src/testing.js';
import { startServer, type TestServer } from './support.js';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** Resolves with whether the server's redirect response was still unfinished when the client closed it. */
type Closed = Promise<{ ended: boolean }>;

async function twoServers() {
  const b = await startServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`secret at ${req.path}`);
  });
  const closed: Closed[] = [];
  const redirect = (res: http.ServerResponse, status: number, location: string) => {
    closed.push(new Promise((resolve) => res.on('close', () => resolve({ ended: res.writableEnded }))));
    res.writeHead(status, { location, 'content-type': 'text/plain' });
    res.write('redirect body that a client must not read; the server never ends it');
  };
  const a = await startServer((req, res) => {
    if (req.path === '/to-b') return redirect(res, 302, `http://127.0.0.1:${b.port}/secret`);
    if (req.path === '/to-localhost') return redirect(res, 302, `http://localhost:${b.port}/secret`);
    if (req.path === '/loop') return redirect(res, 302, '/loop');
    if (req.path === '/post') return redirect(res, 303, '/landing');
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`${req.method} ${req.path} body=${req.body}`);
  });
  servers.push(a, b);
  return { a, b, closed };
}

function fetchRun(options: WebFetchCapabilityOptions, request: Record<string, unknown>) {
  const store = new InMemoryPerimeterAuditStore();
  const runner = new Runner({ executor: new AgentExecutor({ model: new ScriptedModel([]) }), platformPolicy: ['egress'], perimeterAuditStore: store });
  const result = runner.run((ctx) => ctx.invoke('web_fetch', request) as Promise<WebFetchResult>, { grant: { capabilities: [webFetchCapability(options)] } });
  return { runner, store, result };
}

describe('parts/web redirects: the policy judges every hop', () => {
  it('a redirect from an allowed host to a disallowed port is blocked, the redirect body is closed unread and the second server receives nothing', async () => {
    const { a, b, closed } = await twoServers();
    const { runner, store, result } = fetchRun({ policy: { schemes: ['http'], hostnames: ['127.0.0.1'], ports: [a.port] } }, { url: `${a.origin}/to-b` });
    const error = await result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebPolicyRefusedError);
    expect(error).toMatchObject({ reason: 'port', hop: 1, url: `http://127.0.0.1:${b.port}/secret` });
    expect(b.connections).toBe(0);
    expect(a.requests.map((r) => r.path)).toEqual(['/to-b']);
    expect(await closed[0]).toEqual({ ended: false });
    expect(runner.ledger.select({ kind: 'capability.call' })[0]!.status).toBe('failed');
    expect(store.list()[0]!.status).toBe('failed');
  });

  it('a redirect to a hostname outside the policy is blocked before any lookup or connection', async () => {
    const { a, b } = await twoServers();
    const { result } = fetchRun({ policy: { schemes: ['http'], hostnames: ['127.0.0.1'] } }, { url: `${a.origin}/to-localhost` });
    const error = await result.catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'hostname', hop: 1 });
    expect(b.connections).toBe(0);
  });

  it('an allowed redirect is followed to the final URL and credentials do not cross origins', async () => {
    const { a, b, closed } = await twoServers();
    const { result } = fetchRun(
      { policy: { schemes: ['http'], hostnames: ['127.0.0.1'], ports: [a.port, b.port] } },
      { url: `${a.origin}/to-b`, headers: { Authorization: 'Bearer t0ken', Cookie: 'c=1', 'X-Trace': 'kept' } },
    );
    const value = await result;
    expect(value).toMatchObject({ status: 200, url: `http://127.0.0.1:${b.port}/secret`, body: 'secret at /secret', redirects: 1, truncated: false });
    expect(a.requests[0]!.headers).toMatchObject({ authorization: 'Bearer t0ken', cookie: 'c=1', 'x-trace': 'kept' });
    expect(b.requests[0]!.headers.authorization).toBeUndefined();
    expect(b.requests[0]!.headers.cookie).toBeUndefined();
    expect(b.requests[0]!.headers['x-trace']).toBe('kept');
    expect(await closed[0]).toEqual({ ended: false });
  });

  it('host-held credentials are attached only to the hops the host chooses and stay out of the ledger and audit', async () => {
    const { a, b } = await twoServers();
    const { runner, store, result } = fetchRun(
      { policy: { schemes: ['http'], hostnames: ['127.0.0.1'] }, credentialsFor: (hop) => (hop.port === a.port ? { Authorization: 'Bearer host-secret' } : undefined) },
      { url: `${a.origin}/to-b` },
    );
    expect((await result).body).toBe('secret at /secret');
    expect(a.requests[0]!.headers.authorization).toBe('Bearer host-secret');
    expect(b.requests[0]!.headers.authorization).toBeUndefined();
    expect(JSON.stringify(runner.ledger.events())).not.toContain('host-secret');
    expect(JSON.stringify(store.list())).not.toContain('host-secret');
  });

  it('redirects beyond maxRedirects are not followed', async () => {
    const { a } = await twoServers();
    const { result } = fetchRun({ policy: { schemes: ['http'], hostnames: ['127.0.0.1'] }, maxRedirects: 2 }, { url: `${a.origin}/loop` });
    const error = await result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebRedirectLimitError);
    expect(a.requests).toHaveLength(3);
  });

  it('a 303 after a POST continues as a GET without the body', async () => {
    const { a } = await twoServers();
    const { result } = fetchRun({ policy: { schemes: ['http'], hostnames: ['127.0.0.1'] } }, { url: `${a.origin}/post`, method: 'POST', body: 'form=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect((await result).body).toBe('GET /landing body=');
    expect(a.requests.map((r) => `${r.method} ${r.path} ${r.headers['content-type'] ?? '-'}`)).toEqual(['POST /post application/x-www-form-urlencoded', 'GET /landing -']);
  });

  it('the capability judges the submitted request itself, so a backend is never handed a refused destination', async () => {
    const handed: string[] = [];
    const client: WebFetchClient = {
      fetch: async (request) => {
        handed.push(request.url);
        return { status: 200, url: request.url, headers: {}, body: '', truncated: false, redirects: 0 };
      },
    };
    const { result } = fetchRun({ policy: { schemes: ['https'], hostnames: ['example.com'] }, client }, { url: 'https://other.example/' });
    expect(await result.catch((e: unknown) => e)).toMatchObject({ reason: 'hostname', hop: 0 });
    const allowed = fetchRun({ policy: { schemes: ['https'], hostnames: ['example.com'] }, client }, { url: 'HTTPS://EXAMPLE.COM:443/a' });
    await allowed.result;
    expect(handed).toEqual(['https://example.com/a']);
  });
});
