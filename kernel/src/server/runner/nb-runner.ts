/**
 * The headless notebook runner: starts the real kernel server in-process (127.0.0.1, port 0, a fresh
 * token, the built library's Session host), opens a kernel per notebook through @jupyterlab/services,
 * the same client library the web notebook uses, and executes every code cell in order. Execution stops
 * at the first failing cell; later cells keep no outputs. The executed notebook is returned (and written
 * by the caller), so CI and tests see exactly what a person would see in the browser.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { KernelManager, ServerConnection, type Kernel } from '@jupyterlab/services';
import WebSocket from 'ws';
import { builtHostModule, ensureBuilt, packageRoot } from './nb-build.js';
import { OutputCollector, firstLine, readNotebook, sourceText, type NotebookCell, type NotebookDocument, type NotebookOutput } from './nb-format.js';
import { startServer, type NighthawkServer } from '../api/index.js';

export interface CellReport {
  /** Position among all cells (markdown included), 0-based: the index the notebook file uses. */
  readonly index: number;
  /** 1-based position among code cells, for `[n/total]` progress. */
  readonly codeNumber: number;
  readonly codeTotal: number;
  readonly cellId: string;
  readonly firstLine: string;
  readonly status: 'ok' | 'error';
  readonly durationMs: number;
  readonly error?: { readonly ename: string; readonly evalue: string };
}

export interface NotebookRunResult {
  readonly path: string;
  readonly notebook: NotebookDocument;
  /** Reports of the cells that ran, in order; the last one is the failure when there is one. */
  readonly cells: readonly CellReport[];
  readonly failed: CellReport | undefined;
  readonly durationMs: number;
}

export interface RunNotebookOptions {
  /** Called after each code cell (the CLI prints progress from it). */
  readonly onCell?: (report: CellReport) => void;
  /** A cell running longer than this is interrupted and fails. Default 120 s. */
  readonly cellTimeoutMs?: number;
  /** Keep running after a failing cell, as nbconvert's --allow-errors does; `failed` is still the first. */
  readonly allowErrors?: boolean;
}

export interface NotebookRunnerOptions {
  /** Build the library first when dist is missing or older than the sources (default true). */
  readonly build?: boolean;
  /** Kernel processes kept warm (1 helps run-all start the next notebook's kernel early). */
  readonly spareKernels?: number;
  readonly log?: (line: string) => void;
}

export interface NotebookRunner {
  readonly server: NighthawkServer;
  run(file: string, options?: RunNotebookOptions): Promise<NotebookRunResult>;
  close(): Promise<void>;
}

export async function startNotebookRunner(options: NotebookRunnerOptions = {}): Promise<NotebookRunner> {
  const log = options.log ?? ((line: string) => process.stderr.write(line + '\n'));
  const root = packageRoot();
  if (options.build !== false) ensureBuilt(log, root);
  // The runner never reads or writes through the contents API; an empty directory keeps it that way.
  const sandbox = mkdtempSync(path.join(tmpdir(), 'nighthawk-nb-'));
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    notebookDir: sandbox,
    kernelCwd: root,
    hostModule: builtHostModule(root),
    spareKernels: options.spareKernels ?? 0,
    log: (line) => log(`server: ${line}`),
  });
  const settings = ServerConnection.makeSettings({
    baseUrl: server.baseUrl,
    wsUrl: server.wsUrl,
    token: server.token,
    appendToken: true,
    WebSocket: WebSocket as unknown as typeof globalThis.WebSocket,
    fetch: globalThis.fetch,
    // The server refuses state-changing requests without a JSON content type (a string body alone is text/plain).
    init: { credentials: 'same-origin', headers: { 'Content-Type': 'application/json' } },
  });
  const kernels = new KernelManager({ serverSettings: settings });
  return {
    server,
    async run(file, runOptions = {}) {
      const notebook = readNotebook(file);
      const kernel = await kernels.startNew({ name: 'nighthawk' });
      try {
        await kernel.info;
        return await executeNotebook(kernel, path.resolve(file), notebook, runOptions);
      } finally {
        await kernel.shutdown().catch(() => undefined);
        kernel.dispose();
      }
    },
    async close() {
      kernels.dispose();
      await server.close();
      rmSync(sandbox, { recursive: true, force: true });
    },
  };
}

/** Runs one notebook with a runner of its own, closed afterwards. */
export async function runNotebook(file: string, options: RunNotebookOptions & NotebookRunnerOptions = {}): Promise<NotebookRunResult> {
  const runner = await startNotebookRunner(options);
  try {
    return await runner.run(file, options);
  } finally {
    await runner.close();
  }
}

async function executeNotebook(kernel: Kernel.IKernelConnection, file: string, notebook: NotebookDocument, options: RunNotebookOptions): Promise<NotebookRunResult> {
  const started = Date.now();
  const code = notebook.cells.map((cell, index) => ({ cell, index })).filter(({ cell }) => cell.cell_type === 'code');
  const reports: CellReport[] = [];
  let failed: CellReport | undefined;
  for (const [n, { cell, index }] of code.entries()) {
    if (failed && !options.allowErrors) {
      cell.outputs = [];
      cell.execution_count = null;
      continue;
    }
    const report = await executeCell(kernel, cell, { index, codeNumber: n + 1, codeTotal: code.length }, options.cellTimeoutMs ?? 120_000, !options.allowErrors);
    reports.push(report);
    options.onCell?.(report);
    if (report.status === 'error') failed ??= report;
  }
  return { path: file, notebook, cells: reports, failed, durationMs: Date.now() - started };
}

async function executeCell(
  kernel: Kernel.IKernelConnection,
  cell: NotebookCell,
  position: { index: number; codeNumber: number; codeTotal: number },
  timeoutMs: number,
  stopOnError: boolean,
): Promise<CellReport> {
  const started = Date.now();
  const collector = new OutputCollector();
  // No one can answer input requests headless: operatorApproval and friends fail closed.
  const future = kernel.requestExecute({ code: sourceText(cell), allow_stdin: false, stop_on_error: stopOnError, store_history: true });
  future.onIOPub = (msg) => collector.handle(msg);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void kernel.interrupt().catch(() => undefined);
  }, timeoutMs);
  let status: 'ok' | 'error' = 'error';
  try {
    const reply = await future.done;
    status = reply.content.status === 'ok' ? 'ok' : 'error';
    cell.execution_count = typeof reply.content.execution_count === 'number' ? reply.content.execution_count : null;
  } catch (error) {
    collector.outputs.push({ output_type: 'error', ename: 'KernelError', evalue: error instanceof Error ? error.message : String(error), traceback: [] });
  } finally {
    clearTimeout(timer);
  }
  if (timedOut) {
    status = 'error';
    collector.outputs.push({ output_type: 'error', ename: 'CellTimeout', evalue: `the cell ran longer than ${timeoutMs} ms and was interrupted`, traceback: [] });
  }
  cell.outputs = collector.outputs;
  const error = collector.outputs.find((o): o is Extract<NotebookOutput, { output_type: 'error' }> => o.output_type === 'error');
  return {
    ...position,
    cellId: cell.id,
    firstLine: firstLine(cell),
    status,
    durationMs: Date.now() - started,
    ...(status === 'error' ? { error: { ename: error?.ename ?? 'Error', evalue: error?.evalue ?? 'the cell failed' } } : {}),
  };
}
