/**
 * The README's TypeScript examples do what their comments say. The tour's notebook cell is run by
 * test/server/readme-tour.test.ts; here:
 * - the harness, ledger and Session examples stand word for word in readme-examples.ts (where the project's
 *   typecheck checks them), and run there: the status is posted once, its perimeter attempt is in the SQLite
 *   audit before the post happens, the generator example returns 6, typed events read without casts, and a
 *   retained `add(2, 3)` is 5 in a run of its own;
 * - the block form, taken from the README and compiled by the project's esbuild plugin, fills its write
 *   binding from the model;
 * - the plain-script line runs the tour's function under an executor with the oversight in a scope: 2, after
 *   the refused call.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';
import { ENTRY, compileModule, removeCompiledModules } from '../core/transform/compile-module.js';
import { auditorExample, harnessExamples, retainExample, statusExecutor } from './readme-examples.js';

const root = path.resolve(import.meta.dirname, '../..');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
const examplesFile = readFileSync(path.join(import.meta.dirname, 'readme-examples.ts'), 'utf8');
const TESTING = path.join(root, 'kernel', 'src', 'testing.ts');
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);

/** The README's TypeScript block that starts with `firstLine`. */
function block(firstLine: string): string {
  const found = blocks.find((b) => b.startsWith(firstLine));
  if (!found) throw new Error(`README.md has no \`\`\`ts block starting with ${JSON.stringify(firstLine)}`);
  return found;
}

/**
 * Whether readme-examples.ts holds `text`'s lines in a row, each the same once indentation is set aside (a
 * line there may also keep the value, as `return …` or `const name = …`).
 */
function standsInExamples(text: string): boolean {
  const wanted = text.split('\n').map((l) => l.trim()).filter(Boolean);
  const lines = examplesFile.split('\n').map((l) => l.trim().replace(/^(?:return |const \w+ = )(?=.)/, ''));
  const original = examplesFile.split('\n').map((l) => l.trim());
  const matches = (i: number, j: number): boolean => lines[i + j] === wanted[j] || original[i + j] === wanted[j];
  return lines.some((_, i) => wanted.every((_, j) => matches(i, j)));
}

const HARNESS = 'const audit = new nh.SqlitePerimeterAuditStore';
const GENERATORS = 'const source = `';
const AUDITORS = "const entry = runner.ledger.select({ kind: 'run.entry' })[0]!;";
const RETAIN = 'const add = session.retain';

afterAll(removeCompiledModules);

describe('README examples stand in readme-examples.ts word for word', () => {
  for (const [name, first] of [['Runs under the Harness', HARNESS], ['Generators in generated code', GENERATORS], ['The ledger for auditors', AUDITORS], ['Session extras', RETAIN]] as const) {
    test(name, () => {
      expect(standsInExamples(block(first)), `README's block starting ${first} differs from test/docs/readme-examples.ts: change both`).toBe(true);
    });
  }

  test('a changed line is noticed', () => {
    expect(standsInExamples(block(GENERATORS).replace('yield 3', 'yield 4'))).toBe(false);
  });
});

describe('the README examples run as their comments say', () => {
  test('a run posts its status once, after the durable attempt; generated generators total 6; events are typed; a retained add is 5', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'nh-readme-'));
    const cwd = process.cwd();
    process.chdir(dir); // the example's store is `.nighthawk/audit.db`, relative
    try {
      const posted: Array<{ text: string; attemptsBefore: number }> = [];
      const { runner, audit, operations, total } = await harnessExamples(statusExecutor('all systems green'), async (text) => {
        // The store on disk, opened afresh: the attempt is already there, with no completion yet.
        const reader = new nh.SqlitePerimeterAuditStore({ path: path.join(dir, '.nighthawk', 'audit.db') });
        try {
          posted.push({ text, attemptsBefore: reader.list({ capability: 'send_report' }).filter((e) => e.completion === undefined).length });
        } finally {
          reader.close();
        }
      });
      expect(posted).toEqual([{ text: 'all systems green', attemptsBefore: 1 }]);
      expect(audit.list({ capability: 'send_report' }).map((e) => e.completion?.status)).toEqual(['completed']);
      expect(operations.map((e) => e.status)).toEqual(['completed', 'completed']);
      expect(total).toBe(6);

      const runEnd = runner.ledger.select({ kind: 'run.end' })[0];
      const { entry, logged } = auditorExample(runner, JSON.parse(JSON.stringify(runEnd)));
      expect(entry.data.effectivePolicy).toEqual(['egress']);
      expect(logged).toEqual([]); // no capability was refused
      expect(() => auditorExample(runner, { kind: 'run.end' })).toThrow();
      audit.close();

      const definer = new nh.Runner({ executor: statusExecutor('unused') });
      const materialization = await definer.run((ctx) =>
        ctx.dispatch({ language: 'typescript', intent: 'define', source: 'export function add(a: number, b: number): number { return a + b; }' }),
      );
      const session = new nh.Session({ executor: statusExecutor('unused') });
      await expect(retainExample(session, nh.RetainedFunction.retain(materialization, 'add'))).resolves.toBe(5);
      expect(session.ledger.select({ kind: 'run.entry' }).map((e) => e.data.label)).toEqual(['add']);
    } finally {
      process.chdir(cwd);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the block form fills its write binding from the model', async () => {
    const { summarize } = await compileModule<{ summarize: (text: string) => Promise<string> }>(
      `import * as nh from ${JSON.stringify(ENTRY)};\n${block('const summarize = nh.function(')}\nexport { summarize };\n`,
      'readme-block-form',
    );
    const model = new ScriptedModel(() => ({
      toolCalls: [toolCall('nh_assign', { target_path: 'summary', expression: 'text.split(".")[0] + "."' }), toolCall('nh_output', { result: { kind: 'pass' } })],
    }));
    await expect(nh.run(new nh.AgentExecutor({ model }), () => summarize('It rained. Then it stopped.'))).resolves.toBe('It rained.');
  });

  test("the plain-script line runs the tour's function: 2, after the refused call", async () => {
    const line = /In a plain script[^`]*`(await nh\.run\([^`]*\))`/.exec(readme)?.[1];
    expect(line, 'README.md: the plain-script line after the tour').toBeDefined();
    const tour = block("import { z } from 'zod';");
    const definitions = tour.slice(tour.indexOf('const calculate'), tour.indexOf('// The notebook kernel'));
    const { result, decisions } = await compileModule<{ result: number; decisions: string[] }>(
      [
        `import { z } from 'zod';`,
        `import * as nh from ${JSON.stringify(ENTRY)};`,
        `import { ScriptedModel, toolCall } from ${JSON.stringify(TESTING)};`,
        definitions,
        'export const decisions: string[] = [];',
        // The tour's oversight, as its cell configures it.
        `const oversight = { inspectOperation: (op: { expression?: string }) => (op.expression === undefined || decisions.push(op.expression), op.expression === 'forbidden()' ? nh.rejectOperation('This helper is unavailable.', 'Evaluate 1 + 1 instead.') : nh.accept()) };`,
        `export const result = ${line!.replace(/^await /, 'await ')};`,
      ].join('\n'),
      'readme-plain-script',
    );
    expect(result).toBe(2);
    expect(decisions).toEqual(['forbidden()', '1 + 1']);
  });
});
