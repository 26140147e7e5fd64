/** The operator's approval answer, as the card (JSON) or a console line sends it, read into a decision. */
import { describe, expect, it } from 'vitest';
import { parseAnswer } from '../../kernel/src/index.js';

describe('parseAnswer', () => {
  it('reads card answers and console lines, and never yields a decision without a reason', () => {
    expect(parseAnswer('{"kind":"accept"}')).toMatchObject({ kind: 'accept' });
    expect(parseAnswer('{"kind":"reject-operation","reason":"not that file","guidance":"read notes.md"}')).toMatchObject({ kind: 'reject-operation', reason: 'not that file', guidance: 'read notes.md' });
    // Blank reasons are not passed on: a rejection without one ends the step, an abort gets the default.
    expect(parseAnswer('{"kind":"reject-operation","reason":"   "}')).toMatchObject({ kind: 'abort-step', reason: 'rejection without a reason' });
    expect(parseAnswer('{"kind":"abort-step","reason":"   "}')).toMatchObject({ kind: 'abort-step', reason: 'aborted by the operator' });
    expect(parseAnswer('y')).toMatchObject({ kind: 'accept' });
    expect(parseAnswer('reject too broad | narrow the path')).toMatchObject({ kind: 'reject-operation', reason: 'too broad', guidance: 'narrow the path' });
    expect(parseAnswer('no')).toMatchObject({ kind: 'reject-operation', reason: 'rejected by the operator' });
    expect(parseAnswer('abort')).toMatchObject({ kind: 'abort-step', reason: 'aborted by the operator' });
    expect(parseAnswer('maybe later')).toMatchObject({ kind: 'abort-step', reason: expect.stringContaining('unreadable approval answer') });
    expect(parseAnswer('')).toMatchObject({ kind: 'abort-step' });
  });
});
