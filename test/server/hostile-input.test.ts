import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import WebSocket from 'ws';
import fc from 'fast-check';
import type { Kernel } from '@jupyterlab/services';
import { startKernelServer, type KernelServerFixture } from '../support/kernel-server.js';
import { runCell } from '../support/kernel-client.js';

const FRAMES = 10_000;
const MAX_MESSAGE = 64 * 1024;
const MAX_BODY = 256 * 1024;

let fx: KernelServerFixture;
let kernel: Kernel.IKernelConnection;
const dropLog: string[] = [];
let droppedFrames = 0;
let closed = false;

beforeAll(async () => {
  fx = await startKernelServer({
    spareKernels: 0,
    maxMessageBytes: MAX_MESSAGE,
    maxBodyBytes: MAX_BODY,
    log: (line) => {
      if (line.includes('dropped frame')) dropLog.push(line);
    },
  });
  kernel = await fx.kernels.startNew();
  await kernel.info;
}, 60_000);

afterAll(async () => {
  if (!closed) await fx?.close();
});

const header = (msgType: unknown, id: string): Record<string, unknown> => ({
  msg_id: id,
  msg_type: msgType,
  username: 'hostile',
  session: 'hostile',
  version: '5.3',
  date: new Date().toISOString(),
});

/** Frame n of the hostile corpus; `id` is set when the frame has a readable header (so expects a reply). */
function hostileFrame(n: number, random: () => unknown): { data: string | Buffer; id?: string } {
  const id = `hostile-${n}`;
  switch (n % 16) {
    case 0:
      return { data: '{"channel": "shell", "header": ' + '{'.repeat(n % 50) };
    case 1:
      return { data: JSON.stringify(random()) };
    case 2:
      return { data: JSON.stringify({ channel: 'shell', header: header('execute_request', id), content: { code: 42 } }), id };
    case 3:
      return { data: JSON.stringify({ channel: 'shell', header: header(`evil_${n}_request`, id), content: {} }), id };
    case 4:
      return { data: 'x'.repeat(MAX_MESSAGE + 1 + (n % 7)) };
    case 5:
      return { data: Buffer.from([0, 1, 2, 3, n % 256]) };
    case 6:
      return { data: JSON.stringify({ channel: 'shell', header: { ...header('execute_request', id), msg_id: 'y'.repeat(1000) }, content: { code: '1' } }) };
    case 7:
      return { data: JSON.stringify({ channel: 'iopub', header: header('execute_request', id), content: { code: '1' } }) };
    case 8:
      return { data: JSON.stringify({ channel: 'stdin', header: header('execute_request', id), content: { code: 'process.exit(1)' } }), id };
    case 9:
      return { data: JSON.stringify({ channel: 'shell', header: header('input_reply', id), content: { value: 'x' } }), id };
    case 10:
      return { data: `{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "channel": "shell", "header": ${JSON.stringify(header('kernel_info_request', id))}, "content": [] }`, id };
    case 11:
      return { data: JSON.stringify({ channel: 'control', header: header('shutdown_request', id), content: { restart: 'yes' } }), id };
    case 12:
      return { data: JSON.stringify({ channel: 'shell', header: header('complete_request', id), content: { code: 'x', cursor_pos: -5 } }), id };
    case 13:
      return { data: JSON.stringify({ channel: 'shell', header: header(12345, id), content: {} }) };
    case 14:
      return { data: JSON.stringify({ channel: 'shell', header: header('execute_request', id), content: { code: 'x'.repeat(2_000_000) } }).slice(0, MAX_MESSAGE - 10) };
    default:
      return { data: JSON.stringify({ channel: 'shell', header: header('inspect_request', id), content: { code: 'a', cursor_pos: 'end' } }), id };
  }
}

function sandboxSnapshot(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (full.startsWith(fx.notebookDir)) continue;
      out.push(`${path.relative(fx.sandbox, full)}:${entry.isDirectory() ? 'dir' : statSync(full).mtimeMs}`);
      if (entry.isDirectory()) walk(full);
    }
  };
  walk(fx.sandbox);
  return out.sort();
}

test('10,000 hostile frames and REST bodies are each refused or dropped, and the kernel still answers 1+1', async () => {
  const sentinel = path.join(fx.sandbox, 'sentinel.ipynb');
  writeFileSync(sentinel, 'do not touch');
  const before = sandboxSnapshot();
  const stats = { ...fx.server.stats };

  // --- WebSocket frames on a raw connection (the services client validates what it sends) ---
  const ws = new WebSocket(`${fx.server.wsUrl}api/kernels/${kernel.id}/channels?token=${fx.server.token}`);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const replies = new Map<string, { msg_type: string; status: unknown }>();
  let done: () => void = () => {};
  const finished = new Promise<void>((resolve) => (done = resolve));
  ws.on('message', (data) => {
    const msg = JSON.parse(String(data)) as { header: { msg_type: string }; parent_header: { msg_id?: string }; content: { status?: unknown } };
    const parent = msg.parent_header.msg_id;
    if (parent === 'probe' && msg.header.msg_type === 'kernel_info_reply') done();
    else if (parent?.startsWith('hostile-') && !msg.header.msg_type.startsWith('status')) {
      replies.set(parent, { msg_type: msg.header.msg_type, status: msg.content.status });
    }
  });
  const arbitrary = fc.sample(fc.jsonValue(), { numRuns: FRAMES, seed: 42 });
  const expectReply = new Set<string>();
  for (let n = 0; n < FRAMES; n++) {
    const frame = hostileFrame(n, () => arbitrary[n]);
    if (frame.id) expectReply.add(frame.id);
    ws.send(frame.data, { binary: Buffer.isBuffer(frame.data) });
  }
  ws.send(JSON.stringify({ channel: 'shell', header: header('kernel_info_request', 'probe'), content: {} }));
  await finished;
  ws.close();

  const refused = fx.server.stats.framesRefused - stats.framesRefused;
  const dropped = fx.server.stats.framesDropped - stats.framesDropped;
  expect(fx.server.stats.framesReceived - stats.framesReceived).toBe(FRAMES + 1);
  expect(refused + dropped).toBe(FRAMES);
  // The log is rate-limited: a few lines per kind of drop, the rest counted (see the next test).
  expect(dropLog.length).toBeGreaterThan(0);
  expect(dropLog.length).toBeLessThan(60);
  droppedFrames = dropped;
  expect(replies.size).toBe(refused);
  for (const id of expectReply) {
    expect(replies.get(id), id).toMatchObject({ status: 'error' });
    expect(replies.get(id)!.msg_type).toMatch(/_reply$/);
  }

  // --- REST bodies and paths ---
  const base = fx.server.baseUrl;
  const auth = { Authorization: `token ${fx.server.token}`, 'Content-Type': 'application/json' };
  const bodies: Array<[string, string, string]> = [
    ['POST', 'api/sessions', '{"path": 5}'],
    ['POST', 'api/sessions', 'not json'],
    ['POST', 'api/sessions', '[]'],
    ['POST', 'api/kernels', '{"name": "python3"}'],
    ['POST', 'api/kernels', 'x'.repeat(MAX_BODY + 10)],
    ['PUT', 'api/contents/x.ipynb', '{"type": "notebook", "content": {"cells": "nope"}}'],
    ['PUT', 'api/contents/x.ipynb', 'x'.repeat(MAX_BODY * 2)],
    ['PUT', 'api/contents/..%2Fsentinel.ipynb', JSON.stringify({ type: 'notebook', content: {} })],
    ['PUT', 'api/contents/%2E%2E/sentinel.ipynb', JSON.stringify({ type: 'notebook', content: {} })],
    ['PUT', 'api/contents/../sentinel.ipynb', '{}'],
    ['PUT', 'api/contents/%252e%252e%252fsentinel.ipynb', '{}'],
    ['PUT', 'api/contents/a%00b.ipynb', '{}'],
    ['PUT', 'api/contents/..%5csentinel.ipynb', '{}'],
    ['PATCH', 'api/contents/nothing.ipynb', JSON.stringify({ path: '../sentinel.ipynb' })],
    ['DELETE', 'api/contents/..%2Fsentinel.ipynb', ''],
    ['DELETE', 'api/contents/%2Ftmp', ''],
    ['GET', 'api/contents/..%2F..%2F..%2Fetc%2Fpasswd', ''],
    ['POST', 'api/contents/..%2F', JSON.stringify({ type: 'notebook' })],
    ['POST', 'api/contents', JSON.stringify({ copy_from: '../sentinel.ipynb' })],
    ['POST', 'api/kernels/nope/restart', ''],
    ['PATCH', 'api/sessions/nope', '{"kernel": 7}'],
    ['GET', 'api/contents/%E0%A4%A', ''],
  ];
  for (let i = 0; i < 10; i++) bodies.push(['POST', 'api/sessions', JSON.stringify(arbitrary[i])]);
  for (const [method, url, body] of bodies) {
    const response = await fetch(base + url, { method, headers: auth, body: method === 'GET' || method === 'DELETE' ? undefined : body });
    await response.arrayBuffer().catch(() => undefined);
    expect(response.status, `${method} ${url}`).toBeGreaterThanOrEqual(400);
    expect(response.status, `${method} ${url}`).toBeLessThan(500);
  }

  // --- the kernel still works, nothing outside the notebooks directory changed ---
  const run = await runCell(kernel, '1+1');
  expect(run.result?.['text/plain']).toBe('2');
  const pollution = await runCell(kernel, '(({}) as Record<string, unknown>).polluted === undefined');
  expect(pollution.result?.['text/plain']).toBe('true');
  expect(readFileSync(sentinel, 'utf8')).toBe('do not touch');
  expect(sandboxSnapshot()).toEqual(before);
  expect(readdirSync(fx.notebookDir).filter((n) => !n.startsWith('.'))).toEqual([]);
}, 60_000);

test('a frame nested thousands of levels deep (text or v1 binary) is refused with an error reply, and the server and kernel keep running', async () => {
  // As JSON text: a value this deep would overflow JSON.stringify in the test itself.
  const deep = (levels: number): string => `${'['.repeat(levels)}"bottom"${']'.repeat(levels)}`;
  const stats = { ...fx.server.stats };
  const connect = async (protocol?: string): Promise<WebSocket> => {
    const ws = new WebSocket(`${fx.server.wsUrl}api/kernels/${kernel.id}/channels?token=${fx.server.token}`, protocol ? [protocol] : []);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    return ws;
  };
  const replyTo = (ws: WebSocket, id: string): Promise<{ msg_type: string; content: { status?: string; evalue?: string } }> =>
    new Promise((resolve) =>
      ws.on('message', (data, isBinary) => {
        const text = isBinary ? undefined : String(data);
        if (!text) return;
        const msg = JSON.parse(text) as { header: { msg_type: string }; parent_header: { msg_id?: string }; content: { status?: string; evalue?: string } };
        if (msg.parent_header.msg_id === id && msg.header.msg_type.endsWith('_reply')) resolve({ msg_type: msg.header.msg_type, content: msg.content });
      }),
    );

  // A JSON text frame whose metadata is 5,000 levels deep (10 KB: well under the size limit).
  const text = await connect();
  const textReply = replyTo(text, 'deep-text');
  text.send(`{"channel":"shell","header":${JSON.stringify(header('execute_request', 'deep-text'))},"parent_header":{},"metadata":{"deep":${deep(5000)}},"content":{"code":"1"}}`);
  expect(await textReply).toMatchObject({ msg_type: 'execute_reply', content: { status: 'error', evalue: expect.stringMatching(/nested deeper than 256/) } });
  text.close();

  // The same in the v1 binary layout, deep content this time.
  const v1 = await connect('v1.kernel.websocket.jupyter.org');
  const parts = ['shell', JSON.stringify(header('execute_request', 'deep-v1')), '{}', '{}', `{"code":"1","deep":${deep(5000)}}`].map((p) => Buffer.from(p, 'utf8'));
  const offsets: number[] = [];
  let at = 8 * (parts.length + 2);
  for (const p of parts) {
    offsets.push(at);
    at += p.length;
  }
  offsets.push(at);
  const table = Buffer.alloc(8 * (offsets.length + 1));
  table.writeBigUInt64LE(BigInt(offsets.length), 0);
  offsets.forEach((o, i) => table.writeBigUInt64LE(BigInt(o), 8 * (i + 1)));
  const v1Reply = new Promise<string>((resolve) =>
    v1.on('message', (data: Buffer) => {
      const count = Number(data.readBigUInt64LE(0));
      const offset = (i: number) => Number(data.readBigUInt64LE(8 * (i + 1)));
      const parent = JSON.parse(data.subarray(offset(2), offset(3)).toString('utf8')) as { msg_id?: string };
      const content = JSON.parse(data.subarray(offset(4), count > 5 ? offset(5) : data.length).toString('utf8')) as { status?: string; evalue?: string };
      if (parent.msg_id === 'deep-v1' && content.status) resolve(`${content.status}: ${content.evalue}`);
    }),
  );
  v1.send(Buffer.concat([table, ...parts]), { binary: true });
  expect(await v1Reply).toMatch(/^error: .*nested deeper than 256/);
  v1.close();

  expect(fx.server.stats.framesRefused - stats.framesRefused).toBe(2);
  expect((await fetch(`${fx.server.baseUrl}api/status?token=${fx.server.token}`)).status).toBe(200);
  expect((await runCell(kernel, '2+2')).result?.['text/plain']).toBe('4');
}, 60_000);

test('every dropped frame is accounted for in the log: printed, or counted in a "similar lines suppressed" summary', async () => {
  closed = true;
  await fx.close(); // flushes the pending summaries
  const counted = dropLog.reduce((sum, line) => sum + 1 + Number(/\[and (\d+) similar lines? suppressed/.exec(line)?.[1] ?? 0) - (/suppressed/.test(line) ? 1 : 0), 0);
  expect(droppedFrames).toBeGreaterThan(1000);
  expect(counted).toBe(droppedFrames);
  expect(dropLog.length).toBeLessThan(80);
});
