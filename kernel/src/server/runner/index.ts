/** The headless notebook runner (`npm run nb`): notebook format, build check, run through the kernel server. */
export { builtHostModule, buildIsStale, ensureBuilt, packageRoot } from './nb-build.js';
export {
  OutputCollector,
  firstLine,
  parseNotebook,
  readNotebook,
  serializeNotebook,
  sourceText,
  splitLines,
  type MimeBundle,
  type NotebookCell,
  type NotebookDocument,
  type NotebookOutput,
} from './nb-format.js';
export { runNotebook, startNotebookRunner, type CellReport, type NotebookRunResult, type NotebookRunner, type NotebookRunnerOptions, type RunNotebookOptions } from './nb-runner.js';
