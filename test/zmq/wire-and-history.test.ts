import { createHmac } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { decode, DELIMITER, encode, Signer } from '../../kernel/src/server/zmq/wire.js';
import { CellHistory, globToRegExp } from '../../kernel/src/server/zmq/cell-history.js';
import { helpTarget } from '../../kernel/src/server/zmq/console-cells.js';

const parts = { header: { msg_id: 'm1', msg_type: 'execute_request' }, parent_header: {}, metadata: {}, content: { code: '1+1' } };

describe('wire format', () => {
  test('encoded frames carry identities, the delimiter and an HMAC-SHA256 hex digest over the four JSON frames', () => {
    const frames = encode([Buffer.from('client')], parts, new Signer('key'));
    expect(frames[0]!.toString()).toBe('client');
    expect(frames[1]!.equals(DELIMITER)).toBe(true);
    const hmac = createHmac('sha256', 'key');
    for (const f of frames.slice(3, 7)) hmac.update(f);
    expect(frames[2]!.toString()).toBe(hmac.digest('hex'));
  });

  test('a signed message decodes with its identities; a tampered content frame is a bad signature', () => {
    const signer = new Signer('key');
    const frames = encode([Buffer.from('a'), Buffer.from('b')], parts, signer);
    const ok = decode(frames, signer);
    expect(ok.kind).toBe('ok');
    if (ok.kind === 'ok') expect(ok.message.identities.map(String)).toEqual(['a', 'b']);
    const tampered = [...frames];
    tampered[6] = Buffer.from(JSON.stringify({ code: 'process.exit()' }));
    expect(decode(tampered, signer).kind).toBe('bad-signature');
    expect(decode(frames, new Signer('other key')).kind).toBe('bad-signature');
  });

  test('frames without the delimiter or with missing parts are malformed', () => {
    expect(decode([Buffer.from('x')], new Signer('k'))).toMatchObject({ kind: 'malformed', reason: 'no <IDS|MSG> delimiter' });
    expect(decode([DELIMITER, Buffer.from('sig')], new Signer('k'))).toMatchObject({ kind: 'malformed' });
  });

  test('an empty key means unsigned messages, as jupyter_client does', () => {
    const frames = encode([], parts, new Signer(''));
    expect(frames[1]!.toString()).toBe('');
    expect(decode(frames, new Signer('')).kind).toBe('ok');
  });
});

describe('cell history', () => {
  const history = new CellHistory();
  ['1 + 2', 'let x = 1', '1 + 2', 'x * 2', '1 + 2'].forEach((source, i) => history.record(i + 1, source));
  history.setOutput(4, '2');

  test('tail returns the last n cells as [session, line, source], with [source, output] when output is asked for', () => {
    expect(history.query({ hist_access_type: 'tail', n: 2 })).toEqual([
      [1, 4, 'x * 2'],
      [1, 5, '1 + 2'],
    ]);
    expect(history.query({ hist_access_type: 'tail', n: 2, output: true })[0]).toEqual([1, 4, ['x * 2', '2']]);
  });

  test('range selects start <= line < stop in this session (0 or its number), nothing in other sessions', () => {
    expect(history.query({ hist_access_type: 'range', session: 1, start: 2, stop: 4 }).map((h) => h[1])).toEqual([2, 3]);
    expect(history.query({ hist_access_type: 'range', session: 0, start: 5 }).map((h) => h[1])).toEqual([5]);
    expect(history.query({ hist_access_type: 'range', session: -1, start: 1 })).toEqual([]);
  });

  test('search matches glob patterns against the whole source; unique keeps the latest of each source; n keeps the last n', () => {
    expect(history.query({ hist_access_type: 'search', pattern: '1*2' }).map((h) => h[1])).toEqual([1, 3, 5]);
    expect(history.query({ hist_access_type: 'search', pattern: '1*2', unique: true }).map((h) => h[1])).toEqual([5]);
    expect(history.query({ hist_access_type: 'search', pattern: '*', n: 2 }).map((h) => h[1])).toEqual([4, 5]);
    expect(globToRegExp('x ? [0-9]').test('x * 2')).toBe(true);
    expect(globToRegExp('a.b').test('axb')).toBe(false);
  });
});

describe('help cells', () => {
  test('`?name` and `name?` name the expression to page; ordinary code and ternaries do not', () => {
    expect(helpTarget('?console.log')).toBe('console.log');
    expect(helpTarget('  Math.max?  ')).toBe('Math.max');
    expect(helpTarget('??nh.step')).toBe('nh.step');
    expect(helpTarget('a ? b : c')).toBeUndefined();
    expect(helpTarget('x?.y')).toBeUndefined();
  });
});
