// A publisher drops what it sends before a subscriber's subscription arrived (ZeroMQ's slow joiner). A warm
// kernel from the pool answers a client's first execute_request within milliseconds of binding, before the
// client's SUB socket may have finished connecting: the kernel holds iopub until the first subscription.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type * as Zmq from 'zeromq';
import { bindSockets } from '../../kernel/src/server/zmq/zmq-sockets.js';
import { freePort } from '../support/free-port.js';

const zmq = createRequire(import.meta.url)('zeromq') as typeof Zmq;

async function kernelSockets(iopubHoldMs?: number) {
  const ports = await Promise.all([0, 1, 2, 3, 4].map(() => freePort()));
  const info = { transport: 'tcp' as const, ip: '127.0.0.1', shell_port: ports[0]!, iopub_port: ports[1]!, stdin_port: ports[2]!, control_port: ports[3]!, hb_port: ports[4]!, key: 'k', signature_scheme: 'hmac-sha256' };
  return { sockets: await bindSockets(info, { iopubHoldMs }), iopub: `tcp://127.0.0.1:${ports[1]}` };
}

async function receiveWithin(socket: Zmq.Subscriber, ms: number): Promise<string[]> {
  const got: string[] = [];
  const deadline = Date.now() + ms;
  socket.receiveTimeout = ms;
  while (Date.now() < deadline) {
    try {
      const frames = await socket.receive();
      got.push(frames.map(String).join('|'));
    } catch {
      break;
    }
  }
  return got;
}

describe('iopub before the first subscriber', () => {
  it('messages published before any client subscribed reach the first subscriber, in order', async () => {
    const { sockets, iopub } = await kernelSockets();
    const sent = Promise.all([sockets.send('iopub', [Buffer.from('busy')]), sockets.send('iopub', [Buffer.from('result')]), sockets.send('iopub', [Buffer.from('idle')])]);
    const sub = new zmq.Subscriber({ linger: 0 });
    try {
      sub.subscribe();
      sub.connect(iopub);
      expect(await receiveWithin(sub, 1500)).toEqual(['busy', 'result', 'idle']);
      await sent;
    } finally {
      sub.close();
      await sockets.close();
    }
  });

  it('with no subscriber at all, the kernel is held only so long: its sends complete', async () => {
    const { sockets } = await kernelSockets(200);
    try {
      const started = Date.now();
      await sockets.send('iopub', [Buffer.from('nobody listens')]);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await sockets.close();
    }
  });
});
