/**
 * Attack: identity and accounting from untrusted code. The host ToolSpecs a step offers sit in the runtime state
 * (`nh.currentState().tools`), which any code in the run can read. Their `run(args, ctx)` used to take the
 * Natural execution from `ctx.executionId`, so a caller naming another execution:
 * - had the capability call and its durable perimeter attempt recorded under that execution (false attribution);
 * - named an execution whose dispatch branch is open while its own was being terminated (closure bypassed);
 * - sent a perimeter refusal to another execution (or to none), so its own went on.
 * The host now takes the execution from the operation body it runs (the tool operation of that execution) and
 * from the host frame otherwise, and refuses a context naming anything else, with a `forged_execution_id` anomaly.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';
import { PLACES, attack, expectContained } from './support.js';

const finish = () => toolCall('nh_output', { result: { kind: 'pass' } });

const forgedToolCall = (claim: string) => `
  const tools = nh.currentState()?.tools ?? [];
  const tool = tools.find((t) => t.name === 'send_report');
  if (!tool) return 'no tool in scope';
  try {
    await tool.run({ target: 'forged' }, { executionId: ${claim} });
  } catch (e) {
    return 'refused: ' + e.name;
  }
  return 'BREACH: the capability ran under a context naming ' + ${claim};`;

describe('attack: a host tool called with a context naming another execution', () => {
  for (const place of PLACES) {
    it(`an invented execution id — from ${place}`, async () => {
      const result = await attack(place, forgedToolCall("'exe_someone_else'"));
      expect(result.outcome).toBe('refused: HostIntegrityError');
      expectContained(result, 'forged_execution_id', expect);
    });

  }
  // A SessionFunction body runs in the composition, whose work the ledger records under the run: naming the run there
  // is the truth, and the call is the direct capability call it would be without a context.
  for (const place of ['expression', 'generated'] as const) {
    it(`the run's id — from ${place}`, async () => {
      const result = await attack(place, forgedToolCall('nh.currentExecutionRef().runId'));
      expect(result.outcome).toBe('refused: HostIntegrityError');
      expectContained(result, 'forged_execution_id', expect);
    });
  }

  it("a model expression naming an earlier execution: nothing is recorded under it, the audit names no execution it didn't make", async () => {
    const store = new nh.InMemoryPerimeterAuditStore();
    const sent: unknown[] = [];
    const send = nh.defineCapability({ name: 'send', description: 'egress', footprint: ['egress'], request: z.object({ to: z.string() }), run: (r) => void sent.push(r) });
    const expr = `(async () => { const t = nh.currentState().tools.find((x) => x.name === 'send'); try { await t.run({ to: 'evil' }, { executionId: probe.first }); return 'ran'; } catch (e) { return e.name; } })()`;
    const model = new ScriptedModel([
      () => ({ toolCalls: [finish()] }),
      () => ({ toolCalls: [toolCall('nh_evaluate', { expression: expr })] }),
      () => ({ toolCalls: [finish()] }),
    ]);
    const probe: { first?: string } = {};
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }), platformPolicy: ['egress'], perimeterAuditStore: store });
    await runner.run(
      async () => {
        await nh.step({ program: 'execute\nFirst.' });
        probe.first = runner.ledger.select({ kind: 'execution.end' })[0]!.subjectId;
        await nh.step({ program: 'execute\nSecond.' });
      },
      { grant: { capabilities: [send], references: { nh, probe } } },
    );
    const events = runner.ledger.select({});
    const evaluate = events.find((e) => e.kind === 'operation' && (e.data as { request: { kind: string } }).request.kind === 'evaluate')!;
    expect((evaluate.data as { valuePreview?: string }).valuePreview).toBe('"HostIntegrityError"');
    expect(sent).toEqual([]);
    expect(events.filter((e) => e.kind === 'capability.call' || e.kind === 'capability.refused')).toEqual([]);
    expect(store.list()).toEqual([]);
    const anomaly = events.find((e) => e.kind === 'trace.anomaly' && e.status === 'forged_execution_id')!;
    // Recorded under the caller's execution, naming what it claimed.
    const second = events.filter((e) => e.kind === 'execution.start')[1]!.subjectId;
    expect(anomaly.parentId).toBe(second);
    expect((anomaly.data as { claimed: string }).claimed).toBe(probe.first);
  });

  it('a perimeter refusal reaches the execution that asked, whatever execution it names', async () => {
    const sent: unknown[] = [];
    const send = nh.defineCapability({ name: 'send', description: 'egress', footprint: ['egress'], request: z.object({ to: z.string() }), run: (r) => void sent.push(r) });
    // The run's policy does not permit egress: the refusal is terminal for the execution that asked (seed 001).
    const expr = `(async () => { const t = nh.currentState().tools.find((x) => x.name === 'send'); try { await t.run({ to: 'evil' }, { executionId: nh.currentExecutionRef().runId }); } catch (e) { return e.name; } })()`;
    const model = new ScriptedModel([() => ({ toolCalls: [toolCall('nh_evaluate', { expression: expr })] }), () => ({ toolCalls: [finish()] })]);
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }), platformPolicy: ['egress'], perimeterAuditStore: new nh.InMemoryPerimeterAuditStore() });
    const outcome = await runner
      .run(() => nh.step({ program: 'execute\nDo it.' }), { grant: { capabilities: [send], references: { nh } }, policy: [] })
      .then(
        () => 'returned',
        (e: Error) => e.name,
      );
    const events = runner.ledger.select({});
    expect(sent).toEqual([]);
    expect(events.map((e) => e.kind)).toContain('trace.anomaly');
    // Either refusal ends nothing but the caller's own attempt; the step that asked went on to its outcome.
    expect(outcome).toBe('returned');
    expect(events.find((e) => e.kind === 'execution.end')!.status).toBe('completed');
    expect(events.filter((e) => e.kind === 'trace.anomaly').map((e) => e.status)).toContain('forged_execution_id');
  });

  it("a model's tool call still records under its own execution, and the context it is handed is ignored", async () => {
    const store = new nh.InMemoryPerimeterAuditStore();
    const send = nh.defineCapability({ name: 'send', description: 'egress', footprint: ['egress'], request: z.object({ to: z.string() }), run: () => 'sent' });
    const model = new ScriptedModel([() => ({ toolCalls: [toolCall('send', { to: 'a' })] }), () => ({ toolCalls: [finish()] })]);
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }), platformPolicy: ['egress'], perimeterAuditStore: store });
    await runner.run(() => nh.step({ program: 'execute\nSend.' }), { grant: { capabilities: [send], references: {} } });
    const events = runner.ledger.select({});
    const execution = events.find((e) => e.kind === 'execution.start')!.subjectId;
    expect(events.filter((e) => e.kind === 'capability.call').map((e) => [e.parentId, e.status])).toEqual([[execution, 'completed']]);
    expect(store.list().map((entry) => entry.attempt.executionId)).toEqual([execution]);
    expect(events.filter((e) => e.kind === 'trace.anomaly')).toEqual([]);
  });
  for (const claim of ['the run', 'its own execution'] as const) {
    it(`a model expression in a branch its parent terminated, naming ${claim}: the closed branch refuses it`, async () => {
      let reached!: () => void;
      const arrived = new Promise<void>((r) => (reached = r));
      let open!: () => void;
      const opened = new Promise<void>((r) => (open = r));
      const hold = () => (reached(), opened);
      const calls: unknown[] = [];
      const lookup = nh.defineCapability({ name: 'lookup', description: 'lookup', request: z.object({ target: z.string() }), run: ({ target }) => void calls.push(target) });
      const id = claim === 'the run' ? 'nh.currentState().runId' : 'nh.currentStepContext().executionId';
      const expr = `(async () => { await hold(); const t = nh.currentState().tools.find((x) => x.name === 'lookup'); try { await t.run({ target: 'after-close' }, { executionId: ${id} }); return 'ran'; } catch (e) { return e.name; } })()`;
      const model = new ScriptedModel([() => ({ toolCalls: [toolCall('nh_evaluate', { expression: expr })] }), () => ({ toolCalls: [finish()] })]);
      const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
      await runner.run(
        async (ctx) => {
          const source = "export async function slow() { return await nh.step({ program: 'execute\\nGo.' }); }";
          const { exports } = await ctx.dispatch({ language: 'javascript', intent: 'define', source, dependencies: [{ name: 'nh', kind: 'reference', type: 'object' }] });
          const pending = (exports.slow as () => Promise<unknown>)();
          pending.catch(() => undefined);
          await arrived;
          const node = ctx.history({ kind: 'dispatch.start', status: 'invocation' }).at(-1)!.subjectId;
          await ctx.terminateBranch(node, 'stop it');
          open();
          await pending.catch(() => undefined);
        },
        { grant: { capabilities: [lookup], references: { nh, hold } } },
      );
      const events = runner.ledger.select({});
      expect(calls).toEqual([]);
      expect(events.filter((e) => e.kind === 'capability.call')).toEqual([]);
      const execution = events.find((e) => e.kind === 'execution.start')!.subjectId;
      if (claim === 'the run') expect(events.filter((e) => e.kind === 'trace.anomaly').map((e) => [e.status, e.parentId])).toContainEqual(['forged_execution_id', execution]);
      else expect(events.filter((e) => e.kind === 'capability.refused').map((e) => [e.status, e.parentId])).toEqual([['branch-terminated', execution]]);
    });
  }
});
