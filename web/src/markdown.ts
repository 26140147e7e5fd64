/** Markdown rendering for markdown cells and text/markdown outputs, always through the sanitizer. */
import { marked } from 'marked';
import { sanitizeHtml } from './sanitize.js';

export function renderMarkdown(source: string): DocumentFragment {
  const html = marked.parse(source, { async: false, gfm: true });
  return sanitizeHtml(html);
}
