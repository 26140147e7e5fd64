/** Environment that points Jupyter's Python tools at directories under `dir`, away from the user's own. */
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
