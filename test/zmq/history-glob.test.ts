/**
 * Attack: a history_request `search` whose glob pattern (up to 10,000 characters, from any client holding the key,
 * e.g. a web client relayed by a Jupyter server) was turned into a backtracking RegExp. An out-of-order class
 * (`[z-a]`) made `new RegExp` throw inside the socket's receive loop (before the runtime loaded) or the reply path,
 * ending that channel for good; `*a*a*a*a*a*a*a*a*b` against an ordinary cell's source backtracked for minutes on
 * the event loop, a hung kernel. A pattern is data: it matches or it does not, in time linear in the pattern times
 * the source, and never throws.
 */
import { describe, expect, test } from 'vitest';
import { CellHistory, globMatcher } from '../../kernel/src/server/zmq/cell-history.js';

const search = (history: CellHistory, pattern: string) => history.query({ hist_access_type: 'search', pattern });

describe('history search patterns are data', () => {
  test('malformed classes neither throw nor match everything', () => {
    const history = new CellHistory();
    history.record(1, 'z');
    history.record(2, '[');
    for (const pattern of ['[z-a]', '[', '[]', '[^]', '[\\]', '*[z-a]*']) expect(() => search(history, pattern), pattern).not.toThrow();
    expect(search(history, '[z-a]')).toEqual([]);
    expect(search(history, '[')).toEqual([[1, 2, '[']]);
  });

  test('a pattern built to backtrack finishes at once', () => {
    const history = new CellHistory();
    history.record(1, 'a'.repeat(5_000));
    const started = Date.now();
    expect(search(history, '*a'.repeat(40) + '*b')).toEqual([]);
    expect(search(history, '*a'.repeat(40) + '*')).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  test('glob semantics: *, ?, classes, negated classes and ranges, matched against the whole source', () => {
    const m = (pattern: string, text: string) => globMatcher(pattern)(text);
    expect(m('x ? [0-9]', 'x * 2')).toBe(true);
    expect(m('a.b', 'axb')).toBe(false);
    expect(m('a*c', 'abbbc')).toBe(true);
    expect(m('a*c', 'abbbcd')).toBe(false);
    expect(m('[^a]*', 'ba')).toBe(true);
    expect(m('[^a]*', 'ab')).toBe(false);
    expect(m('[]]x', ']x')).toBe(true);
    expect(m('*\n*', 'a\nb')).toBe(true);
    expect(m('', '')).toBe(true);
  });
});
