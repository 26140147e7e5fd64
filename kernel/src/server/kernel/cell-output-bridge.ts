/**
 * Output calls cells make without importing this library: tslab's display API (`import * as tslab from
 * "tslab"`; `tslab.display.html(…)`, `tslab.newDisplay()`) and `console.clear()`, which clears the cell's
 * output (a `clear_output` message) instead of printing terminal escapes into it. tslab's `display` writes
 * through a hook its own ZeroMQ kernel sets; we set that hook to the running kernel's channel, so existing
 * tslab notebooks run unchanged. Code inside a run may not clear the cell (it would erase the run's inline view).
 */
import { createRequire } from 'node:module';
import type { MimeBundle } from '../../../../shared/index.js';
import type { DisplayOptions } from './kernel-host.js';
import { coreOnlyModelCode, insideHostFrame } from '../../harness/index.js';
import { operatorOnly } from '../../session/index.js';
import { ownBundle } from './value-bundle.js';

export interface CellOutputTarget {
  display(bundle: MimeBundle, options?: DisplayOptions): void;
  clearOutput(wait: boolean): void;
}

interface TslabDisplayData {
  data: MimeBundle;
  metadata?: Record<string, unknown>;
  transient?: { display_id?: string };
}

interface TslabJupyterModule {
  lastWriteDisplayData: ((data: TslabDisplayData, update: boolean) => void) | null;
}

/** Installs both hooks for this process; later calls replace the target. */
export function installCellOutputBridge(target: CellOutputTarget): void {
  const load = createRequire(import.meta.url);
  const tslab = load(load.resolve('tslab/dist/jupyter')) as TslabJupyterModule;
  tslab.lastWriteDisplayData = (displayData, update) => {
    const displayId = displayData.transient?.display_id;
    // From a run's code (tslab reached as a granted reference) a bundle is read as a cell value's is: plain data,
    // and no project MIME type (a forged run view, refusal or approval card), the attempt recorded.
    const fromRun = insideHostFrame() || coreOnlyModelCode();
    const data = fromRun ? ownBundle(displayData.data) : displayData.data;
    if (data === undefined) return;
    target.display(data, displayId === undefined ? {} : { displayId, update });
  };
  console.clear = () => {
    // The cell's output holds its runs' inline views (refusals, terminal status): code inside a run (a model's
    // expression, generated code) may not erase them. Recorded, and refused like any operator control.
    operatorOnly('console.clear');
    target.clearOutput(false);
  };
}
