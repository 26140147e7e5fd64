import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentExecutor, HarnessLoop, HookAbort, Runner, defineCapability, replayLoop, type LoopEvent } from '../../../kernel/src/index.js';
import { ScriptedModel } from '../../../kernel/src/testing.js';

describe('the loop part inside a run', () => {
  it('forwards its events to the run ledger and executes pulled tools through granted capabilities', async () => {
    const ran: string[] = [];
    const tool = (name: string) => defineCapability({ name, description: name, request: z.object({}).passthrough(), run: () => void ran.push(name) });
    const runner = new Runner({ executor: new AgentExecutor({ model: new ScriptedModel([]) }) });
    const events: LoopEvent[] = [];
    const outcome = await runner.run(
      async (ctx) => {
        const loop = new HarnessLoop({
          plan: [
            { id: 's1', description: 'read', requiresTool: true, toolName: 'read', toolArgs: {} },
            { id: 's2', description: 'wipe', requiresTool: true, toolName: 'wipe', toolArgs: {} },
            { id: 's3', description: 'write', requiresTool: true, toolName: 'write', toolArgs: {} },
          ],
          hooks: { before_tool_call: [({ step }) => { if (step.toolName === 'wipe') throw new HookAbort({ reason: 'deny-listed' }); }] },
          onEvent: (e) => {
            events.push(e);
            ctx.recordPartEvent('loop', e);
          },
        });
        let out = loop.start();
        while (out.kind === 'pull_request') {
          const p = out.payload as { toolName: string; toolArgs: unknown };
          await ctx.invoke(p.toolName, p.toolArgs);
          out = loop.resume({ kind: 'ok', value: null });
        }
        return out;
      },
      { grant: { capabilities: [tool('read'), tool('write'), tool('wipe')] } },
    );
    expect(outcome).toMatchObject({ kind: 'done', reason: 'goal_met' });
    expect(ran).toEqual(['read', 'write']);
    const partEvents = runner.ledger.select({ kind: 'part.event' });
    expect(partEvents.map((e) => e.status)).toEqual(events.map((e) => e.kind));
    expect(partEvents.some((e) => e.status === 'tool.error')).toBe(true);
    expect(replayLoop(events).state).toBe('done');
  });
});
