/**
 * The five kernel sockets. Every send is awaited, and sends on one socket are chained so they leave in call
 * order and never overlap (zeromq.js refuses a send while another is in flight; an unawaited send is how
 * tslab loses iopub messages). The publisher runs with ZMQ_XPUB_NODROP and a deep queue: a slow subscriber
 * slows the kernel down instead of silently losing output.
 */
import { createRequire } from 'node:module';
import type * as Zmq from 'zeromq';
import { endpoint, type ConnectionInfo } from './connection-file.js';

// zeromq ships CommonJS; loading it through require keeps the native addon off the ESM loader's path.
const zmq = createRequire(import.meta.url)('zeromq') as typeof Zmq;

export type RouterName = 'shell' | 'control' | 'stdin';

const IOPUB_HIGH_WATER_MARK = 100_000;

class SendQueue {
  private tail: Promise<void> = Promise.resolve();
  private failed: Error | undefined;
  constructor(private readonly socket: Zmq.Writable) {}

  send(frames: Buffer[]): Promise<void> {
    const next = this.tail.then(async () => {
      if (this.failed) return;
      try {
        await this.socket.send(frames);
      } catch (error) {
        // A closed socket at shutdown; anything else is reported once and the queue keeps draining.
        this.failed = error as Error;
        process.stderr.write(`kernel: send failed: ${(error as Error).message}\n`);
      }
    });
    this.tail = next;
    return next;
  }

  drained(): Promise<void> {
    return this.tail;
  }
}

export interface KernelSockets {
  send(name: RouterName | 'iopub', frames: Buffer[]): Promise<void>;
  /** Calls `onFrames` for each message on shell, control and stdin until the sockets close. */
  receive(onFrames: (name: RouterName, frames: Buffer[]) => void): void;
  /** Waits for every queued send, then closes the sockets. */
  close(): Promise<void>;
}

export async function bindSockets(info: ConnectionInfo): Promise<KernelSockets> {
  const routers: Record<RouterName, Zmq.Router> = {
    shell: new zmq.Router({ linger: 1000 }),
    control: new zmq.Router({ linger: 1000 }),
    stdin: new zmq.Router({ linger: 1000 }),
  };
  const iopub = new zmq.Publisher({ linger: 1000, noDrop: true, sendHighWaterMark: IOPUB_HIGH_WATER_MARK });
  const hb = new zmq.Reply({ linger: 0 });
  await Promise.all([
    routers.shell.bind(endpoint(info, 'shell')),
    routers.control.bind(endpoint(info, 'control')),
    routers.stdin.bind(endpoint(info, 'stdin')),
    iopub.bind(endpoint(info, 'iopub')),
    hb.bind(endpoint(info, 'hb')),
  ]);
  const queues = {
    shell: new SendQueue(routers.shell),
    control: new SendQueue(routers.control),
    stdin: new SendQueue(routers.stdin),
    iopub: new SendQueue(iopub),
  };
  let closed = false;

  void (async () => {
    // Heartbeat: echo every ping. Runs on the event loop, so a busy synchronous cell delays it (as in ipykernel).
    try {
      for await (const frames of hb) await hb.send(frames);
    } catch {
      // closed
    }
  })();

  return {
    send: (name, frames) => queues[name].send(frames),
    receive(onFrames) {
      for (const name of ['shell', 'control', 'stdin'] as const) {
        void (async () => {
          try {
            for await (const frames of routers[name]) onFrames(name, frames);
          } catch (error) {
            if (!closed) process.stderr.write(`kernel: ${name} socket failed: ${(error as Error).message}\n`);
          }
        })();
      }
    },
    async close() {
      await Promise.all(Object.values(queues).map((q) => q.drained()));
      closed = true;
      for (const socket of [...Object.values(routers), iopub, hb]) socket.close();
    },
  };
}
