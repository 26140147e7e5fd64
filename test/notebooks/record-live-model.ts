/**
 * Re-records notebooks/cassettes/live-model.jsonl: runs the live-model notebook headless with
 * OPENAI_BASE_URL pointing at the local OpenAI-compatible test server, which plays the model's part, and
 * NIGHTHAWK_RECORD_CASSETTE set so the notebook wraps its client in RecordingModelClient.
 * Run after a deliberate prompt change: `npx tsx test/notebooks/record-live-model.ts`.
 */
import { fileURLToPath } from 'node:url';
import { OUTPUT_TOOL_NAME } from '../../kernel/src/index.js';
import { runNotebook } from '../../kernel/src/server/runner/nb-runner.js';
import { completion, startOpenAIServer, toolCall, type ChatRequestBody, type ScriptedReply } from '../support/openai-server.js';
import { toolResults } from '../support/openai-seed-000.js';

export const LIVE_MODEL_NOTEBOOK = fileURLToPath(new URL('../../notebooks/live-model.ipynb', import.meta.url));

/** The model's part: look at the ticket once, then label it. */
function triageModel(body: ChatRequestBody): ScriptedReply {
  if (toolResults(body).length === 0) {
    return completion({ toolCalls: [toolCall('nh_evaluate', { expression: "ticket.toLowerCase().includes('crash')" }, 'look')] });
  }
  return completion({
    toolCalls: [toolCall('nh_assign', { target_path: 'label', expression: "'bug'" }, 'label'), toolCall(OUTPUT_TOOL_NAME, { result: { kind: 'pass' } }, 'finish')],
    usage: { promptTokens: 140, completionTokens: 18 },
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.debug = () => {}; // @jupyterlab/services narrates WebSocket state on console.debug
  const server = await startOpenAIServer({ handler: triageModel });
  // The kernel process inherits this environment.
  Object.assign(process.env, { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'sk-recording-key-not-stored', NIGHTHAWK_RECORD_CASSETTE: '1' });
  try {
    const result = await runNotebook(LIVE_MODEL_NOTEBOOK, { log: (line) => console.error(line) });
    if (result.failed) throw new Error(`recording failed at cell ${result.failed.index}: ${result.failed.error?.ename}: ${result.failed.error?.evalue}`);
    console.log(`recorded ${server.requests.length} requests to notebooks/cassettes/live-model.jsonl`);
  } finally {
    await server.close();
  }
}
