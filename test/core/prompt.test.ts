import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentExecutor, naturalFunction, run, SNIPPED, step, type ModelMessage } from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

async function capturePrompt(spec: Parameters<typeof step>[0], limits?: ConstructorParameters<typeof AgentExecutor>[0]['limits']) {
  let captured: readonly ModelMessage[] = [];
  const model = new ScriptedModel((messages) => {
    captured = [...messages];
    return { toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] };
  });
  await run(new AgentExecutor({ model, ...(limits ? { limits } : {}) }), () => step(spec));
  return captured;
}

describe('conformance: prompt rendering', () => {
  it('11. the user prompt is exactly PROGRAM, LOCALS and GLOBALS', async () => {
    let user = '';
    const triage = naturalFunction({
      name: 'triage',
      program: 'execute\nClassify <text> and set <:priority>.\n',
      input: z.object({ text: z.string() }),
      returns: z.string(),
      initial: { priority: 'normal' },
      then: ({ bindings }) => String(bindings.priority ?? 'normal'),
    });
    const model = new ScriptedModel((messages) => {
      user = (messages[1] as { content: string }).content;
      return { toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] };
    });
    await run(new AgentExecutor({ model }), () => triage({ text: 'Server is on fire!' }));
    expect(user).toBe(
      '<<<NH:PROGRAM>>>\nClassify <text> and set <:priority>.\n<<<NH:END_PROGRAM>>>\n' +
        '<<<NH:LOCALS>>>\npriority: string = "normal"\ntext: string = "Server is on fire!"\n<<<NH:END_LOCALS>>>\n' +
        '<<<NH:GLOBALS>>>\n\n<<<NH:END_GLOBALS>>>',
    );
  });

  it('12. locals beyond the item bound are cut with a final <snipped>; dunder names never render', async () => {
    const values: Record<string, number> = { __secret: 1 };
    for (let i = 0; i < 100; i++) values[`v${String(i).padStart(3, '0')}`] = i;
    const messages = await capturePrompt({ program: 'execute\nLook.', values }, { localsMaxItems: 5 });
    const user = (messages[1] as { content: string }).content;
    const locals = user.split('<<<NH:LOCALS>>>\n')[1]!.split('\n<<<NH:END_LOCALS>>>')[0]!.split('\n');
    expect(locals).toEqual(['v000: number = 0', 'v001: number = 1', 'v002: number = 2', 'v003: number = 3', 'v004: number = 4', SNIPPED]);
    expect(user).not.toContain('__secret');
  });

  it('rendering never invokes getters and survives cycles and hostile values', async () => {
    let getterCalls = 0;
    const hostile: Record<string, unknown> = { a: 1 };
    Object.defineProperty(hostile, 'trap', { enumerable: true, get: () => { getterCalls++; throw new Error('no'); } });
    hostile.self = hostile;
    const messages = await capturePrompt({ program: 'execute\nLook at <hostile>.', values: { hostile } });
    const user = (messages[1] as { content: string }).content;
    expect(getterCalls).toBe(0);
    expect(user).toContain('hostile: object = {"a":1,"trap":"<accessor>","self":"<cycle>"}');
  });

  it("operator data model code reads through its membrane is previewed as the operator's data, in the prompt and in a result", async () => {
    const rows = [{ id: 1, tags: ['a'] }, { id: 2, tags: ['b', 'c'] }];
    const seen: string[] = [];
    const model = new ScriptedModel((messages, info) => {
      seen.push(String((messages.at(-1) as { content?: unknown }).content));
      return info.requestNumber === 1
        ? { toolCalls: [toolCall('nh_evaluate', { expression: '({ first: rows[0], all: rows.map((r) => r.tags) })' })] }
        : { toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] };
    });
    await run(new AgentExecutor({ model }), () => step({ program: 'execute\nRead <rows>.', values: { rows } }));
    expect(seen[0]).toContain('rows: array = [{"id":1,"tags":["a"]},{"id":2,"tags":["b","c"]}]');
    expect(seen[1]).toContain('"value":{"first":{"id":1,"tags":["a"]},"all":[["a"],["b","c"]]}');
    expect(seen.join('\n')).not.toContain('<proxy>');
  });

  it('escaped tokens make no binding and render literally', async () => {
    const messages = await capturePrompt({ program: 'execute\nWrite the literal \\<name> tag.' });
    expect((messages[1] as { content: string }).content).toContain('Write the literal <name> tag.');
  });

  it('a huge value is previewed within its bound', async () => {
    const messages = await capturePrompt({ program: 'execute\nLook at <big>.', values: { big: 'x'.repeat(100_000) } });
    const user = (messages[1] as { content: string }).content;
    expect(user.length).toBeLessThan(2_000);
    expect(user).toContain('…');
  });
});
