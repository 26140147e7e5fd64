/**
 * Streams ledger events of the Session into the running cell as display_data, one display per run,
 * updated in place (update_display_data by display_id) as executions and operations finish. The
 * run.end update is sent synchronously, so a cell's output always ends with the terminal status.
 * While a run is in progress, what the process prints goes into that run's view in time order
 * (between the operations it happened between) instead of below the finished view.
 */
import type { LedgerEvent, LedgerReader } from '../../harness/index.js';
import { NighthawkMime } from '../../../../shared/mime.js';
import type { KernelChannel } from '../kernel/index.js';
import { oneLine } from './plain-text.js';
import { anomalyLineText, RunView, type AnomalyLine } from './run-view.js';

export class RunDisplays {
  readonly #views = new Map<string, RunView>();
  /** Failed executions whose error a run view showed (newest last, bounded): a cell error then only points at it. */
  readonly #shownFailures = new Map<string, { functionName: string; stepId: string; errorName: string }>();
  readonly #dirty = new Set<string>();
  /** Anomaly lines changed since their display was last sent (RunView.anomalyLine), with their run. */
  readonly #changedLines = new Map<AnomalyLine, string>();
  #scheduled = false;
  readonly #channel: () => KernelChannel | undefined;
  /** Restores process.stdout/stderr.write; set while a run view is live. */
  #releaseStreams: (() => void) | undefined;

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
      this.#captureStreams();
      return;
    }
    const view = this.#views.get(event.runId);
    if (!view) return;
    if (!view.apply(event)) return;
    if (event.kind === 'execution.end' && this.#channel()) this.#noteFailure(view, event.subjectId);
    if (event.kind === 'trace.anomaly') this.#showAnomaly(view, event);
    if (event.kind === 'allocation.exhausted') {
      this.#show({ [NighthawkMime.allocationExhausted]: { resource: event.status ?? 'allocation', runId: event.runId }, 'text/plain': oneLine(`allocation exhausted (${event.status}) in run ${event.runId}`) });
    }
    if (event.kind === 'run.end') {
      this.#dirty.delete(event.runId);
      for (const [line, runId] of this.#changedLines) if (runId === event.runId) this.#sendLine(line, runId);
      this.#send(view, true);
      this.#views.delete(event.runId);
      if (this.#views.size === 0) this.#releaseStreams?.();
      return;
    }
    this.#markDirty(event.runId);
  }

  /**
   * One display per run, kind and parent (the run view's anomaly line), updated in place with the count: a loop of
   * refused writes would otherwise add a row, an alert in the web notebook, per anomaly. The first shows at once and
   * as before, without a count; later ones update it once per microtask, as run views are, so a loop sends one
   * update, not one per anomaly (each would re-render the row and its alert). Its text/plain is the run view's line.
   */
  #showAnomaly(view: RunView, event: LedgerEvent): void {
    const line = view.anomalyLine(event.status ?? 'anomaly', event.parentId);
    if (!line) return;
    if (line.firstSequence === event.sequence) return this.#sendLine(line, event.runId, false);
    this.#changedLines.set(line, event.runId);
    this.#schedule();
  }

  #sendLine(line: AnomalyLine, runId: string, update = true): void {
    this.#changedLines.delete(line);
    const payload = { anomalyKind: line.anomalyKind, message: line.message, runId, ...(line.executionId ? { executionId: line.executionId } : {}), ...(line.count > 1 ? { count: line.count } : {}) };
    this.#show({ [NighthawkMime.traceAnomaly]: payload, 'text/plain': anomalyLineText(line) }, { displayId: `nh-anomaly-${runId}-${line.firstSequence}`, update });
  }

  /** The failure of `executionId` as a run view showed it, if one did. */
  shownFailure(executionId: string): { functionName: string; stepId: string; errorName: string } | undefined {
    return this.#shownFailures.get(executionId);
  }

  #noteFailure(view: RunView, executionId: string): void {
    const failure = view.failureOf(executionId);
    if (!failure) return;
    this.#shownFailures.set(executionId, { functionName: view.functionName, ...failure });
    if (this.#shownFailures.size > 256) this.#shownFailures.delete(this.#shownFailures.keys().next().value!);
  }

  #markDirty(runId: string): void {
    this.#dirty.add(runId);
    this.#schedule();
  }

  #schedule(): void {
    if (!this.#scheduled) {
      this.#scheduled = true;
      queueMicrotask(() => this.#flush());
    }
  }

  /**
   * Wraps the process's stdout/stderr writes (the kernel's own capture, already installed) so text
   * printed during a run lands in the newest live run view. Without a channel (no cell running) the
   * text goes where it always went.
   */
  #captureStreams(): void {
    if (this.#releaseStreams) return;
    const restore: Array<() => void> = [];
    for (const name of ['stdout', 'stderr'] as const) {
      const stream = process[name];
      const previous = stream.write;
      const wrapped = ((chunk: string | Uint8Array, encoding?: unknown, callback?: unknown): boolean => {
        const view = [...this.#views.values()].at(-1);
        if (view && this.#channel()) {
          const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
          if (view.stream(name, text)) {
            this.#markDirty(view.runId);
            const done = typeof encoding === 'function' ? encoding : callback;
            if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
            return true;
          }
        }
        return (previous as (...args: unknown[]) => boolean).call(stream, chunk, encoding, callback);
      }) as typeof stream.write;
      stream.write = wrapped;
      restore.push(() => {
        // Only undo our own wrapper: something installed later keeps its place.
        if (stream.write === wrapped) stream.write = previous;
      });
    }
    this.#releaseStreams = () => {
      this.#releaseStreams = undefined;
      for (const r of restore) r();
    };
  }

  #flush(): void {
    this.#scheduled = false;
    for (const [line, runId] of this.#changedLines) this.#sendLine(line, runId);
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
