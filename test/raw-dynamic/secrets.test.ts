/**
 * Secrets stay out of records (issue 13, item 5). The configured provider key (registered by the OpenAI
 * client) and a host-registered secret are copied by a model into a write binding, a capability request and
 * the next provider request; every sink the host writes holds `[redacted:NAME]` instead: ledger snapshots,
 * the SQLite ledger, the SQLite perimeter audit, the cassette — kernel outputs and saved notebooks are in
 * `secrets-kernel.test.ts`. The reads are `secret_read` trace anomalies.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AgentExecutor,
  OpenAIModelClient,
  RecordingModelClient,
  Runner,
  SqliteLedgerStore,
  SqlitePerimeterAuditStore,
  defineCapability,
  redactText,
  registerSecret,
  step,
} from '../../kernel/src/index.js';
import { completion, startOpenAIServer, toolCall, type OpenAITestServer } from '../support/openai-server.js';

const KEY = 'sk-test-REDACTME-0123456789abcdef';
const TOKEN = 'host-token-6a1f9e0c2b7d4853';
const dir = mkdtempSync(join(tmpdir(), 'nh-secrets-'));
let server: OpenAITestServer;
const savedEnv = process.env['OPENAI_API_KEY'];

beforeAll(async () => {
  server = await startOpenAIServer();
  process.env['OPENAI_API_KEY'] = KEY;
});
afterAll(async () => {
  await server.close();
  if (savedEnv === undefined) delete process.env['OPENAI_API_KEY'];
  else process.env['OPENAI_API_KEY'] = savedEnv;
  rmSync(dir, { recursive: true, force: true });
});

describe('secrets are redacted wherever the host writes', () => {
  it('ledger snapshots, the SQLite ledger and audit, and the cassette hold [redacted:NAME]; the reads are anomalies', async () => {
    registerSecret('HOST_TOKEN', TOKEN);
    const sent: unknown[] = [];
    const post = defineCapability({
      name: 'post',
      description: 'post a message',
      request: z.object({ text: z.string() }),
      footprint: ['egress'],
      run: ({ text }) => void sent.push(text),
    });
    server.enqueue(
      completion({ toolCalls: [toolCall('nh_assign', { target_path: 'leak', expression: 'process.env.OPENAI_API_KEY' })] }),
      completion({ toolCalls: [toolCall('post', { text: `key=${KEY} token=${TOKEN}` })] }),
      completion({ toolCalls: [toolCall('nh_evaluate', { expression: 'token + "!"' })] }),
      completion({ toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] }),
    );
    const cassette = join(dir, 'run.jsonl');
    const model = new RecordingModelClient(new OpenAIModelClient({ apiKey: KEY, baseURL: server.baseURL, env: {} }), cassette);
    const audit = new SqlitePerimeterAuditStore({ path: join(dir, 'audit.db') });
    const runner = new Runner({ executor: new AgentExecutor({ model }), platformPolicy: ['egress'], perimeterAuditStore: audit });
    const store = new SqliteLedgerStore(join(dir, 'ledger.db'));
    store.attach(runner.ledger);

    const leak = await runner.run(
      async () => {
        const { bindings } = await step({ program: 'execute\nCopy the key into <:leak>.', writes: { leak: z.string() } });
        return bindings.leak;
      },
      { grant: { capabilities: [post], references: { token: TOKEN } } },
    );
    // The operator's own value is untouched: redaction applies to records, not to live values.
    expect(leak).toBe(KEY);
    // The capability body ran with the real value (host infrastructure).
    expect(sent).toEqual([`key=${KEY} token=${TOKEN}`]);

    const ledgerText = JSON.stringify(runner.ledger.events());
    expect(ledgerText).not.toContain(KEY);
    expect(ledgerText).not.toContain(TOKEN);
    expect(ledgerText).toContain('[redacted:OPENAI_API_KEY]');
    expect(ledgerText).toContain('[redacted:HOST_TOKEN]');
    const committed = runner.ledger.select({ kind: 'execution.end' })[0]!.data as { committed: Record<string, unknown> };
    expect(committed.committed).toEqual({ leak: '[redacted:OPENAI_API_KEY]' });

    store.close();
    audit.close();
    for (const file of ['ledger.db', 'audit.db', 'run.jsonl']) {
      const bytes = readFileSync(join(dir, file)).toString('latin1');
      expect(bytes, file).not.toContain(KEY);
      expect(bytes, file).not.toContain(TOKEN);
      expect(bytes, file).toContain('[redacted:');
    }

    const reads = runner.ledger.select({ kind: 'trace.anomaly' }).filter((e) => e.status === 'secret_read');
    expect(reads.map((e) => e.data)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ via: 'process.env', variable: 'OPENAI_API_KEY', secrets: ['OPENAI_API_KEY'] }),
        expect.objectContaining({ via: 'operation', secrets: ['HOST_TOKEN'] }),
        expect.objectContaining({ via: 'operation', secrets: ['OPENAI_API_KEY'] }),
      ]),
    );
    // The next provider request carried the tool results redacted too.
    const lastBody = JSON.stringify(server.requests.at(-1)!.body);
    expect(lastBody).not.toContain(TOKEN);
    expect(lastBody).toContain('[redacted:HOST_TOKEN]');
  });

  it('redactText replaces a registered value and leaves other text alone; short values are refused', () => {
    registerSecret('HOST_TOKEN', TOKEN);
    expect(redactText(`a ${TOKEN} b ${TOKEN}`)).toBe('a [redacted:HOST_TOKEN] b [redacted:HOST_TOKEN]');
    expect(redactText('nothing secret here')).toBe('nothing secret here');
    expect(() => registerSecret('SHORT', 'abc')).toThrow(/at least 8 characters/);
  });
});
