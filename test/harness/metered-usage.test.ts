/**
 * A run's cost allocation counts, per model request, the larger of what the client read from the reply's bytes
 * (ModelRequest.reportUsage) and what the response claims: never less than either, never both added up, in
 * whichever order they come.
 */
import { describe, expect, it } from 'vitest';
import { AgentExecutor, NaturalExecutionError, Runner, step, type ModelClient, type ModelRequest, type ModelResponse } from '../../kernel/src/index.js';

/** Proposes one cheap operation per request; `metered` goes to reportUsage (now or after the response), `claimed` in the response. */
function client(metered: number | undefined, claimed: number | undefined, late = false): ModelClient & { requests: number; reported: number } {
  return {
    label: 'metering-test',
    requests: 0,
    reported: 0,
    async request(request: ModelRequest): Promise<ModelResponse> {
      this.requests++;
      if (metered !== undefined && request.reportUsage) {
        const report = request.reportUsage;
        const send = () => {
          this.reported++;
          report({ inputTokens: metered, outputTokens: 0 });
        };
        if (late) setTimeout(send, 25);
        else send();
      }
      if (late) await new Promise((r) => setTimeout(r, 15));
      return {
        text: null,
        toolCalls: [{ id: `c${this.requests}`, name: 'nh_evaluate', arguments: '{"expression":"1"}' }],
        ...(claimed !== undefined ? { usage: { inputTokens: claimed, outputTokens: 0 } } : {}),
      };
    },
  };
}

/** Requests made before a 1,500-unit allocation ended the step: 3 at 500 per request, 2 at 800, 5 at 300, 6 at 250. */
async function requestsWithin(model: ReturnType<typeof client>): Promise<number> {
  const runner = new Runner({ executor: new AgentExecutor({ model, maxRequestsPerStep: 50 }) });
  const outcome = await runner.run(() => step({ program: 'execute\nGo.' }), { allocation: { maxCost: 1_500 } }).then(() => 'ok', (e: unknown) => e);
  expect((outcome as NaturalExecutionError).failure).toBe('allocation_exhausted');
  return model.requests;
}

describe('the cost of a model request', () => {
  it('is what the bytes said when the response claims nothing', async () => {
    expect(await requestsWithin(client(500, 0))).toBe(3);
  });

  it('is what the response claims when the client reads no bytes, as before', async () => {
    expect(await requestsWithin(client(undefined, 500))).toBe(3);
  });

  it('is the larger of the two, not their sum', async () => {
    expect(await requestsWithin(client(300, 500))).toBe(3);
    expect(await requestsWithin(client(500, 300))).toBe(3);
  });

  it('counts a report that arrives after the response was observed (and the next request was admitted), once', async () => {
    const model = client(500, 250, true);
    // Each report lands 10 ms after its response was observed, so at most one more request is admitted before
    // the count catches up; counted as claimed (250 each) it would take six, summed (750) two.
    const requests = await requestsWithin(model);
    expect(requests).toBeGreaterThanOrEqual(3);
    expect(requests).toBeLessThanOrEqual(4);
    await new Promise((r) => setTimeout(r, 40));
    expect(model.reported).toBe(requests);
  });
});
