import vm from 'node:vm';
import { describe, expect, test } from 'vitest';
import type * as Zmq from 'zeromq';
import { SendQueue } from '../../kernel/src/server/zmq/zmq-sockets.js';

/**
 * A socket that takes each message, then (for the first one) keeps JavaScript busy inside its send, the way a
 * synchronous cell that prints is busy when an interrupt stops it (vm breakOnSigint terminates wherever the
 * JavaScript is). Here a vm timeout does the stopping, at a point that does not depend on timing.
 */
function stallingSocket(): { socket: Zmq.Writable; taken: string[] } {
  const taken: string[] = [];
  const socket = {
    send(frames: Buffer[]): Promise<void> {
      taken.push(frames.map(String).join('|'));
      if (taken.length === 1) for (;;) vm.runInThisContext(''); // stopped here by the timeout below
      return Promise.resolve();
    },
  } as unknown as Zmq.Writable;
  return { socket, taken };
}

describe('the ZeroMQ send queue, stopped mid-send', () => {
  test('a message taken by the socket before the stop is never handed over again (jupyter_client refuses a repeated signature)', async () => {
    const { socket, taken } = stallingSocket();
    const queue = new SendQueue(socket);
    const run = (globalThis as Record<string, unknown>);
    run['nhQueue'] = queue;
    run['nhFrames'] = [Buffer.from('first')];
    expect(() => vm.runInThisContext('void nhQueue.send(nhFrames)', { timeout: 50 })).toThrow(/timed out/);
    // The queue goes on: the next message leaves, and the first does not leave a second time.
    await queue.send([Buffer.from('second')]);
    await queue.drained();
    expect(taken).toEqual(['first', 'second']);
    delete run['nhQueue'];
    delete run['nhFrames'];
  });
});
