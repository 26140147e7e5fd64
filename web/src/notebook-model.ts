/**
 * The in-memory notebook: cells with string sources and nbformat outputs, converted to and from
 * .ipynb (nbformat 4.5, with cell ids). Outputs keep their `transient.display_id` in memory only, so
 * update_display_data can find them; it is dropped on save as nbformat requires.
 */
import { multilineText } from '../../shared/multiline.js';
import { randomHex } from './dom.js';

export type MimeBundle = Record<string, unknown>;

export type Output =
  | { output_type: 'stream'; name: 'stdout' | 'stderr'; text: string }
  | { output_type: 'display_data'; data: MimeBundle; metadata: Record<string, unknown>; displayId?: string }
  | { output_type: 'execute_result'; data: MimeBundle; metadata: Record<string, unknown>; execution_count: number | null; displayId?: string }
  /** `internals`: the library's frames, from the message metadata; shown on request, never saved. */
  | { output_type: 'error'; ename: string; evalue: string; traceback: string[]; internals?: string[] };

export type CellType = 'code' | 'markdown' | 'raw';

export interface CellModel {
  id: string;
  cellType: CellType;
  source: string;
  outputs: Output[];
  executionCount: number | null;
  metadata: Record<string, unknown>;
}

export interface NotebookModel {
  cells: CellModel[];
  metadata: Record<string, unknown>;
}

export function newCellId(): string {
  return randomHex(8);
}

export function newCell(cellType: CellType = 'code', source = ''): CellModel {
  return { id: newCellId(), cellType, source, outputs: [], executionCount: null, metadata: {} };
}

function asRecord(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Multiline strings in nbformat bundles may be lists of lines; join them. */
function normaliseBundle(data: unknown): MimeBundle {
  const out: MimeBundle = {};
  for (const [mime, value] of Object.entries(asRecord(data))) {
    out[mime] = Array.isArray(value) && value.every((v) => typeof v === 'string') && !mime.endsWith('json') ? value.join('') : value;
  }
  return out;
}

export function outputFromJson(raw: unknown): Output | undefined {
  const o = asRecord(raw);
  switch (o.output_type) {
    case 'stream':
      return { output_type: 'stream', name: o.name === 'stderr' ? 'stderr' : 'stdout', text: multilineText(o.text) };
    case 'display_data':
      return { output_type: 'display_data', data: normaliseBundle(o.data), metadata: asRecord(o.metadata) };
    case 'execute_result':
      return {
        output_type: 'execute_result',
        data: normaliseBundle(o.data),
        metadata: asRecord(o.metadata),
        execution_count: typeof o.execution_count === 'number' ? o.execution_count : null,
      };
    case 'error':
      return {
        output_type: 'error',
        ename: String(o.ename ?? 'Error'),
        evalue: String(o.evalue ?? ''),
        traceback: Array.isArray(o.traceback) ? o.traceback.map(String) : [],
      };
    default:
      return undefined;
  }
}

export function notebookFromJson(raw: unknown): NotebookModel {
  const nb = asRecord(raw);
  const cells = Array.isArray(nb.cells) ? nb.cells : [];
  return {
    metadata: asRecord(nb.metadata),
    cells: cells.map((c): CellModel => {
      const cell = asRecord(c);
      const cellType: CellType = cell.cell_type === 'markdown' ? 'markdown' : cell.cell_type === 'raw' ? 'raw' : 'code';
      const outputs = Array.isArray(cell.outputs) ? cell.outputs.map(outputFromJson).filter((x): x is Output => !!x) : [];
      return {
        id: typeof cell.id === 'string' && cell.id ? cell.id : newCellId(),
        cellType,
        source: multilineText(cell.source),
        outputs,
        executionCount: typeof cell.execution_count === 'number' ? cell.execution_count : null,
        metadata: asRecord(cell.metadata),
      };
    }),
  };
}

/** Splits like Jupyter does (lines keep their newline), which keeps diffs of saved notebooks small. */
function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function outputToJson(o: Output): Record<string, unknown> {
  switch (o.output_type) {
    case 'stream':
      return { output_type: 'stream', name: o.name, text: splitLines(o.text) };
    case 'display_data':
      return { output_type: 'display_data', data: o.data, metadata: o.metadata };
    case 'execute_result':
      return { output_type: 'execute_result', data: o.data, metadata: o.metadata, execution_count: o.execution_count };
    case 'error':
      return { output_type: 'error', ename: o.ename, evalue: o.evalue, traceback: o.traceback };
  }
}

export function notebookToJson(model: NotebookModel): Record<string, unknown> {
  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {
      kernelspec: { name: 'nighthawk', display_name: 'Nighthawk TypeScript', language: 'typescript' },
      language_info: { name: 'typescript', file_extension: '.ts', mimetype: 'text/typescript' },
      ...model.metadata,
    },
    cells: model.cells.map((cell) => {
      const base = { id: cell.id, cell_type: cell.cellType, metadata: cell.metadata, source: splitLines(cell.source) };
      if (cell.cellType !== 'code') return base;
      return { ...base, execution_count: cell.executionCount, outputs: cell.outputs.map(outputToJson) };
    }),
  };
}

/** The part of a notebook that matters for "did the file change on disk": sources and types. */
export function notebookFingerprintText(model: NotebookModel): string {
  return JSON.stringify(model.cells.map((c) => [c.cellType, c.source]));
}
