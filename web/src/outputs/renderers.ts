/**
 * What draws outputs and markdown, in a chunk of its own: the MIME renderers, marked, DOMPurify and the
 * payload schemas (zod) are about a third of the page's script, and a notebook is usable before any of it
 * runs. Loaded by render-loader.ts as soon as the page starts.
 */
export { renderBundle } from './render-mime.js';
export { renderMarkdown } from '../markdown.js';
export { ApprovalPayloadSchema } from '../../../shared/ui-types.js';
