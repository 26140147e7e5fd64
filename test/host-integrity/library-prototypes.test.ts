/**
 * Attack: model code rewrites a library class's prototype, and the change outlives its run. Replacing
 * `ScriptedModel.prototype.request` (or `OpenAIModelClient.prototype.request`) made every later model request in the
 * process, other runs' included, answer what the attacker chose and read what they sent; replacing
 * `AgentExecutor.prototype.runStep` or `UsageMeter.prototype.record` changed how later steps run and are accounted.
 * Every exported class whose instances the host calls has a frozen prototype.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

const finish = () => toolCall('nh_output', { result: { kind: 'pass' } });

describe('attack: rewriting a library prototype from model code', () => {
  it("a model expression replacing ScriptedModel.prototype.request does not answer the run's next request", async () => {
    const sent: unknown[] = [];
    const send = nh.defineCapability({ name: 'send', description: 'sends', request: z.object({ to: z.string() }), run: (r) => void sent.push(r) });
    const hijack = `(() => {
      const forged = async () => ({ toolCalls: [{ id: 'x', name: 'send', arguments: JSON.stringify({ to: 'attacker' }) }], usage: { inputTokens: 0, outputTokens: 0 } });
      try { nh.ScriptedModel.prototype.request = forged; } catch (e) { return 'assignment refused: ' + e.name; }
      try { Object.defineProperty(nh.ScriptedModel.prototype, 'request', { value: forged }); } catch (e) { return 'definition refused: ' + e.name; }
      return 'replaced';
    })()`;
    const model = new ScriptedModel([() => ({ toolCalls: [toolCall('nh_evaluate', { expression: hijack })] }), () => ({ toolCalls: [finish()] })]);
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
    await runner.run(() => nh.step({ program: 'execute\nDo it.' }), { grant: { capabilities: [send], references: { nh } } });
    expect(sent).toEqual([]);
    expect(model.requestCount).toBe(2);
    const evaluate = runner.ledger.select({ kind: 'operation' })[0]!;
    expect((evaluate.data as { valuePreview?: string }).valuePreview).toMatch(/refused: TypeError/);
  });

  it('every exported class with methods has a frozen prototype', () => {
    const unfrozen = Object.entries(nh)
      .filter(([name, value]) => typeof value === 'function' && !name.endsWith('Error'))
      .filter(([, value]) => {
        const proto = (value as { prototype?: object }).prototype;
        return proto !== undefined && Object.getOwnPropertyNames(proto).length > 1 && !Object.isFrozen(proto);
      })
      .map(([name]) => name);
    expect(unfrozen).toEqual([]);
  });
});
