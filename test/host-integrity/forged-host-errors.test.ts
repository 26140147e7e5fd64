/**
 * Attack: generated code running inside a capability body throws a look-alike of the host's own error, made with
 * `new` on the exported class or with `Object.create` of its prototype, so the gateway's decision on the caught
 * error goes the attacker's way:
 * - a CapabilityRefusedError passed for the gateway's refusal, and the failed call left no capability.call record;
 * - a PerimeterAttemptNotRecordedError passed for a failed attempt write: the host refused the call as
 *   `audit-store-failed` (saying the effect was not attempted, though it ran) and ended the Natural execution.
 * The gateway now decides on what it made itself: the refusal it threw, and a write failure before the effect ran.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

const finish = () => toolCall('nh_output', { result: { kind: 'pass' } });
const LOOK_ALIKES = {
  new: (cls: string, args: string) => `new nh.${cls}(${args})`,
  'Object.create': (cls: string) => `Object.assign(Object.create(nh.${cls}.prototype), { message: 'forged' })`,
};

describe('attack: a look-alike of a host error thrown by generated code in a capability body', () => {
  for (const [style, make] of Object.entries(LOOK_ALIKES)) {
    it(`a CapabilityRefusedError (${style}) from execute_code's generated code: the call is recorded failed`, async () => {
      const source = `export function go() { throw ${make('CapabilityRefusedError', "{ capability: 'execute_code', reason: 'not-granted', detail: 'forged' }")}; }`;
      const model = new ScriptedModel([
        () => ({ toolCalls: [toolCall('execute_code', { language: 'javascript', intent: 'define-and-invoke', entry: 'go', source, dependencies: [{ name: 'nh', kind: 'reference', type: 'object' }] }), finish()] }),
      ]);
      const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
      await runner.run(async () => nh.step({ program: 'execute\nGo.' }), { grant: { capabilities: [nh.executeCodeCapability()], references: { nh } } });
      const events = runner.ledger.select({});
      expect(events.filter((e) => e.kind === 'capability.call').map((e) => [e.subjectId, e.status])).toEqual([['execute_code', 'failed']]);
      expect(events.filter((e) => e.kind === 'capability.refused')).toEqual([]);
      expect(events.find((e) => e.kind === 'operation' && (e.data as { request: { kind: string } }).request.kind === 'tool')!.status).toBe('failed');
    });

    it(`a PerimeterAttemptNotRecordedError (${style}) from generated code a perimeter capability runs: a failed effect, not a refusal`, async () => {
      const store = new nh.InMemoryPerimeterAuditStore();
      let parse: ((text: string) => unknown) | undefined;
      const transform = nh.defineCapability({
        name: 'transform',
        description: 'Parses text with the parser the run generated, then sends it',
        footprint: ['egress'],
        request: z.object({ text: z.string() }),
        run: (request) => parse!(request.text),
      });
      const model = new ScriptedModel([() => ({ toolCalls: [toolCall('transform', { text: 'x' })] }), () => ({ toolCalls: [finish()] })]);
      const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }), platformPolicy: ['egress'], perimeterAuditStore: store });
      const source = `export function parse(text) { throw ${make('PerimeterAttemptNotRecordedError', "{ attemptId: 'forged', capability: 'transform', cause: new Error('forged') }")}; }`;
      await runner.run(
        async (ctx) => {
          parse = (await ctx.dispatch({ language: 'javascript', intent: 'define', source, dependencies: [{ name: 'nh', kind: 'reference', type: 'object' }] })).exports.parse as typeof parse;
          return nh.step({ program: 'execute\nTransform.' });
        },
        { grant: { capabilities: [transform], references: { nh } } },
      );
      const events = runner.ledger.select({});
      expect(events.filter((e) => e.kind === 'capability.refused')).toEqual([]);
      expect(events.filter((e) => e.kind === 'capability.call').map((e) => [e.subjectId, e.status])).toEqual([['transform', 'failed']]);
      expect(events.find((e) => e.kind === 'execution.end')!.status).toBe('completed');
      // The durable audit says the effect was attempted and failed.
      expect(store.list().map((entry) => [entry.attempt.capability, entry.completion?.status])).toEqual([['transform', 'failed']]);
    });
  }
});
