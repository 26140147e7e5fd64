/**
 * Oversight written as a class: its hooks are methods that keep state on `this`. The host reads the hooks once, by
 * value (a later edit of the object changes nothing), and calls each with the operator's object as `this`.
 */
import { describe, expect, it } from 'vitest';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

class Guard implements nh.Oversight {
  readonly kinds: string[] = [];
  commits = 0;
  inspectOperation(request: nh.OperationRequest) {
    this.kinds.push(request.kind);
    return request.kind === 'evaluate' && request.expression === 'forbidden()' ? nh.rejectOperation('not that') : nh.accept();
  }
  inspectStepCommit() {
    this.commits++;
    return nh.accept();
  }
}

const model = () =>
  new ScriptedModel((_m, info) =>
    info.requestNumber === 1 ? { toolCalls: [toolCall('nh_evaluate', { expression: '1 + 1' }), toolCall('nh_evaluate', { expression: 'forbidden()' })] } : { toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] },
  );

describe('oversight methods run with the operator object as this', () => {
  it('through a Runner', async () => {
    const guard = new Guard();
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model: model() }) });
    await runner.run(async () => nh.step({ program: 'execute\nGo.' }), { oversight: guard });
    expect(guard.kinds).toEqual(['evaluate', 'evaluate', 'output']);
    expect(guard.commits).toBe(1);
    expect(runner.ledger.select({ kind: 'operation' }).map((e) => e.status)).toEqual(['completed', 'rejected', 'completed']);
  });

  it('through a Session, and replacing a hook on the object later changes nothing', async () => {
    const guard = new Guard();
    const session = new nh.Session({ executor: new nh.AgentExecutor({ model: model() }), oversight: guard });
    (guard as { inspectOperation: unknown }).inspectOperation = () => nh.accept();
    const { go } = session.materialized(session.submit('async function go() {}'), { go: async () => nh.step({ program: 'execute\nGo.' }) });
    await go!();
    expect(guard.kinds).toEqual(['evaluate', 'evaluate', 'output']);
    expect(session.ledger.select({ kind: 'operation' }).map((e) => e.status)).toEqual(['completed', 'rejected', 'completed']);
  });
});
