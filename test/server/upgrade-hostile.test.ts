/**
 * Attack: the WebSocket upgrade path runs in a synchronous 'upgrade' listener on a socket Node has already
 * handed over (its own error listener removed), so anything that throws there, or any socket error after it,
 * is an uncaught exception that ends the whole server, with every kernel. Anyone who can reach the port can
 * try, without the token: an upgrade whose request target is not a parsable URL (`GET //[`), or one that
 * resets the connection while its 403 is written. With the token, a kernel id with broken percent-encoding
 * did the same. Each must be answered (or dropped) while the server keeps serving.
 */
import net from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startKernelServer, type KernelServerFixture } from '../support/kernel-server.js';

let fx: KernelServerFixture;
const uncaught: unknown[] = [];
const onUncaught = (error: unknown): void => {
  uncaught.push(error);
};

beforeAll(async () => {
  process.on('uncaughtException', onUncaught);
  fx = await startKernelServer({ spareKernels: 0 });
});

afterAll(async () => {
  process.off('uncaughtException', onUncaught);
  await fx?.close();
});

const upgradeRequest = (target: string): string =>
  `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${fx.server.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
  'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n';

/** Sends raw bytes and returns what came back before the server closed (or 2 s passed). */
function raw(text: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(fx.server.port, '127.0.0.1');
    let out = '';
    const timer = setTimeout(() => socket.destroy(), 2000);
    socket.on('data', (chunk) => (out += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(out);
    });
    socket.write(text);
  });
}

async function serverAnswers(): Promise<number> {
  const res = await fetch(`${fx.server.baseUrl}api/status`, { headers: { Authorization: `token ${fx.server.token}` } });
  return res.status;
}

test('an upgrade whose request target is not a URL is refused with 400 and the server keeps serving', async () => {
  const answer = await raw(upgradeRequest('//['));
  expect(answer).toMatch(/^HTTP\/1\.1 400 /);
  expect(uncaught).toEqual([]);
  expect(await serverAnswers()).toBe(200);
});

test('an upgrade with the token and a kernel id with broken percent-encoding is a 404, not a crash', async () => {
  const answer = await raw(upgradeRequest(`/api/kernels/%E0%A4%A/channels?token=${fx.server.token}`));
  expect(answer).toMatch(/^HTTP\/1\.1 404 /);
  expect(uncaught).toEqual([]);
  expect(await serverAnswers()).toBe(200);
});

test('upgrades without the token that reset the connection (before or after the 403) do not end the server', async () => {
  const resets = Array.from(
    { length: 40 },
    (_, i) =>
      new Promise<void>((resolve) => {
        const socket = net.connect(fx.server.port, '127.0.0.1');
        socket.on('error', () => undefined);
        socket.on('close', () => resolve());
        socket.on('connect', () => {
          socket.write(upgradeRequest('/api/kernels/x/channels'));
          // Half reset at once (the 403 meets a reset socket), half after reading it (the held socket resets).
          if (i % 2 === 0) socket.resetAndDestroy();
          else socket.once('data', () => setTimeout(() => socket.resetAndDestroy(), 20));
        });
      }),
  );
  await Promise.all(resets);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(uncaught).toEqual([]);
  expect(await serverAnswers()).toBe(200);
});

test('a plain request whose target is not a URL is a 400 carrying the security headers, not a 500', async () => {
  const answer = await raw(`GET //[ HTTP/1.1\r\nHost: 127.0.0.1:${fx.server.port}\r\nConnection: close\r\n\r\n`);
  expect(answer).toMatch(/^HTTP\/1\.1 400 /);
  expect(answer).toMatch(/\r\nX-Content-Type-Options: nosniff\r\n/i);
  expect(answer).toMatch(/\r\nContent-Security-Policy: /i);
});
