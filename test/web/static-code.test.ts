import { describe, expect, it } from 'vitest';
import { tokenize } from '../../web/src/static-code.js';

const kinds = (source: string) => tokenize(source).filter((t) => t.kind).map((t) => [t.kind, t.text]);

describe('static code of far cells', () => {
  it('colours keywords, strings, numbers and comments, and keeps every character', () => {
    const source = 'const s = "a // not a comment"; // a comment\nlet n = 0x1f + 2.5e3;\n/* block */ `t ${s}`; identifier';
    expect(kinds(source)).toEqual([
      ['keyword', 'const'], ['string', '"a // not a comment"'], ['comment', '// a comment'],
      ['keyword', 'let'], ['number', '0x1f'], ['number', '2.5e3'],
      ['comment', '/* block */'], ['string', '`t ${s}`'],
    ]);
    expect(tokenize(source).map((t) => t.text).join('')).toBe(source);
  });

  it('an unterminated string or comment runs to the end without losing text', () => {
    for (const source of ['let x = "open', 'x /* open', 'y = `open\nline']) expect(tokenize(source).map((t) => t.text).join('')).toBe(source);
  });
});
