/**
 * SSRF through a hostname pattern. An operator who writes a pattern means "hosts of this shape on the web",
 * e.g. `/^[a-z0-9.-]+$/` for a browsing agent. A model (or a fetched page's redirect) then names the
 * loopback, link-local metadata or private addresses the pattern happens to match: as IP literals in any
 * spelling (decimal `2130706433`, hex, IPv6 `[::1]`, IPv4-mapped `[::ffff:127.0.0.1]`) or as a DNS name that
 * resolves to one (`localhost`). A pattern must never admit a non-public address; only an exact hostname entry
 * (the operator naming that host) does. A name is judged on the address the connection actually uses, so
 * nothing is sent to it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  AgentExecutor,
  InMemoryPerimeterAuditStore,
  Runner,
  WebPolicyRefusedError,
  describeWebRequest,
  normalizeWebUrl,
  webFetchCapability,
  webUrlPolicy,
} from '../../../kernel/src/index.js';
import { ScriptedModel } from '../../../kernel/src/testing.js';
import { startServer, type TestServer } from './support.js';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const ANY_HOST = /^[a-z0-9.\-[\]:]+$/;
const judge = (raw: string, hostnames: (string | RegExp)[] = [ANY_HOST]) => webUrlPolicy({ schemes: ['http'], hostnames })(describeWebRequest(normalizeWebUrl(raw)!, 'GET', 0));

function egressRunner() {
  return new Runner({ executor: new AgentExecutor({ model: new ScriptedModel([]) }), platformPolicy: ['egress'], perimeterAuditStore: new InMemoryPerimeterAuditStore() });
}

describe('parts/web: hostname patterns never admit non-public addresses', () => {
  it('refuses loopback, private, link-local, unique-local and mapped IP literals a pattern matches, in every spelling', () => {
    for (const url of [
      'http://127.0.0.1/', 'http://2130706433/', 'http://0x7f.1/', 'http://10.1.2.3/', 'http://172.16.0.1/', 'http://192.168.1.1/',
      'http://169.254.169.254/latest/meta-data/', 'http://100.64.0.1/', 'http://0.0.0.0/', 'http://[::1]/', 'http://[::]/',
      'http://[::ffff:127.0.0.1]/', 'http://[fe80::1]/', 'http://[fd00::1]/', 'http://[fd00:ec2::254]/', 'http://224.0.0.1/',
    ]) {
      const decision = judge(url);
      expect(decision, url).toMatchObject({ kind: 'refuse', reason: 'private-address' });
    }
    expect(judge('http://93.184.216.34/')).toEqual({ kind: 'allow' });
    expect(judge('http://[2606:2800:220:1:248:1893:25c8:1946]/')).toEqual({ kind: 'allow' });
  });

  it('an exact hostname entry still admits the address the operator named', () => {
    expect(judge('http://127.0.0.1/', ['127.0.0.1'])).toEqual({ kind: 'allow' });
    expect(judge('http://2130706433/', ['127.0.0.1', ANY_HOST])).toEqual({ kind: 'allow' });
    expect(judge('http://10.0.0.1/', ['127.0.0.1', ANY_HOST])).toMatchObject({ kind: 'refuse', reason: 'private-address' });
  });

  it('a decimal-encoded loopback submitted by the model reaches nothing', async () => {
    const server = await startServer((_req, res) => res.end('internal secret'));
    servers.push(server);
    const runner = egressRunner();
    const fetcher = webFetchCapability({ policy: { schemes: ['http'], hostnames: [ANY_HOST] } });
    const error = await runner.run((ctx) => ctx.invoke('web_fetch', { url: `http://2130706433:${server.port}/` }), { grant: { capabilities: [fetcher] } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebPolicyRefusedError);
    expect((error as WebPolicyRefusedError).reason).toBe('private-address');
    expect(server.connections).toBe(0);
  });

  it('a redirect to a name that resolves to loopback is refused on the resolved address before connecting', async () => {
    const internal = await startServer((_req, res) => res.end('internal secret'));
    const publicSite = await startServer((_req, res) => {
      res.writeHead(302, { location: `http://localhost:${internal.port}/admin` });
      res.end();
    });
    servers.push(internal, publicSite);
    const runner = egressRunner();
    // The operator names its own test origin exactly; everything else only through the pattern.
    const fetcher = webFetchCapability({ policy: { schemes: ['http'], hostnames: ['127.0.0.1', ANY_HOST], ports: [publicSite.port] } });
    const direct = await runner.run((ctx) => ctx.invoke('web_fetch', { url: `http://localhost:${publicSite.port}/` }), { grant: { capabilities: [fetcher] } }).catch((e: unknown) => e);
    expect(direct).toBeInstanceOf(WebPolicyRefusedError);
    expect((direct as WebPolicyRefusedError).reason).toBe('private-address');
    expect(publicSite.requests).toHaveLength(0);

    const open = webFetchCapability({ policy: { schemes: ['http'], hostnames: ['127.0.0.1', ANY_HOST] } });
    const redirected = await egressRunner().run((ctx) => ctx.invoke('web_fetch', { url: `${publicSite.origin}/` }), { grant: { capabilities: [open] } }).catch((e: unknown) => e);
    expect(redirected).toBeInstanceOf(WebPolicyRefusedError);
    expect(redirected).toMatchObject({ reason: 'private-address', hop: 1 });
    expect(publicSite.requests).toHaveLength(1);
    expect(internal.connections).toBe(0);
  });
});
