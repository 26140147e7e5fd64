/**
 * nbformat 4.5 for the headless runner: reading a notebook (every cell gets an id), folding a cell's
 * iopub messages into nbformat outputs (update_display_data replaces the outputs with its display_id,
 * as Jupyter frontends do), and writing the executed notebook.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { UsageError } from '../../core/index.js';
import { multilineText } from '../../../../shared/index.js';

export type MimeBundle = Record<string, unknown>;

export type NotebookOutput =
  | { output_type: 'stream'; name: 'stdout' | 'stderr'; text: string[] }
  | { output_type: 'display_data'; data: MimeBundle; metadata: Record<string, unknown> }
  | { output_type: 'execute_result'; data: MimeBundle; metadata: Record<string, unknown>; execution_count: number | null }
  | { output_type: 'error'; ename: string; evalue: string; traceback: string[] };

export interface NotebookCell {
  id: string;
  cell_type: 'code' | 'markdown' | 'raw';
  metadata: Record<string, unknown>;
  source: string[];
  execution_count?: number | null;
  outputs?: NotebookOutput[];
}

export interface NotebookDocument {
  nbformat: 4;
  nbformat_minor: number;
  metadata: Record<string, unknown>;
  cells: NotebookCell[];
}

const KERNELSPEC = { name: 'nighthawk', display_name: 'Nighthawk TypeScript', language: 'typescript' } as const;
const LANGUAGE_INFO = { name: 'typescript', file_extension: '.ts', mimetype: 'text/typescript' } as const;

/** Splits like Jupyter (lines keep their newline), so saved notebooks diff line by line. */
export function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

export function sourceText(cell: NotebookCell): string {
  return cell.source.join('');
}

/** The first non-blank source line, shortened, to name a cell in messages. */
export function firstLine(cell: NotebookCell, max = 72): string {
  const line = sourceText(cell).split('\n').find((l) => l.trim() !== '') ?? '';
  const trimmed = line.trim();
  return trimmed.length > max ? trimmed.slice(0, max - 1) + '…' : trimmed;
}

const record = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const lines = (v: unknown): string[] => multilineText(v).match(/[^\n]*\n|[^\n]+$/g) ?? [];

/** Parses an .ipynb file; cells without an id get one (nbformat 4.5 requires them). */
export function parseNotebook(text: string, name = 'notebook'): NotebookDocument {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${name} is not valid JSON: ${(error as Error).message}`);
  }
  const nb = record(raw);
  if (nb.nbformat !== 4 || !Array.isArray(nb.cells)) throw new UsageError(`${name} is not an nbformat 4 notebook (needs "nbformat": 4 and a "cells" list).`);
  const seen = new Set<string>();
  const cells = nb.cells.map((c): NotebookCell => {
    const cell = record(c);
    const type = cell.cell_type === 'markdown' ? 'markdown' : cell.cell_type === 'raw' ? 'raw' : 'code';
    let id = typeof cell.id === 'string' && /^[a-zA-Z0-9-_]{1,64}$/.test(cell.id) && !seen.has(cell.id) ? cell.id : randomBytes(8).toString('hex');
    while (seen.has(id)) id = randomBytes(8).toString('hex');
    seen.add(id);
    const base: NotebookCell = { id, cell_type: type, metadata: record(cell.metadata), source: lines(cell.source) };
    return type === 'code' ? { ...base, execution_count: null, outputs: [] } : base;
  });
  return { nbformat: 4, nbformat_minor: 5, metadata: { kernelspec: KERNELSPEC, language_info: LANGUAGE_INFO, ...record(nb.metadata) }, cells };
}

export function readNotebook(file: string): NotebookDocument {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return parseNotebook(text, file);
}

export function serializeNotebook(nb: NotebookDocument): string {
  return JSON.stringify(nb, null, 1) + '\n';
}

interface IOPubLike {
  header: { msg_type: string };
  content: unknown;
}

/** Collects one cell's outputs from its iopub messages, in arrival order. */
export class OutputCollector {
  readonly outputs: NotebookOutput[] = [];
  /** Display id of each output index that carried one (kept in memory only, as nbformat requires). */
  readonly #displayIds = new Map<NotebookOutput, string>();
  #clearPending = false;

  handle(msg: IOPubLike): void {
    const type = msg.header.msg_type;
    const content = record(msg.content);
    if (type !== 'clear_output' && this.#clearPending) {
      this.outputs.length = 0;
      this.#clearPending = false;
    }
    switch (type) {
      case 'stream': {
        const name = content.name === 'stderr' ? 'stderr' : 'stdout';
        const text = typeof content.text === 'string' ? content.text : '';
        const last = this.outputs.at(-1);
        if (last?.output_type === 'stream' && last.name === name) last.text = splitLines(last.text.join('') + text);
        else this.outputs.push({ output_type: 'stream', name, text: splitLines(text) });
        return;
      }
      case 'display_data':
      case 'execute_result': {
        const output: NotebookOutput =
          type === 'display_data'
            ? { output_type: 'display_data', data: record(content.data), metadata: record(content.metadata) }
            : { output_type: 'execute_result', data: record(content.data), metadata: record(content.metadata), execution_count: typeof content.execution_count === 'number' ? content.execution_count : null };
        this.outputs.push(output);
        const id = record(content.transient).display_id;
        if (typeof id === 'string') this.#displayIds.set(output, id);
        return;
      }
      case 'update_display_data': {
        const id = record(content.transient).display_id;
        for (const output of this.outputs) {
          if (this.#displayIds.get(output) !== id || output.output_type === 'stream' || output.output_type === 'error') continue;
          output.data = record(content.data);
          output.metadata = record(content.metadata);
        }
        return;
      }
      case 'error':
        this.outputs.push({
          output_type: 'error',
          ename: typeof content.ename === 'string' ? content.ename : 'Error',
          evalue: typeof content.evalue === 'string' ? content.evalue : '',
          traceback: Array.isArray(content.traceback) ? content.traceback.map(String) : [],
        });
        return;
      case 'clear_output':
        if (content.wait === true) this.#clearPending = true;
        else this.outputs.length = 0;
        return;
      default:
    }
  }
}
