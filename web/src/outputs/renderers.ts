/**
 * What draws outputs and markdown, in a chunk of its own: the MIME renderers, marked, DOMPurify and the
 * payload schemas (zod) are about a third of the page's script, and a notebook is usable before any of it
 * runs. Loaded by render-loader.ts when first needed, or in idle time after the notebook opened.
 */
export { renderBundle } from './render-mime.js';
export { renderMarkdown } from '../markdown.js';
export { ApprovalPayloadSchema } from '../../../shared/ui-types.js';
