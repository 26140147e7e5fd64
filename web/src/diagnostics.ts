/**
 * Live TypeScript diagnostics as you type: each code cell's text goes (debounced) to the kernel's
 * `nighthawk.diagnostics` comm, which type-checks it against the declarations of the cells that ran,
 * without running it; the answer becomes Monaco markers. One comm per kernel connection.
 */
import type { Kernel } from '@jupyterlab/services';
import type { monaco as MonacoApi } from './monaco-setup.js';

export const DIAGNOSTICS_TARGET = 'nighthawk.diagnostics';
const OWNER = 'nighthawk-kernel';
const DELAY_MS = 500;

interface Diagnostic {
  line: number;
  character: number;
  message: string;
  code: number;
  severity: 'error' | 'warning';
}

/** Called once Monaco has loaded (monaco-loader.ts), with its API. */
export function registerLiveDiagnostics(monaco: typeof MonacoApi, kernel: () => Kernel.IKernelConnection | null): void {
  let comm: Kernel.IComm | undefined;
  let commKernel: Kernel.IKernelConnection | undefined;
  let nextId = 0;
  const pending = new Map<number, { model: MonacoApi.editor.ITextModel; version: number }>();
  const timers = new WeakMap<MonacoApi.editor.ITextModel, ReturnType<typeof setTimeout>>();

  const apply = (data: { request_id?: unknown; diagnostics?: unknown }): void => {
    const req = typeof data.request_id === 'number' ? pending.get(data.request_id) : undefined;
    if (!req || !Array.isArray(data.diagnostics)) return;
    pending.delete(data.request_id as number);
    const { model, version } = req;
    // An answer for text that has changed since is dropped; the newer request answers instead.
    if (model.isDisposed() || model.getVersionId() !== version) return;
    const markers = (data.diagnostics as Diagnostic[]).filter((d) => typeof d.line === 'number' && d.line < model.getLineCount()).map((d) => {
      const lineNumber = d.line + 1;
      const column = Math.min(d.character + 1, model.getLineMaxColumn(lineNumber));
      const word = model.getWordAtPosition({ lineNumber, column });
      return {
        severity: d.severity === 'warning' ? monaco.MarkerSeverity.Warning : monaco.MarkerSeverity.Error,
        message: String(d.message),
        code: String(d.code),
        startLineNumber: lineNumber,
        startColumn: word?.startColumn ?? column,
        endLineNumber: lineNumber,
        endColumn: word?.endColumn ?? model.getLineMaxColumn(lineNumber),
      };
    });
    monaco.editor.setModelMarkers(model, OWNER, markers);
    document.body.dataset.diagnosticsSeq = String(Number(document.body.dataset.diagnosticsSeq ?? 0) + 1);
  };

  const channel = (): Kernel.IComm | undefined => {
    const k = kernel();
    if (!k || k.isDisposed || k.connectionStatus !== 'connected') return undefined;
    if (comm && commKernel === k && !comm.isDisposed) return comm;
    commKernel = k;
    comm = k.createComm(DIAGNOSTICS_TARGET);
    comm.onMsg = (msg) => apply(msg.content.data as { request_id?: unknown; diagnostics?: unknown });
    comm.onClose = () => {
      comm = undefined;
    };
    comm.open({});
    return comm;
  };

  const check = (model: MonacoApi.editor.ITextModel): void => {
    if (model.isDisposed()) return;
    if (model.getLanguageId() !== 'typescript') return monaco.editor.setModelMarkers(model, OWNER, []);
    const c = channel();
    if (!c) return;
    const id = ++nextId;
    pending.set(id, { model, version: model.getVersionId() });
    c.send({ request_id: id, code: model.getValue() });
  };

  const watch = (model: MonacoApi.editor.ITextModel): void => {
    if (model.uri.scheme !== 'inmemory') return;
    model.onDidChangeContent(() => {
      const t = timers.get(model);
      if (t !== undefined) clearTimeout(t);
      timers.set(model, setTimeout(() => check(model), DELAY_MS));
    });
  };
  monaco.editor.onDidCreateModel(watch);
  for (const model of monaco.editor.getModels()) watch(model);
}
