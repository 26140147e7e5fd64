/** Starts server-child.ts (the notebook server in its own process) and drives it over IPC. */
import { fork } from 'node:child_process';
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

/** `env`: added to this process's environment for the server and its kernels. */
export async function startServerProcess(options: Omit<ServerOptions, 'log'>, env: Record<string, string> = {}): Promise<ServerProcess> {
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'server-child.ts');
  const child = fork(script, [JSON.stringify(options)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: { ...process.env, ...env } });
  process.once('exit', () => child.kill('SIGKILL'));
  const waiting = new Map<number, () => void>();
  let next = 0;
  const started = await new Promise<Extract<FromChild, { kind: 'started' }>>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench server process exited with code ${code}`)));
    child.on('message', (message: FromChild) => {
      if (message.kind === 'started') resolve(message);
      else waiting.get(message.id)?.();
    });
  });
  const ask = (op: ServerRequest['op']): Promise<void> =>
    new Promise((resolve) => {
      const id = ++next;
      waiting.set(id, () => (waiting.delete(id), resolve()));
      child.send({ id, op } satisfies ServerRequest);
    });
  return {
    ...started,
    waitForSpare: () => ask('waitForSpare'),
    shutdownKernels: () => ask('shutdownKernels'),
    close: async () => {
      await ask('close');
      await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(undefined)));
    },
  };
}

/** Starts fake-server-child.ts (the test suite's fake Jupyter server, in its own process); `close` ends it. */
export async function startFakeServerProcess(options: FakeServerChildOptions): Promise<{ url: string; close(): Promise<void> }> {
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fake-server-child.ts');
  const child = fork(script, [JSON.stringify(options)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  process.once('exit', () => child.kill('SIGKILL'));
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench fake server process exited with code ${code}`)));
    child.once('message', (message: { url: string }) => resolve(message.url));
  });
  return {
    url,
    close: async () => {
      const exited = new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(undefined)));
      child.disconnect();
      await exited;
    },
  };
}
