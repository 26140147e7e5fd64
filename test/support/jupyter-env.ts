/** Environment that points Jupyter's Python tools at directories under `dir`, away from the user's own. */
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';

export function isolatedJupyterEnv(dir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    JUPYTER_PATH: path.join(dir, 'prefix', 'share', 'jupyter'),
    JUPYTER_RUNTIME_DIR: path.join(dir, 'runtime'),
    JUPYTER_DATA_DIR: path.join(dir, 'data'),
    JUPYTER_CONFIG_DIR: path.join(dir, 'config'),
    PYDEVD_DISABLE_FILE_VALIDATION: '1',
    ...extra,
  };
}

/**
 * Resolves once a Jupyter server process prints that it is serving, with a reader of everything it printed
 * (kept up to date); rejects with its output if it exits first.
 */
export function untilServing(child: ChildProcess, name: string): Promise<() => string> {
  let output = '';
  return new Promise<() => string>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (/is running at/.test(output)) resolve(() => output);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}) before serving:\n${output}`)));
  });
}
