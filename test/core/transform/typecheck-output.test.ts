import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { transformNaturalBlocks } from '../../../kernel/src/core/transform/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const workDir = path.join(here, '.nighthawk', `typecheck-${process.pid}-${Date.now()}`);
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

const entry = path.relative(workDir, path.resolve(here, '../../../kernel/src/index.js')).split(path.sep).join('/');

const SOURCE = `import * as nh from ${JSON.stringify(entry)};
import { z } from 'zod';

export const f = nh.function(async function f(items: string[], topic: string): Promise<number> {
  let found: string | null = null;
  let count = 0;
  let tags: { name: string; weight?: number }[] = [];
  for (const item of items) {
    switch (item) {
      case 'x':
        'execute\\nLook at <item> and set <:found> and <:count>.';
        break;
    }
  }
  \`execute
  Tag \${topic} into <:tags>.\`;
  if (found !== null) return found.length + count + tags.length;
  return count;
}, { bindings: { count: z.number().int() } });
`;

describe('transformed output', () => {
  it('type-checks under the strict project settings, keeping annotated types after write-back', () => {
    const result = transformNaturalBlocks(SOURCE, { fileName: 'checked.ts', runtimeModule: entry });
    expect(result.diagnostics).toEqual([]);
    expect(result.blockCount).toBe(2);
    mkdirSync(workDir, { recursive: true });
    const file = path.join(workDir, 'checked.ts');
    writeFileSync(file, result.code);
    const program = ts.createProgram([file], {
      strict: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      noEmit: true,
      skipLibCheck: true,
      types: ['node'],
    });
    const messages = ts
      .getPreEmitDiagnostics(program, program.getSourceFile(file))
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(messages).toEqual([]);
  });
});
