/**
 * A ScriptedModel's turns run inside the model request's network allowance like any client's request: by default
 * they reach no network (fail closed); `networkOrigins` admits where they connect.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

let server: http.Server;
let origin = '';
let hits = 0;
beforeAll(async () => {
  server = http.createServer((_req, res) => {
    hits += 1;
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function runWith(options: nh.ScriptedModelOptions | undefined, effect: () => Promise<string> = async () => (await fetch(`${origin}/turn`)).text()) {
  const seen: string[] = [];
  const messages: string[] = [];
  const turn = async () => {
    try {
      seen.push(await effect());
    } catch (error) {
      seen.push((error as Error).name);
      messages.push((error as Error).message);
    }
    return { toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] };
  };
  const model = options ? new ScriptedModel(turn, options) : new ScriptedModel(turn);
  const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
  await runner.run(async () => nh.step({ program: 'execute\nGo.' })).catch(() => undefined);
  return { seen, messages, anomalies: runner.ledger.select({ kind: 'trace.anomaly' }).map((e) => e.data) };
}

describe('ScriptedModel networkOrigins', () => {
  it('undeclared: a turn reaches no network, and the refusal is recorded with its destination', async () => {
    const before = hits;
    const { seen, messages, anomalies } = await runWith(undefined);
    expect(seen[0]).toBe('UnmediatedPerimeterEffectError');
    expect(messages[0]).toMatch(/to 127\.0\.0\.1:\d+ during a model request.*ModelClient\.networkOrigins/s);
    expect(hits).toBe(before);
    expect(anomalies).toContainEqual(expect.objectContaining({ effect: 'fetch', during: 'model-request', destination: origin.replace('http://', '') }));
  });

  it('a file write in a turn is refused as not a network effect: its message does not point at networkOrigins', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const file = join(tmpdir(), `nh-scripted-write-${process.pid}`);
    const { seen, messages, anomalies } = await runWith({ networkOrigins: [nh.ANY_NETWORK_ORIGIN] }, async () => (writeFileSync(file, 'x'), 'wrote'));
    expect(seen[0]).toBe('UnmediatedPerimeterEffectError');
    expect(messages[0]).toMatch(/during a model request was refused and recorded: a model request admits network effects only/);
    expect(messages[0]).not.toMatch(/networkOrigins/);
    expect(anomalies).toContainEqual(expect.objectContaining({ effect: 'fs.writeFileSync', during: 'model-request' }));
  });

  it('declared: a turn reaches its origin; any origin with ANY_NETWORK_ORIGIN', async () => {
    expect((await runWith({ networkOrigins: [origin] })).seen[0]).toBe('ok');
    expect((await runWith({ networkOrigins: [nh.ANY_NETWORK_ORIGIN] })).seen[0]).toBe('ok');
    expect(() => new ScriptedModel([], { networkOrigins: origin as unknown as string[] })).toThrow(/ScriptedModel networkOrigins must be a list/);
  });
});
