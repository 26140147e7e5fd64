/**
 * Attack: model code writes to one of the host's read-only collections (a perimeter policy the operator granted as a
 * reference; grants and a step's binding names hold the same kind), by its own mutator or a built-in one. Before,
 * the collection had no mutators: the call failed as "not a function" and nothing was recorded. Now every form is
 * refused as a write to a frozen value: the model is told so, and the attempt is a `frozen_value_write` anomaly.
 * From a SessionFunction body (approved source) the write fails as that code's own error.
 */
import { describe, expect, it } from 'vitest';
import * as nh from '../../kernel/src/index.js';
import { toolCall } from '../../kernel/src/testing.js';
import { modelCodeIn, runStepWith } from './model-code.js';
import { attack, expectContained, PLACES } from './support.js';

const writes: Array<[string, string, string]> = [
  ['its add', 'probe.permitted.add("filesystem")', 'Cannot add property filesystem, object is not extensible'],
  ['its delete', 'probe.permitted.delete("egress")', "Cannot delete property 'egress' of #<FrozenSet>"],
  ['its clear', 'probe.permitted.clear()', "Cannot delete property '*' of #<FrozenSet>"],
  ["Set.prototype's add", 'Set.prototype.add.call(probe.permitted, "filesystem")', 'Method Set.prototype.add called on incompatible receiver #<FrozenSet>'],
  ["Map.prototype's set", 'Reflect.apply(Map.prototype.set, probe.permitted, ["filesystem", true])', 'Method Map.prototype.set called on incompatible receiver #<FrozenSet>'],
];

describe('attack: writing a read-only collection the host made', () => {
  for (const place of PLACES) {
    it.each(writes)(`from ${place}, %s: refused, the collection unchanged, the attempt recorded`, async (_what, write, message) => {
      const permitted = nh.perimeterPolicy(['egress']);
      const body = `try { ${write}; } catch (e) { return e.name + ': ' + e.message; } return 'BREACH: the write returned';`;
      const result = await attack(place, body, { probe: { permitted } });
      expect(result.outcome).toContain(`TypeError: ${message}`);
      expect([...permitted]).toEqual(['egress']);
      expectContained(result, place === 'session-function' ? undefined : 'frozen_value_write', expect);
      if (place !== 'session-function') {
        const recorded = result.events.filter((e) => e.kind === 'trace.anomaly' && e.status === 'frozen_value_write');
        expect(recorded).toHaveLength(1);
        expect(recorded[0]!.data).toMatchObject({ seenAt: 'catch-block', message: expect.stringContaining(message) });
      }
    });
  }

  it('uncaught in a model expression: the operation fails, the model is told the value is frozen, and the attempt is recorded under it', async () => {
    const permitted = nh.perimeterPolicy(['egress']);
    const code = modelCodeIn('expression', 'permitted.add("filesystem");');
    code.references['permitted'] = permitted;
    let told = '';
    const { events } = await runStepWith(code, [
      () => ({ toolCalls: [toolCall('nh_evaluate', { expression: code.expression })] }),
      (messages) => {
        told = JSON.stringify(messages.at(-1));
        return { toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] };
      },
    ]);
    expect([...permitted]).toEqual(['egress']);
    expect(told).toContain('That value is frozen');
    const failed = events.filter((e) => e.kind === 'operation' && e.status === 'failed');
    expect(failed).toHaveLength(1);
    const recorded = events.filter((e) => e.kind === 'trace.anomaly' && e.status === 'frozen_value_write');
    expect(recorded.map((e) => e.parentId)).toEqual([failed[0]!.subjectId]);
  });
});
