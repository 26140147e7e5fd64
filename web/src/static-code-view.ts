/** Renders a far cell's source as highlighted static code (tokens from static-code.ts, as text nodes). */
import { tokenize } from './static-code.js';

/** Fills `pre` with the highlighted source (a single space for an empty cell, so the line keeps its height). */
export function renderStaticCode(pre: HTMLElement, source: string): void {
  if (!source) {
    pre.textContent = ' ';
    return;
  }
  const fragment = document.createDocumentFragment();
  for (const token of tokenize(source)) {
    if (!token.kind) {
      fragment.append(token.text);
      continue;
    }
    const span = document.createElement('span');
    span.className = `tok-${token.kind}`;
    span.textContent = token.text;
    fragment.append(span);
  }
  pre.replaceChildren(fragment);
}
