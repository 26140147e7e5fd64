/**
 * A refused web attempt must leave a `trace.anomaly`, not only a failed capability call: a model probing for
 * internal destinations (a disallowed host, a private address, a redirect a fetched page planted) is an attempt the
 * operator reviews in the run's anomalies. The anomaly names the hop, the reason and the destination's scheme and
 * host (not the path or query, where a redirect may carry a token).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AgentExecutor, InMemoryPerimeterAuditStore, Runner, WebPolicyRefusedError, webFetchCapability } from '../../../kernel/src/index.js';
import { ScriptedModel } from '../../../kernel/src/testing.js';
import { startServer, type TestServer } from './support.js';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('parts/web: refused attempts are anomalies', () => {
  it('a refused request and a refused redirect hop each record web_policy_refused', async () => {
    const site = await startServer((_req, res) => {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/iam?token=s3cr3t' });
      res.end();
    });
    servers.push(site);
    const runner = new Runner({ executor: new AgentExecutor({ model: new ScriptedModel([]) }), platformPolicy: ['egress'], perimeterAuditStore: new InMemoryPerimeterAuditStore() });
    const fetcher = webFetchCapability({ policy: { schemes: ['http'], hostnames: ['127.0.0.1', /^[0-9.]+$/] } });
    const errors = await runner.run(
      async (ctx) => [
        await ctx.invoke('web_fetch', { url: 'file:///etc/passwd' }).catch((e: unknown) => e),
        await ctx.invoke('web_fetch', { url: `${site.origin}/` }).catch((e: unknown) => e),
      ],
      { grant: { capabilities: [fetcher] } },
    );
    expect(errors.every((e) => e instanceof WebPolicyRefusedError)).toBe(true);
    const anomalies = runner.ledger.select({ kind: 'trace.anomaly' }).filter((e) => e.status === 'web_policy_refused');
    expect(anomalies.map((e) => e.data)).toEqual([
      expect.objectContaining({ capability: 'web_fetch', hop: 0, reason: 'scheme', scheme: 'file' }),
      expect.objectContaining({ capability: 'web_fetch', hop: 1, reason: 'private-address', scheme: 'http', host: '169.254.169.254' }),
    ]);
    expect(JSON.stringify(anomalies)).not.toContain('s3cr3t');
  });
});
