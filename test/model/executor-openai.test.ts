import { afterEach, describe, expect, it } from 'vitest';
import {
  AgentExecutor,
  ModelRequestError,
  OUTPUT_TOOL_NAME,
  OpenAIModelClient,
  run,
  scope,
  type RequestAdmission,
  type Usage,
} from '../../kernel/src/index.js';
import { completion, startOpenAIServer, toolCall, type OpenAITestServer } from '../support/openai-server.js';
import { seed000, seed000Model, toolResults } from '../support/openai-seed-000.js';

let server: OpenAITestServer;
afterEach(async () => server?.close());

function executor(options: { maxRetries?: number } = {}): AgentExecutor {
  return new AgentExecutor({
    model: new OpenAIModelClient({ apiKey: 'sk-executor-test', baseURL: server.baseURL, env: {}, retryBaseDelayMs: 1, ...options }),
  });
}

const finish = completion({ toolCalls: [toolCall(OUTPUT_TOOL_NAME, { result: { kind: 'return', return_expression: '1 + 1' } }, 'f')] });

describe('the agent executor over the openai client', () => {
  it('malformed tool-call JSON from the server becomes a model-visible failure, and the step recovers', async () => {
    server = await startOpenAIServer({ replies: [completion({ toolCalls: [toolCall('nh_evaluate', '{"expression": "1 +', 'bad')] }), finish] });
    const s = seed000();
    const result = await run(executor(), () => scope({ taskReferences: { forbidden: s.forbidden } }, () => s.calculate({})));
    expect(result).toBe(2);
    const [feedback] = toolResults(server.requests[1]!.body);
    expect(feedback).toMatchObject({ status: 'failed', error: { kind: 'invalid_input' } });
    expect(String((feedback!.error as { message: string }).message)).toContain('not valid JSON');
  });

  it('request admission runs before every provider request; a refusal sends nothing more', async () => {
    server = await startOpenAIServer({ handler: seed000Model });
    const admitted: { requestIndex: number; requestsAtAdmit: number }[] = [];
    const observed: Partial<Usage>[] = [];
    const refusal = new Error('allocation exhausted');
    const admission: RequestAdmission = {
      admit: ({ requestIndex }) => {
        admitted.push({ requestIndex, requestsAtAdmit: server.requests.length });
        if (requestIndex === 1) throw refusal;
      },
      observe: (usage) => void observed.push(usage),
    };
    const s = seed000();
    await expect(
      run(executor(), () =>
        scope({ taskReferences: { forbidden: s.forbidden }, oversight: { inspectOperation: s.inspectOperation }, requestAdmission: admission }, () =>
          s.calculate({}),
        ),
      ),
    ).rejects.toBe(refusal);
    expect(admitted).toEqual([
      { requestIndex: 0, requestsAtAdmit: 0 },
      { requestIndex: 1, requestsAtAdmit: 1 },
    ]);
    expect(server.requests).toHaveLength(1);
    expect(observed).toEqual([{ inputTokens: 10, outputTokens: 5, requests: 1 }]);
  });

  it('a provider failure after the retries surfaces from the Natural function as ModelRequestError', async () => {
    server = await startOpenAIServer({ replies: [500, 500].map((status) => ({ kind: 'error' as const, status })) });
    const s = seed000();
    const error = await run(executor({ maxRetries: 1 }), () => s.calculate({})).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ModelRequestError);
    expect(error).toMatchObject({ status: 500, attempts: 2 });
  });
});
