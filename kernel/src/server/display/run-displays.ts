/**
 * Streams ledger events of the Session into the running cell as display_data, one display per run,
 * updated in place (update_display_data by display_id) as executions and operations finish. The
 * run.end update is sent synchronously, so a cell's output always ends with the terminal status.
 */
import type { LedgerEvent, LedgerReader } from '../../harness/index.js';
import { NighthawkMime } from '../../../../shared/mime.js';
import type { KernelChannel } from '../kernel/index.js';
import { RunView } from './run-view.js';

export class RunDisplays {
  readonly #views = new Map<string, RunView>();
  readonly #dirty = new Set<string>();
  #scheduled = false;
  readonly #channel: () => KernelChannel | undefined;

  constructor(channel: () => KernelChannel | undefined) {
    this.#channel = channel;
  }

  /** Subscribes to a ledger; returns the unsubscribe function. */
  attach(ledger: LedgerReader): () => void {
    return ledger.subscribe((event) => this.apply(event));
  }

  apply(event: LedgerEvent): void {
    if (event.kind === 'run.entry') {
      const data = (event.data ?? {}) as { label?: unknown };
      const view = new RunView(event.runId, typeof data.label === 'string' ? data.label : 'run');
      this.#views.set(event.runId, view);
      this.#send(view, false);
      return;
    }
    const view = this.#views.get(event.runId);
    if (!view) return;
    if (!view.apply(event)) return;
    if (event.kind === 'trace.anomaly') {
      const data = (event.data ?? {}) as Record<string, unknown>;
      this.#show({ [NighthawkMime.traceAnomaly]: { anomalyKind: event.status ?? 'anomaly', message: view.anomalies.at(-1)?.message ?? '', runId: event.runId, ...(event.parentId ? { executionId: event.parentId } : {}) }, 'text/plain': `trace anomaly ${event.status}: ${JSON.stringify(data)}` });
    }
    if (event.kind === 'allocation.exhausted') {
      this.#show({ [NighthawkMime.allocationExhausted]: { resource: event.status ?? 'allocation', runId: event.runId }, 'text/plain': `allocation exhausted (${event.status}) in run ${event.runId}` });
    }
    if (event.kind === 'run.end') {
      this.#dirty.delete(event.runId);
      this.#send(view, true);
      this.#views.delete(event.runId);
      return;
    }
    this.#dirty.add(event.runId);
    if (!this.#scheduled) {
      this.#scheduled = true;
      queueMicrotask(() => this.#flush());
    }
  }

  #flush(): void {
    this.#scheduled = false;
    for (const runId of this.#dirty) {
      const view = this.#views.get(runId);
      if (view) this.#send(view, true);
    }
    this.#dirty.clear();
  }

  #send(view: RunView, update: boolean): void {
    this.#show({ [NighthawkMime.run]: view.payload(), 'text/plain': view.text() }, { displayId: `nh-run-${view.runId}`, update });
  }

  #show(bundle: Record<string, unknown>, options?: { displayId: string; update: boolean }): void {
    try {
      this.#channel()?.display(bundle, options);
    } catch {
      // No cell is running (background work): the ledger still holds every fact.
    }
  }
}
