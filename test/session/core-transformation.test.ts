import { afterAll, describe, expect, it } from 'vitest';
import { AgentExecutor, Session, hashSource, naturalFunction } from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';
import { z } from 'zod';
import { ENTRY, compileModule, removeCompiledModules } from '../core/transform/compile-module.js';

afterAll(removeCompiledModules);

const newSession = () =>
  new Session({ executor: new AgentExecutor({ model: new ScriptedModel(() => ({ toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] })) }) });

describe('the core-transformation approval route', () => {
  it('a Natural function the block transform compiled from an operator cell carries core-transformation with the cell’s source hash', async () => {
    // The operator's cell, as submitted; the module below is that source after the core's block transform.
    const cellSource = `import * as nh from ${JSON.stringify(ENTRY)};
export const summarize = nh.function(async function summarize(text: string): Promise<string> {
  \`execute
  Summarize <text> and return it.\`;
  return text;
});
export async function plain(): Promise<number> { return 1; }
`;
    const declared = await compileModule<Record<string, unknown>>(cellSource, 'operator-cell');
    const session = newSession();
    const submission = session.submit(cellSource);
    const adapters = session.materialized(submission, declared);

    const evidence = session.evidenceFor(adapters.summarize);
    expect(evidence).toMatchObject({ route: 'core-transformation', sourceHash: hashSource(cellSource), submissionId: submission.submissionId });
    // An ordinary function of the same cell corresponds through its observed materialization.
    expect(session.evidenceFor(adapters.plain)).toMatchObject({ route: 'operator-submission', sourceHash: hashSource(cellSource) });
    // And the adapter still runs the transformed function in a fresh run.
    await expect((adapters.summarize as unknown as (t: string) => Promise<string>)('hello')).resolves.toBe('hello');
  });

  it('the runtime form (no transform) and a function only named like a Natural function stay operator-submission', () => {
    const session = newSession();
    const runtime = naturalFunction({ name: 'runtime', program: 'execute\nGo.', input: z.object({}), returns: z.string() });
    const imitation = async function summarize() {};
    Object.defineProperty(imitation, Symbol.for('nighthawk.natural-function'), { value: true });
    const submission = session.submit("const runtime = naturalFunction({ name: 'runtime', program: 'execute\\nGo.', input: z.object({}), returns: z.string() });\nconst imitation = async function summarize() {};");
    const adapters = session.materialized(submission, { runtime, imitation });
    expect(session.evidenceFor(adapters.runtime)?.route).toBe('operator-submission');
    expect(session.evidenceFor(adapters.imitation)?.route).toBe('operator-submission');
  });
});
