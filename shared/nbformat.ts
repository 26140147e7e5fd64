/**
 * The .ipynb notebook format, nbformat 4.5 (cells carry ids). Stored notebooks and saves are validated
 * with these schemas; unknown metadata keys are kept.
 */
import { z } from 'zod';

/** Multi-line strings may be stored as one string or as a list of lines. */
export const MultilineStringSchema = z.union([z.string(), z.array(z.string())]);
export type MultilineString = z.infer<typeof MultilineStringSchema>;

const metadata = z.record(z.string(), z.unknown());
const mimeBundle = z.record(z.string(), z.unknown());
/** nbformat 4.5 cell ids: 1-64 chars of letters, digits, `-` and `_`. */
const cellId = z.string().regex(/^[a-zA-Z0-9-_]+$/).min(1).max(64);

export const StreamOutputSchema = z.object({
  output_type: z.literal('stream'),
  name: z.enum(['stdout', 'stderr']),
  text: MultilineStringSchema,
});

export const DisplayDataOutputSchema = z.object({
  output_type: z.literal('display_data'),
  data: mimeBundle,
  metadata,
  transient: z.unknown().optional(),
});

export const ExecuteResultOutputSchema = z.object({
  output_type: z.literal('execute_result'),
  execution_count: z.number().int().nullable(),
  data: mimeBundle,
  metadata,
});

export const ErrorOutputSchema = z.object({
  output_type: z.literal('error'),
  ename: z.string(),
  evalue: z.string(),
  traceback: z.array(z.string()),
});

export const OutputSchema = z.discriminatedUnion('output_type', [
  StreamOutputSchema,
  DisplayDataOutputSchema,
  ExecuteResultOutputSchema,
  ErrorOutputSchema,
]);
export type Output = z.infer<typeof OutputSchema>;

export const CodeCellSchema = z.object({
  id: cellId,
  cell_type: z.literal('code'),
  metadata,
  source: MultilineStringSchema,
  execution_count: z.number().int().nullable(),
  outputs: z.array(OutputSchema),
});

export const MarkdownCellSchema = z.object({
  id: cellId,
  cell_type: z.literal('markdown'),
  metadata,
  source: MultilineStringSchema,
  attachments: z.record(z.string(), mimeBundle).optional(),
});

export const RawCellSchema = z.object({
  id: cellId,
  cell_type: z.literal('raw'),
  metadata,
  source: MultilineStringSchema,
  attachments: z.record(z.string(), mimeBundle).optional(),
});

export const CellSchema = z.discriminatedUnion('cell_type', [CodeCellSchema, MarkdownCellSchema, RawCellSchema]);
export type Cell = z.infer<typeof CellSchema>;
export type CodeCell = z.infer<typeof CodeCellSchema>;

export const NotebookSchema = z.object({
  nbformat: z.literal(4),
  nbformat_minor: z.number().int().min(5),
  metadata,
  cells: z.array(CellSchema),
});
export type Notebook = z.infer<typeof NotebookSchema>;

/** A fresh empty notebook for the TypeScript kernel. */
export function emptyNotebook(): Notebook {
  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {
      kernelspec: { name: 'nighthawk', display_name: 'Nighthawk TS', language: 'typescript' },
      language_info: { name: 'typescript', file_extension: '.ts', mimetype: 'text/typescript' },
    },
    cells: [],
  };
}
