/**
 * Drives tslab's own ZeroMQ Jupyter kernel (the benchmark baseline): writes a connection file, spawns
 * `tslab kernel`, and speaks wire protocol 5.3 with HMAC-SHA256 signatures over shell and iopub sockets.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import type * as Zmq from 'zeromq';
import { freePort } from './free-port.js';

const zmq = createRequire(import.meta.url)('zeromq') as typeof Zmq;

interface Reply {
  header: { msg_type: string; msg_id: string };
  parent_header: { msg_id?: string };
  content: Record<string, unknown>;
}

export class TslabZmqKernel {
  private readonly session = randomUUID();
  private readonly shell = new zmq.Dealer();
  private readonly iopub = new zmq.Subscriber();
  private readonly waiters = new Map<string, { reply?: Reply; idle: boolean; resolve: (reply: Reply) => void }>();
  private constructor(
    private readonly child: ChildProcess,
    private readonly dir: string,
    private readonly key: string,
  ) {}

  static async start(cwd: string): Promise<TslabZmqKernel> {
    const dir = mkdtempSync(path.join(tmpdir(), 'tslab-bench-'));
    const ports = { shell: await freePort(), iopub: await freePort(), stdin: await freePort(), control: await freePort(), hb: await freePort() };
    const key = randomUUID();
    const config = {
      transport: 'tcp',
      ip: '127.0.0.1',
      shell_port: ports.shell,
      iopub_port: ports.iopub,
      stdin_port: ports.stdin,
      control_port: ports.control,
      hb_port: ports.hb,
      key,
      signature_scheme: 'hmac-sha256',
    };
    const file = path.join(dir, 'connection.json');
    writeFileSync(file, JSON.stringify(config));
    const bin = createRequire(import.meta.url).resolve('tslab/bin/tslab');
    const child = spawn(process.execPath, [bin, 'kernel', '--config-path', file], { cwd, stdio: 'ignore' });
    // A benchmark that dies or is timed out must not leave the kernel running.
    const reap = (): void => {
      child.kill('SIGKILL');
    };
    process.once('exit', reap);
    child.once('exit', () => process.off('exit', reap));
    const kernel = new TslabZmqKernel(child, dir, key);
    kernel.shell.connect(`tcp://127.0.0.1:${ports.shell}`);
    kernel.iopub.connect(`tcp://127.0.0.1:${ports.iopub}`);
    kernel.iopub.subscribe();
    void kernel.pump();
    return kernel;
  }

  private sign(parts: string[]): string {
    const hmac = createHmac('sha256', this.key);
    for (const part of parts) hmac.update(part);
    return hmac.digest('hex');
  }

  private parse(frames: Buffer[]): Reply {
    const at = frames.findIndex((f) => f.toString() === '<IDS|MSG>');
    const [header, parent, , content] = frames.slice(at + 2, at + 6).map((f) => JSON.parse(f.toString()) as unknown);
    return { header, parent_header: parent, content } as Reply;
  }

  private async pump(): Promise<void> {
    const shellLoop = (async () => {
      for await (const frames of this.shell) {
        const reply = this.parse(frames as Buffer[]);
        const waiter = this.waiters.get(reply.parent_header.msg_id ?? '');
        if (!waiter) continue;
        waiter.reply = reply;
        if (waiter.idle) waiter.resolve(reply);
      }
    })();
    const iopubLoop = (async () => {
      for await (const frames of this.iopub) {
        const msg = this.parse(frames as Buffer[]);
        if (msg.header.msg_type !== 'status' || msg.content['execution_state'] !== 'idle') continue;
        const waiter = this.waiters.get(msg.parent_header.msg_id ?? '');
        if (!waiter) continue;
        waiter.idle = true;
        if (waiter.reply) waiter.resolve(waiter.reply);
      }
    })();
    const results = await Promise.allSettled([shellLoop, iopubLoop]);
    for (const r of results) if (r.status === 'rejected') process.stderr.write(`tslab zmq loop ended: ${String(r.reason)}\n`);
  }

  /** Sends a shell request; resolves with the reply once iopub also reported idle for it. */
  async request(msgType: string, content: Record<string, unknown>, waitIdle = true): Promise<Reply> {
    const header = { msg_id: randomUUID(), msg_type: msgType, username: 'bench', session: this.session, date: new Date().toISOString(), version: '5.3' };
    const parts = [JSON.stringify(header), '{}', '{}', JSON.stringify(content)];
    const done = new Promise<Reply>((resolve) => this.waiters.set(header.msg_id, { idle: !waitIdle, resolve }));
    await this.shell.send(['<IDS|MSG>', this.sign(parts), ...parts]);
    const reply = await done;
    this.waiters.delete(header.msg_id);
    return reply;
  }

  /** The kernel's process id (benchmarks read its resident memory). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  close(): void {
    this.child.kill('SIGKILL');
    this.shell.close();
    this.iopub.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
