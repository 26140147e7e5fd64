/**
 * Idle kernel culling (Jupyter's `cull_idle_timeout`): each kernel process holds a Session and a compiler
 * (~200 MB), and visiting notebooks starts one each, so kernels nobody used for `idleMs` are shut down.
 * Busy or starting kernels are never culled; kernels with an open connection only with `cullConnected`.
 */
import type { KernelManager } from './kernel-manager.js';

export interface CullOptions {
  idleMs: number;
  /** How often to look; defaults to a tenth of `idleMs`, between 1 s and 60 s. */
  intervalMs?: number;
  cullConnected?: boolean;
  log?: (line: string) => void;
  now?: () => number;
}

/** Starts culling; returns a function that stops it. `idleMs <= 0` disables culling. */
export function cullIdleKernels(manager: KernelManager, options: CullOptions): () => void {
  if (!(options.idleMs > 0)) return () => {};
  const now = options.now ?? Date.now;
  const interval = options.intervalMs ?? Math.min(60_000, Math.max(1000, Math.floor(options.idleMs / 10)));
  const timer = setInterval(() => {
    for (const kernel of manager.list()) {
      const model = kernel.model();
      if (model.execution_state !== 'idle' && model.execution_state !== 'dead') continue;
      if (model.connections > 0 && !options.cullConnected) continue;
      const idleFor = now() - Date.parse(model.last_activity);
      if (idleFor < options.idleMs) continue;
      void manager.shutdown(model.id).then((done) => {
        if (done) options.log?.(`culled kernel ${model.id}: idle for ${Math.round(idleFor / 1000)} s`);
      });
    }
  }, interval);
  timer.unref();
  return () => clearInterval(timer);
}
