import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { NaturalExecutionError, defineCapability, scope, step, type ModelMessage } from '../../kernel/src/index.js';
import { toolCall } from '../../kernel/src/testing.js';
import { finish, scriptedRunner } from './support.js';

describe('prompt bounds and model selection', () => {
  it('a huge capability result reaches the model as a bounded preview flagged as truncated', async () => {
    const dump = defineCapability({ name: 'dump', description: 'returns a lot', request: z.object({}), run: () => ({ rows: Array.from({ length: 50_000 }, (_, i) => `row ${i}`) }) });
    let preview: Record<string, unknown> = {};
    const { runner } = scriptedRunner([
      () => ({ toolCalls: [toolCall('dump', {})] }),
      (m: readonly ModelMessage[]) => {
        preview = JSON.parse((m[m.length - 1] as { content: string }).content);
        return { toolCalls: [finish()] };
      },
    ]);
    await runner.run(async () => step({ program: 'execute\nLook at the dump.' }), { grant: { capabilities: [dump] } });
    expect(preview).toMatchObject({ status: 'completed', truncated: true });
    expect(JSON.stringify(preview).length).toBeLessThan(6_000);
  });

  it('nothing from an earlier execution is an implicit input to a later one', async () => {
    const prompts: string[] = [];
    const { runner } = scriptedRunner((m) => {
      prompts.push(m.map((x) => ('content' in x ? x.content : '')).join('\n'));
      return { toolCalls: [toolCall('nh_evaluate', { expression: '"secret-from-step-one"' }), finish()] };
    });
    await runner.run(async () => {
      await step({ program: 'execute\nFirst.' });
      await step({ program: 'execute\nSecond.' });
    });
    expect(prompts[0]).toContain('First.');
    expect(prompts[1]).not.toContain('secret-from-step-one');
    expect(prompts[1]).not.toContain('First.');
  });

  it('choosing another model inside a run changes the delegate model but never resets accounting', async () => {
    const models: (string | undefined)[] = [];
    const { runner, model } = scriptedRunner((_m, info) => {
      models.push(info.model);
      return { toolCalls: [finish()] };
    });
    const error = await runner
      .run(async () => {
        await step({ program: 'execute\nOne.' });
        await scope({ model: 'other-model' }, () => step({ program: 'execute\nTwo.' }));
        await scope({ model: 'third-model' }, () => step({ program: 'execute\nThree.' }));
      }, { allocation: { maxExecutorSteps: 2 } })
      .catch((e: unknown) => e);
    expect(models).toEqual([undefined, 'other-model']);
    expect(model.requestCount).toBe(2);
    expect((error as NaturalExecutionError).failure).toBe('allocation_exhausted');
  });
});
