/**
 * Records seed 000's sync example through the openai client against the local server into a
 * cassette. Re-record the checked-in fixture after a deliberate prompt change with
 * `npx tsx test/support/openai-record-seed-000.ts`.
 */
import { fileURLToPath } from 'node:url';
import { AgentExecutor, OpenAIModelClient, RecordingModelClient, run, scope } from '../../kernel/src/index.js';
import { startOpenAIServer } from './openai-server.js';
import { recordingOversight, seed000, seed000Model } from './openai-seed-000.js';

export const SEED_000_CASSETTE = fileURLToPath(new URL('../fixtures/cassettes/seed-000-sync.jsonl', import.meta.url));

/** Runs the example once against a fresh local server, recording to `path`; returns result and records. */
export async function recordSeed000(path: string) {
  const server = await startOpenAIServer({ handler: seed000Model });
  try {
    const client = new OpenAIModelClient({ apiKey: 'sk-recording-key-not-stored', baseURL: server.baseURL, env: {} });
    const s = seed000();
    const records = recordingOversight(s.inspectOperation);
    const executor = new AgentExecutor({ model: new RecordingModelClient(client, path) });
    const result = await run(executor, () =>
      scope({ taskReferences: { forbidden: s.forbidden }, oversight: records.oversight }, () => s.calculate({})),
    );
    return { result, effects: s.effects, operations: records.operations, steps: records.steps, requests: server.requests.length };
  } finally {
    await server.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { result, requests } = await recordSeed000(SEED_000_CASSETTE);
  console.log(`recorded ${requests} requests to ${SEED_000_CASSETTE}; result ${String(result)}`);
}
