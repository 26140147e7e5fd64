/** Starts server-child.ts (the notebook server in its own process) and drives it over IPC. */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServerOptions } from '../../kernel/src/server/index.js';
import type { FakeServerChildOptions } from './fake-server-child.js';

export interface ServerRequest {
  id: number;
  op: 'waitForSpare' | 'shutdownKernels' | 'close';
}

export interface ServerProcess {
  url: string;
  baseUrl: string;
  token: string;
  waitForSpare(): Promise<void>;
  shutdownKernels(): Promise<void>;
  close(): Promise<void>;
}

type FromChild = { kind: 'started'; url: string; baseUrl: string; token: string } | { kind: 'done'; id: number };

/**
 * Forks `script` (a TypeScript file beside this one, run with tsx) and resolves with the child once its first
 * IPC message arrives; rejects if it exits first. The child is killed when this process exits.
 */
async function forkUntilFirstMessage<T>(script: string, args: string[], what: string, env: NodeJS.ProcessEnv = process.env): Promise<{ child: ChildProcess; first: T }> {
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), script);
  const child = fork(file, args, { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env });
  process.once('exit', () => child.kill('SIGKILL'));
  const first = await new Promise<T>((resolve, reject) => {
    const early = (code: number | null): void => reject(new Error(`${what} exited with code ${code}`));
    child.once('exit', early);
    child.once('message', (message: T) => {
      child.off('exit', early);
      resolve(message);
    });
  });
  return { child, first };
}

function exited(child: ChildProcess): Promise<unknown> {
  return new Promise((resolve) => (child.exitCode === null && child.signalCode === null ? child.once('exit', resolve) : resolve(undefined)));
}

/** `env`: added to this process's environment for the server and its kernels. */
export async function startServerProcess(options: Omit<ServerOptions, 'log'>, env: Record<string, string> = {}): Promise<ServerProcess> {
  const { child, first: started } = await forkUntilFirstMessage<Extract<FromChild, { kind: 'started' }>>('server-child.ts', [JSON.stringify(options)], 'bench server process', { ...process.env, ...env });
  const waiting = new Map<number, () => void>();
  let next = 0;
  child.on('message', (message: FromChild) => {
    if (message.kind === 'done') waiting.get(message.id)?.();
  });
  const ask = (op: ServerRequest['op']): Promise<void> =>
    new Promise((resolve) => {
      const id = ++next;
      waiting.set(id, () => (waiting.delete(id), resolve()));
      child.send({ id, op } satisfies ServerRequest);
    });
  return {
    url: started.url,
    baseUrl: started.baseUrl,
    token: started.token,
    waitForSpare: () => ask('waitForSpare'),
    shutdownKernels: () => ask('shutdownKernels'),
    close: async () => {
      await ask('close');
      await exited(child);
    },
  };
}

/** Starts fake-server-child.ts (the test suite's fake Jupyter server, in its own process); `close` ends it. */
export async function startFakeServerProcess(options: FakeServerChildOptions): Promise<{ url: string; close(): Promise<void> }> {
  const { child, first } = await forkUntilFirstMessage<{ url: string }>('fake-server-child.ts', [JSON.stringify(options)], 'bench fake server process');
  return {
    url: first.url,
    close: async () => {
      const done = exited(child);
      child.disconnect();
      await done;
    },
  };
}
