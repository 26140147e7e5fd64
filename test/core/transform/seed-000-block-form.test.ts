import { afterAll, describe } from 'vitest';
import { seed000Examples } from '../../support/seed-000.js';
import { ENTRY, compileModule, removeCompiledModules } from './compile-module.js';

afterAll(removeCompiledModules);

// Seed 000's Natural function, in the block form, compiled by the esbuild plugin.
const { calculate } = await compileModule<{ calculate: () => Promise<number> }>(
  `import * as nh from ${JSON.stringify(ENTRY)};

export const calculate = nh.function(async function calculate(): Promise<number> {
  \`execute
  Calculate the requested value using a permitted operation and return it.
  \`;
  return 0;
});
`,
  'seed000',
);

describe('seed 000 operation feedback (block form)', () => {
  seed000Examples(calculate);
});
