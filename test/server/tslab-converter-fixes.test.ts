/** The converter mends (tslab-converter-fixes.ts) apply exactly once, and a converter they do not fit is refused. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, test } from 'vitest';
import { mendConverterSource, TslabConverterMismatchError } from '../../kernel/src/server/kernel/tslab-converter-fixes.js';

const converterPath = createRequire(import.meta.url).resolve('tslab/dist/converter');
const source = readFileSync(converterPath, 'utf8');

describe('mendConverterSource', () => {
  test('the pinned tslab converter takes every fix: no escaped name is printed as code', () => {
    const mended = mendConverterSource(source, converterPath);
    expect(mended).not.toBe(source);
    expect(mended).not.toContain('Array.from(keys).join(", ")');
    expect(mended).not.toContain('id.escapedText.toString()');
    expect(mended).toContain('ts.unescapeLeadingUnderscores(name)');
  });

  test('a converter missing a fixed place, or holding it twice, is refused with the place named', () => {
    const without = source.replace('let name = id.escapedText.toString();', 'let name = id.text;');
    expect(() => mendConverterSource(without, 'other/converter.js')).toThrow(TslabConverterMismatchError);
    expect(() => mendConverterSource(without, 'other/converter.js')).toThrow(/other\/converter\.js .*the prefix completion matches against/);
    const twice = `${source}\nlet name = id.escapedText.toString();`;
    expect(() => mendConverterSource(twice, 'twice.js')).toThrow(/exactly once/);
  });
});
