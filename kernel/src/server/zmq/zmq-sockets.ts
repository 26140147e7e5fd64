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
/**
 * Longest a kernel holds iopub messages while no client has subscribed yet. A publisher drops what it sends
 * before the subscription arrives (ZeroMQ's slow joiner), and a warm kernel (the pool's) can answer a client's
 * first execute_request before that client's SUB socket finished its handshake: its busy, result and idle
 * would be lost and the client would wait for them forever.
 */
const IOPUB_HOLD_MS = 5000;

/**
 * Hands each message to the socket as soon as the socket takes it, in call order: zeromq.js sends
 * synchronously on its fast path (so output a synchronous cell prints leaves while the cell still runs),
 * but after 512 such sends it defers one and refuses (EBUSY) any other until that one completes. A refused
 * message waits for the deferred send's promise and is retried, never dropped.
 */
export class SendQueue {
  private readonly backlog: Array<{ frames: Buffer[]; done: () => void }> = [];
  private last: Promise<void> = Promise.resolve();
  private waiting = false;
  private failed: Error | undefined;
  constructor(private readonly socket: Zmq.Writable) {}

  send(frames: Buffer[]): Promise<void> {
    return new Promise<void>((done) => {
      this.backlog.push({ frames, done });
      if (!this.waiting) this.pump();
    });
  }

  // An interrupted synchronous cell is stopped wherever its JavaScript is (vm breakOnSigint), and output it
  // prints runs this code: so the item leaves the backlog before it is handed over (stopped in between, a
  // message is lost, never sent twice: a repeated signature makes jupyter_client refuse the channel), and the
  // resume is scheduled before `waiting` says so (stopped in between, the next send pumps; never a dead queue).
  private pump(): void {
    while (this.backlog.length > 0) {
      const item = this.backlog.shift()!;
      if (this.failed) {
        item.done();
        continue;
      }
      let sent: Promise<void>;
      try {
        sent = this.socket.send(item.frames);
      } catch (error) {
        if ((error as { code?: unknown }).code === 'EBUSY') {
          this.backlog.unshift(item);
          void this.last.then(() => {
            this.waiting = false;
            this.pump();
          });
          this.waiting = true;
          return;
        }
        this.fail(error as Error);
        item.done();
        continue;
      }
      this.last = sent.then(item.done, (error: unknown) => {
        this.fail(error as Error);
        item.done();
      });
    }
  }

  private fail(error: Error): void {
    // A closed socket at shutdown; reported once, and later messages are released rather than retried.
    if (!this.failed) process.stderr.write(`kernel: send failed: ${error.message}\n`);
    this.failed = error;
  }

  /** Resolves when every message queued so far has been sent (or released after a failure). */
  drained(): Promise<void> {
    if (this.backlog.length === 0) return this.last;
    const lastQueued = this.backlog.at(-1)!;
    return new Promise<void>((resolve) => {
      const done = lastQueued.done;
      lastQueued.done = () => {
        done();
        resolve();
      };
    });
  }
}

export interface KernelSockets {
  send(name: RouterName | 'iopub', frames: Buffer[]): Promise<void>;
  /** Calls `onFrames` for each message on shell, control and stdin until the sockets close. */
  receive(onFrames: (name: RouterName, frames: Buffer[]) => void): void;
  /** Waits for every queued send, then closes the sockets. */
  close(): Promise<void>;
}

export async function bindSockets(info: ConnectionInfo, options: { iopubHoldMs?: number } = {}): Promise<KernelSockets> {
  const routers: Record<RouterName, Zmq.Router> = {
    shell: new zmq.Router({ linger: 1000 }),
    control: new zmq.Router({ linger: 1000 }),
    stdin: new zmq.Router({ linger: 1000 }),
  };
  // XPUB: the same publisher, which also tells the kernel when a subscription arrives (see IOPUB_HOLD_MS).
  const iopub = new zmq.XPublisher({ linger: 1000, noDrop: true, sendHighWaterMark: IOPUB_HIGH_WATER_MARK });
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

  // iopub messages wait (in order) until the first subscription, or IOPUB_HOLD_MS: then they go to the queue.
  let held: Array<{ frames: Buffer[]; done: () => void }> | undefined = [];
  const release = (): void => {
    const waiting = held;
    held = undefined;
    clearTimeout(holdTimer);
    for (const { frames, done } of waiting ?? []) void queues.iopub.send(frames).then(done);
  };
  const holdTimer = setTimeout(release, options.iopubHoldMs ?? IOPUB_HOLD_MS);
  holdTimer.unref();
  void (async () => {
    try {
      // A subscription message starts with 1 (an unsubscription with 0).
      for await (const [frame] of iopub) if (frame?.[0] === 1) release();
    } catch {
      // closed
    }
  })();
  const sendIopub = (frames: Buffer[]): Promise<void> => {
    if (!held) return queues.iopub.send(frames);
    const waiting = held;
    return new Promise<void>((done) => waiting.push({ frames, done }));
  };

  void (async () => {
    // Heartbeat: echo every ping. Runs on the event loop, so a busy synchronous cell delays it (as in ipykernel).
    try {
      for await (const frames of hb) await hb.send(frames);
    } catch {
      // closed
    }
  })();

  return {
    send: (name, frames) => (name === 'iopub' ? sendIopub(frames) : queues[name].send(frames)),
    receive(onFrames) {
      for (const name of ['shell', 'control', 'stdin'] as const) {
        void (async () => {
          try {
            for await (const frames of routers[name]) {
              // One message that throws is that message's failure: left to end this loop, the channel would be deaf for good.
              try {
                onFrames(name, frames);
              } catch (error) {
                process.stderr.write(`kernel: a ${name} message failed: ${error instanceof Error ? error.message : typeof error}\n`);
              }
            }
          } catch (error) {
            if (!closed) process.stderr.write(`kernel: ${name} socket failed: ${(error as Error).message}\n`);
          }
        })();
      }
    },
    async close() {
      release();
      await Promise.all(Object.values(queues).map((q) => q.drained()));
      closed = true;
      for (const socket of [...Object.values(routers), iopub, hb]) socket.close();
    },
  };
}
