/**
 * The server's token check compares SHA-256 digests of the given and the expected token in constant time: a guess of
 * any length (shorter, longer, empty, multi-byte) costs the same and answers only no, so neither the token's bytes
 * nor its length can be learned from timing. Header and query forms are read as before.
 */
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { tokenMatches } from '../../kernel/src/server/api/security.js';

const request = (authorization?: string) => ({ headers: authorization === undefined ? {} : { authorization } }) as unknown as IncomingMessage;
const none = new URLSearchParams();

describe('tokenMatches', () => {
  const token = 'a'.repeat(48);
  it('accepts the token in the header (token or bearer) or the query', () => {
    expect(tokenMatches(token, request(`token ${token}`), none)).toBe(true);
    expect(tokenMatches(token, request(`Bearer ${token}`), none)).toBe(true);
    expect(tokenMatches(token, request(), new URLSearchParams({ token }))).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['one byte short', token.slice(1)],
    ['one byte long', `${token}a`],
    ['same length, last byte differs', `${token.slice(0, -1)}b`],
    ['multi-byte characters of the same length in UTF-16', 'é'.repeat(48)],
  ])('refuses a guess that is %s, without throwing', (_what, guess) => {
    expect(tokenMatches(token, request(`token ${guess}`), none)).toBe(false);
    expect(tokenMatches(token, request(), new URLSearchParams({ token: guess }))).toBe(false);
  });

  it('a wrong header is not rescued by a right query token', () => {
    expect(tokenMatches(token, request('token wrong'), new URLSearchParams({ token }))).toBe(false);
  });
});
