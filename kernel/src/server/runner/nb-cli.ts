/**
 * `npm run nb -- run NOTEBOOK [--out FILE | --in-place]` and `npm run nb -- run-all [DIR]`: runs notebooks
 * headless through the real kernel server and Session (see nb-runner.ts), prints one progress line per
 * code cell, writes the executed notebooks and exits 1 naming the first failing cell (2 on usage errors).
 *
 * Executed notebooks go to artifacts/notebooks/NAME.ipynb (git-ignored) unless --out or --in-place says
 * otherwise, so running a demo never rewrites the file a person is editing.
 */
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { NighthawkError } from '../../core/index.js';
import { packageRoot } from './nb-build.js';
import { serializeNotebook } from './nb-format.js';
import { startNotebookRunner, type CellReport, type NotebookRunResult } from './nb-runner.js';

const USAGE = `Usage:
  npm run nb -- run NOTEBOOK.ipynb [--out FILE | --in-place] [--timeout SECONDS] [--allow-errors]
  npm run nb -- run-all [DIR] [--out-dir DIR | --in-place] [--timeout SECONDS] [--allow-errors]

Runs every code cell through the notebook kernel and its Session, in order, stopping at the first error
(with --allow-errors every cell runs and errors are kept as outputs, as nbconvert does).
The executed notebook is written to artifacts/notebooks/NAME.ipynb by default (DIR defaults to notebooks/).
Exit status: 0 all cells ran (or --allow-errors), 1 a cell failed, 2 usage error.`;

/** A command line the runner cannot act on (exit status 2). */
class CliUsageError extends NighthawkError {
  constructor(options: { problem: string }) {
    super('nb-usage', options.problem);
  }
}

const errorPreview = (report: CellReport): string => {
  const text = `${report.error?.ename ?? 'Error'}: ${report.error?.evalue ?? ''}`.replace(/\s+/g, ' ').trim();
  return text.length > 200 ? text.slice(0, 199) + '…' : text;
};

function progressLine(report: CellReport): string {
  const head = `[${report.codeNumber}/${report.codeTotal}] ${report.status === 'ok' ? 'ok' : 'FAILED'} ${report.durationMs} ms  ${report.firstLine}`;
  return report.status === 'ok' ? head : `${head}\n      ${errorPreview(report)}`;
}

/** `cell 7 of 20 (code cell 3 of 12): \`await calculate()\``: how failures name a cell, counting from 1. */
function describeCell(report: CellReport, cellTotal: number): string {
  return `cell ${report.index + 1} of ${cellTotal} (code cell ${report.codeNumber} of ${report.codeTotal}): \`${report.firstLine}\``;
}

function notebooksIn(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new CliUsageError({ problem: `${dir} is not a directory` });
  return readdirSync(dir)
    .filter((name) => name.endsWith('.ipynb') && !name.endsWith('.out.ipynb'))
    .sort()
    .map((name) => path.join(dir, name));
}

function write(result: NotebookRunResult, target: string): void {
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, serializeNotebook(result.notebook));
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      out: { type: 'string' },
      'out-dir': { type: 'string' },
      'in-place': { type: 'boolean', default: false },
      timeout: { type: 'string' },
      'allow-errors': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || command === 'help') {
    console.log(USAGE);
    return 0;
  }
  const timeout = values.timeout === undefined ? undefined : Number(values.timeout);
  if (timeout !== undefined && !(timeout > 0)) throw new CliUsageError({ problem: `--timeout must be a positive number of seconds, got '${values.timeout}'` });
  if (values['in-place'] && (values.out || values['out-dir'])) throw new CliUsageError({ problem: '--in-place cannot be combined with --out or --out-dir' });
  let files: string[];
  if (command === 'run') {
    if (rest.length !== 1) throw new CliUsageError({ problem: rest.length ? 'run takes exactly one notebook' : 'run needs a notebook path' });
    if (values['out-dir']) throw new CliUsageError({ problem: 'run takes --out FILE, not --out-dir' });
    files = [path.resolve(rest[0]!)];
    if (!files[0]!.endsWith('.ipynb')) throw new CliUsageError({ problem: `${rest[0]} is not an .ipynb file` });
    if (!existsSync(files[0]!)) throw new CliUsageError({ problem: `${rest[0]} does not exist` });
  } else if (command === 'run-all') {
    if (rest.length > 1) throw new CliUsageError({ problem: 'run-all takes at most one directory' });
    if (values.out) throw new CliUsageError({ problem: 'run-all takes --out-dir DIR, not --out' });
    files = notebooksIn(path.resolve(rest[0] ?? 'notebooks'));
    if (!files.length) throw new CliUsageError({ problem: `no .ipynb files in ${rest[0] ?? 'notebooks'}` });
  } else {
    throw new CliUsageError({ problem: command ? `unknown command '${command}'` : 'missing command' });
  }
  const outDir = path.resolve(values['out-dir'] ?? path.join(packageRoot(), 'artifacts', 'notebooks'));
  const target = (file: string): string => (values['in-place'] ? file : values.out ? path.resolve(values.out) : path.join(outDir, path.basename(file)));

  const runner = await startNotebookRunner({ spareKernels: files.length > 1 ? 1 : 0, log: (line) => console.error(line) });
  const failures: string[] = [];
  try {
    for (const file of files) {
      console.log(`${path.relative(process.cwd(), file) || file}`);
      const result = await runner.run(file, { onCell: (r) => console.log(`  ${progressLine(r)}`), allowErrors: values['allow-errors'], ...(timeout ? { cellTimeoutMs: timeout * 1000 } : {}) });
      const out = target(file);
      write(result, out);
      const summary = result.failed ? `failed at ${describeCell(result.failed, result.notebook.cells.length)}` : `${result.cells.length} code cells ok in ${result.durationMs} ms`;
      console.log(`  ${summary}\n  wrote ${path.relative(process.cwd(), out) || out}`);
      if (result.failed) failures.push(`${path.basename(file)}: ${describeCell(result.failed, result.notebook.cells.length)}`);
    }
  } finally {
    await runner.close();
  }
  if (failures.length) {
    if (values['allow-errors']) {
      console.log(`\n${failures.length} notebook${failures.length === 1 ? '' : 's'} had failing cells (--allow-errors):\n${failures.map((f) => `  ${f}`).join('\n')}`);
      return 0;
    }
    console.error(`\n${failures.length} notebook${failures.length === 1 ? '' : 's'} failed:\n${failures.map((f) => `  ${f}`).join('\n')}`);
    return 1;
  }
  if (files.length > 1) console.log(`\nall ${files.length} notebooks ran without errors`);
  return 0;
}

// @jupyterlab/services narrates WebSocket and kernel status changes on console.debug; progress lines suffice here.
console.debug = () => {};

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const usage = error instanceof CliUsageError || (error as { code?: string })?.code?.startsWith('ERR_PARSE_ARGS');
    console.error(`nb: ${error instanceof Error ? error.message : String(error)}`);
    if (usage) console.error(`\n${USAGE}`);
    process.exit(usage ? 2 : 1);
  },
);
