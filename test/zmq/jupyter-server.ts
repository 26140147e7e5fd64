/**
 * Debian's jupyter-server (1.23) on 127.0.0.1 with a token, serving the repository, with the test kernelspec
 * on its JUPYTER_PATH. Ready when it logs the URL it serves; stopped with SIGTERM (it shuts its kernels down).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { ServerConnection } from '@jupyterlab/services';
import WebSocket from 'ws';
import { PYTHON, root, type JupyterEnv } from './zmq-fixture.js';
import { freePort } from '../support/free-port.js';
import { untilServing } from '../support/jupyter-env.js';

export interface JupyterServer {
  baseUrl: string;
  token: string;
  settings: ServerConnection.ISettings;
  log(): string;
  stop(): Promise<void>;
}

export async function startJupyterServer(jupyter: JupyterEnv): Promise<JupyterServer> {
  const port = await freePort();
  const token = randomBytes(16).toString('hex');
  const args = ['-m', 'jupyter_server', '--ServerApp.ip=127.0.0.1', `--ServerApp.port=${port}`, '--ServerApp.port_retries=0', `--ServerApp.token=${token}`, '--ServerApp.open_browser=False', `--ServerApp.root_dir=${root}`];
  if (process.getuid?.() === 0) args.push('--allow-root');
  const child: ChildProcess = spawn(PYTHON, args, { env: jupyter.env, cwd: jupyter.dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = await untilServing(child, 'jupyter-server');
  const baseUrl = `http://127.0.0.1:${port}/`;
  const settings = ServerConnection.makeSettings({
    baseUrl,
    wsUrl: `ws://127.0.0.1:${port}/`,
    token,
    appendToken: true,
    WebSocket: WebSocket as unknown as typeof globalThis.WebSocket,
    fetch: globalThis.fetch,
  });
  return {
    baseUrl,
    token,
    settings,
    log: output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
