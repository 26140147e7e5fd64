/** Reading executed notebooks in tests: cells by source, outputs by kind, the run payloads shown inline. */
import type { NotebookCell, NotebookDocument, NotebookOutput } from '../../kernel/src/server/runner/nb-format.js';
import { NighthawkMime } from '../../shared/mime.js';
import type { RunPayload } from '../../shared/ui-types.js';

export function cellWith(nb: NotebookDocument, sourceFragment: string): NotebookCell {
  const matches = nb.cells.filter((c) => c.cell_type === 'code' && c.source.join('').includes(sourceFragment));
  if (matches.length !== 1) throw new Error(`expected one code cell containing ${JSON.stringify(sourceFragment)}, found ${matches.length}`);
  return matches[0]!;
}

const outputsOf = (cell: NotebookCell): NotebookOutput[] => cell.outputs ?? [];

/** The cell's execute_result as JSON (application/json), falling back to text/plain. */
export function resultOf(cell: NotebookCell): unknown {
  const result = outputsOf(cell).find((o) => o.output_type === 'execute_result');
  if (!result || result.output_type !== 'execute_result') throw new Error(`cell ${cell.id} has no execute_result`);
  return 'application/json' in result.data ? result.data['application/json'] : result.data['text/plain'];
}

/** What the cell printed: its stdout stream plus what runs printed, which the run views hold in time order. */
export function stdoutOf(cell: NotebookCell): string {
  type Chunk = { name: string; text: string };
  const printed = (owner: object): string => ((owner as { streams?: Chunk[] }).streams ?? []).filter((c) => c.name === 'stdout').map((c) => c.text).join('');
  const inRuns = runsOf(cell).map((run) => printed(run) + run.executions.map(printed).join('')).join('');
  return outputsOf(cell)
    .flatMap((o) => (o.output_type === 'stream' && o.name === 'stdout' ? o.text : []))
    .join('') + inRuns;
}

export function displaysOf(cell: NotebookCell, mime: string): unknown[] {
  return outputsOf(cell).flatMap((o) => (o.output_type === 'display_data' && mime in o.data ? [o.data[mime]] : []));
}

/** The final state of every run shown in the cell (one display per run, updated in place). */
export function runsOf(cell: NotebookCell): RunPayload[] {
  return displaysOf(cell, NighthawkMime.run) as RunPayload[];
}

export function errorsIn(nb: NotebookDocument): NotebookOutput[] {
  return nb.cells.flatMap((c) => outputsOf(c).filter((o) => o.output_type === 'error'));
}
