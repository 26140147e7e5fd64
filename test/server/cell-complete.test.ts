import { describe, expect, it } from 'vitest';
import { isCompleteSource } from '../../kernel/src/server/kernel/index.js';

describe('is_complete without the compiler', () => {
  it.each([
    ['1 + 1', 'complete'],
    ['', 'complete'],
    ['let a = 40', 'complete'],
    ['const t: Array<string> = []', 'complete'],
    ['i++', 'complete'],
    ['x!', 'complete'],
    ['1.', 'complete'],
    ['const re = /[)}]/g', 'complete'],
    ['a / b / c', 'complete'],
    ['`multi\nline ${"}"} done`', 'complete'],
    ['"}" // {', 'complete'],
    ['const o = {', 'incomplete'],
    ['function f() {\n  if (x) {', 'incomplete'],
    ['const s = `open ${', 'incomplete'],
    ['const s = `open', 'incomplete'],
    ['/* unfinished', 'incomplete'],
    ['const x =', 'incomplete'],
    ['a +', 'incomplete'],
    ['items.map((x) =>', 'incomplete'],
    ['obj.', 'incomplete'],
    ['f(1))', 'invalid'],
    ['[1, 2}', 'invalid'],
    ['"unterminated', 'invalid'],
  ])('%j is %s', (source, status) => {
    expect(isCompleteSource(source).status).toBe(status);
  });

  it('offers an indent per open bracket', () => {
    expect(isCompleteSource('function f() {\n  if (x) {')).toEqual({ status: 'incomplete', indent: '    ' });
  });
});
