import { describe, expect, it } from 'vitest';
import { transformNaturalBlocks } from '../../../kernel/src/core/transform/index.js';

/** A 1,000-line module with 20 Natural functions, one block each. */
function largeModule(): string {
  const lines = [`import * as nh from 'nighthawk-ts';`];
  for (let f = 0; f < 20; f++) {
    lines.push(`export const f${f} = nh.function(async function g${f}(a: number, items: string[]): Promise<number> {`, '  let total: number = 0;');
    for (let i = 0; i < 20; i++) lines.push(`  const v${i} = a + ${i} * items.length;`);
    lines.push('  for (const item of items) {', "    'execute\\nAdd <item> and <a> to <:total>.';", '  }');
    for (let i = 0; i < 23; i++) lines.push(`  if (total > ${i}) total -= v${i % 20};`);
    lines.push('  return total;', '});');
  }
  return lines.join('\n');
}

describe('transform speed', () => {
  // CPU time of this process, not wall time: other test processes share the cores.
  it('transforms a 1,000-line module with 20 blocks in well under 100 ms of CPU time (median of 10)', () => {
    const source = largeModule();
    expect(source.split('\n').length).toBeGreaterThanOrEqual(1000);
    expect(transformNaturalBlocks(source, { fileName: 'big.ts' }).blockCount).toBe(20); // warm-up loads the compiler
    const times: number[] = [];
    for (let i = 0; i < 10; i++) {
      const start = process.cpuUsage();
      transformNaturalBlocks(source, { fileName: 'big.ts' });
      const used = process.cpuUsage(start);
      times.push((used.user + used.system) / 1000);
    }
    times.sort((a, b) => a - b);
    expect(times[5], `CPU ms per transform: ${times.map((t) => t.toFixed(1)).join(', ')}`).toBeLessThan(100);
  });
});
