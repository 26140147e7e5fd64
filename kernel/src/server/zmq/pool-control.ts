/** `nighthawk-ts kernel pool status|stop`: asks every daemon in this user's pool directory. */
import { readdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { kernelPoolDir, readLine, sendLine, type PoolReply, type PoolRequest } from './kernel-pool.js';

export interface PoolAnswer {
  socket: string;
  /** undefined: nothing answered (a daemon that died without removing its socket). */
  reply: PoolReply | undefined;
}

function ask(file: string, request: PoolRequest): Promise<PoolReply | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(file);
    socket.once('error', () => resolve(undefined));
    socket.once('connect', () => {
      sendLine(socket, request);
      void readLine(socket, 5000).then((value) => {
        socket.destroy();
        resolve(value as PoolReply | undefined);
      });
    });
  });
}

/** Every daemon socket in the pool directory, asked `request`. */
export async function askPools(request: PoolRequest, dir: string = kernelPoolDir()): Promise<PoolAnswer[]> {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.sock'));
  } catch {
    return [];
  }
  return Promise.all(names.map(async (name) => ({ socket: path.join(dir, name), reply: await ask(path.join(dir, name), request) })));
}

export function describePools(answers: readonly PoolAnswer[]): string {
  if (answers.length === 0) return `no kernel pool daemon in ${kernelPoolDir()}\n`;
  return answers
    .map(({ socket, reply }) => {
      if (reply?.kind !== 'status') return `${socket}: no answer\n`;
      const spares = reply.spares.map((s) => `  spare ${s.pid} ${s.state} in ${s.root}${s.dataDir ? ` (data dir ${s.dataDir})` : ''}\n`).join('');
      return `daemon ${reply.pid} (${socket}): ${reply.handedOut} kernel(s) handed out\n${spares || '  no spare\n'}`;
    })
    .join('');
}
