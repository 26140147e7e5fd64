/**
 * A perimeter-effect attempt made by generated code names the dispatch node whose code made it, so the durable
 * audit can be read by node (`list({ dispatchNodeId })`) as well as by run and Natural execution.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

describe('perimeter attempts from generated code', () => {
  it('carry the invocation node that made them; a model tool call carries its execution', async () => {
    const store = new nh.InMemoryPerimeterAuditStore();
    const send = nh.defineCapability({ name: 'send', description: 'Sends', footprint: ['egress'], request: z.object({ to: z.string() }), run: (a) => ({ sent: a.to }) });
    const model = new ScriptedModel([() => ({ toolCalls: [toolCall('send', { to: 'model' })] }), () => ({ toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] })]);
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }), platformPolicy: ['egress'], perimeterAuditStore: store });
    await runner.run(
      async () => {
        const out = await nh.currentDispatcher().dispatch({
          language: 'javascript',
          intent: 'define-and-invoke',
          entry: 'go',
          source: "export function go() { return send({ to: 'generated' }); }",
          dependencies: [{ name: 'send', kind: 'capability', type: '(sendRequest) => unknown' }],
        });
        await out.invocation!.value;
        await nh.step({ program: 'execute\nSend.' });
      },
      { grant: { capabilities: [send] } },
    );
    const events = runner.ledger.select({});
    const invocation = events.find((e) => e.kind === 'dispatch.start' && e.status === 'invocation')!;
    const execution = events.find((e) => e.kind === 'execution.start')!;
    const [fromCode, fromModel] = store.list();
    expect(fromCode!.attempt.dispatchNodeId).toBe(invocation.subjectId);
    expect(fromCode!.attempt.executionId).toBeUndefined();
    expect(fromModel!.attempt.executionId).toBe(execution.subjectId);
    expect(fromModel!.attempt.dispatchNodeId).toBeUndefined();
    expect(store.list({ dispatchNodeId: invocation.subjectId }).map((e) => e.attempt.attemptId)).toEqual([fromCode!.attempt.attemptId]);
  });
});
