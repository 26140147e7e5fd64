/** Runs `scripts/start.sh` (what `npm start` runs) until it prints its URL, for tests and the start bench. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface StartRun {
  output: string;
  url: string;
  ms: number;
  stop(): Promise<void>;
}

/** Runs `bash scripts/start.sh` until it prints its URL; `stop` ends it and its kernels (its process group). */
export function startOnce(args: string[], scratch: string, timeoutMs = 600_000, env: NodeJS.ProcessEnv = process.env): Promise<StartRun> {
  const t0 = performance.now();
  const child: ChildProcess = spawn('bash', ['scripts/start.sh', '--no-open', '--spare-kernels', '0', '--notebook-dir', path.join(scratch, 'nb'), '--data-dir', path.join(scratch, 'data'), ...args], {
    cwd: root,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.pid === undefined) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, 'SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`npm start printed no URL in ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /Open: (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ output, url: match[1]!, ms: performance.now() - t0, stop });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited (${code}) before printing its URL:\n${output}`));
    });
  });
}

