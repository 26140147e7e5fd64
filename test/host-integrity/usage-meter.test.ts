/**
 * Attack: accounting from model code. Under aggregate accounting (seed 002) the host counts what the step's usage
 * meter learned against the run's allocation. The meter sits in the runtime state (`nh.currentUsageMeter()`):
 * - a model expression, or generated code it calls, recorded usage no request consumed (the run's allocation
 *   exhausted for nothing);
 * - replacing `UsageMeter.prototype.record` (or the `total` getter) made the executor's real usage vanish.
 * The host's meter refuses writes from model code and operation bodies (`usage_from_model_code`), and its record and
 * total are the ones the host loaded with.
 */
import { describe, expect, it } from 'vitest';
import * as nh from '../../kernel/src/index.js';

/** A custom executor (aggregate accounting): evaluates one model expression, then reports its own real usage. */
function executorEvaluating(expression: string): nh.StepExecutor {
  return {
    async runStep(request) {
      await nh.evaluateExpression(request.stepContext, expression).catch(() => undefined);
      nh.currentUsageMeter()?.record({ inputTokens: 600, outputTokens: 0, requests: 1 });
      return { outcome: nh.Pass };
    },
  };
}

async function runWith(expression: string, probe: Record<string, unknown> = {}, maxCost = 2_000) {
  const runner = new nh.Runner({ executor: executorEvaluating(expression), acceptsAggregateExecutorAccounting: true, allocation: { maxCost } });
  const outcome = await runner
    .run(
      async (ctx) => {
        if (probe.generated === true) {
          const source = 'export function inflate() { nh.currentUsageMeter().record({ inputTokens: 1e12 }); }';
          probe.inflate = (await ctx.dispatch({ language: 'javascript', intent: 'define', source, dependencies: [{ name: 'nh', kind: 'reference', type: 'object' }] })).exports.inflate;
        }
        await nh.step({ program: 'execute\nFirst.' });
        await nh.step({ program: 'execute\nSecond.' });
      },
      { grant: { capabilities: [], references: { nh, probe } } },
    )
    .then(
      () => 'returned',
      (e: Error) => `threw:${e.name}:${(e as { failure?: string }).failure ?? ''}`,
    );
  const events = runner.ledger.select({});
  const anomalies = events.filter((e) => e.kind === 'trace.anomaly').map((e) => e.status);
  return { outcome, events, anomalies };
}

describe('attack: model code writing the usage the host accounts', () => {
  it('a model expression recording usage no request consumed is refused; the run is not exhausted', async () => {
    const { outcome, events, anomalies } = await runWith(`nh.currentUsageMeter().record({ inputTokens: 1e12, outputTokens: 0, requests: 0 })`);
    expect(outcome).toBe('returned');
    expect(events.filter((e) => e.kind === 'allocation.exhausted')).toEqual([]);
    expect(anomalies).toContain('usage_from_model_code');
    const evaluate = events.find((e) => e.kind === 'operation')!;
    expect([evaluate.status, (evaluate.data as { failure?: { errorClass: string } }).failure?.errorClass]).toEqual(['failed', 'HostIntegrityError']);
  });

  it('generated code an expression calls is refused the same way', async () => {
    const { outcome, events, anomalies } = await runWith('probe.inflate()', { generated: true });
    expect(outcome).toBe('returned');
    expect(events.filter((e) => e.kind === 'allocation.exhausted')).toEqual([]);
    expect(anomalies).toContain('usage_from_model_code');
  });

  it("replacing UsageMeter.prototype.record or its total getter from a model expression does not hide the executor's usage", async () => {
    const hide = `(() => { nh.UsageMeter.prototype.record = function () {}; Object.defineProperty(nh.UsageMeter.prototype, 'total', { get() { return { inputTokens: 0, outputTokens: 0, requests: 0 }; }, configurable: true }); return 'hidden'; })()`;
    const saved = { record: Object.getOwnPropertyDescriptor(nh.UsageMeter.prototype, 'record')!, total: Object.getOwnPropertyDescriptor(nh.UsageMeter.prototype, 'total')! };
    try {
      // Two steps of 600 each against a cost limit of 1,000: the second commit takes the run past it.
      const { outcome, events } = await runWith(hide, {}, 1_000);
      expect(outcome).toBe('threw:NaturalExecutionError:allocation_exhausted');
      expect(events.filter((e) => e.kind === 'allocation.exhausted')).toHaveLength(1);
    } finally {
      Object.defineProperty(nh.UsageMeter.prototype, 'record', saved.record);
      Object.defineProperty(nh.UsageMeter.prototype, 'total', saved.total);
    }
  });

  it("the executor's own usage is still accounted: two steps of 600 exhaust a limit of 1,000", async () => {
    const { outcome, events } = await runWith("'harmless'", {}, 1_000);
    expect(outcome).toBe('threw:NaturalExecutionError:allocation_exhausted');
    expect(events.filter((e) => e.kind === 'allocation.exhausted')).toHaveLength(1);
  });
});
