/**
 * HTML sanitizer for markdown and text/html outputs: kernel output and notebook files are untrusted, so
 * scripts, frames, event handlers and javascript: URLs are removed before anything reaches the page.
 */
const DROP_TAGS = new Set(['SCRIPT', 'IFRAME', 'OBJECT', 'EMBED', 'FRAME', 'FRAMESET', 'LINK', 'META', 'BASE', 'FORM', 'STYLE', 'TEMPLATE', 'NOSCRIPT']);
const URL_ATTRS = new Set(['href', 'src', 'xlink:href', 'action', 'formaction', 'srcset', 'poster']);

function unsafeUrl(value: string): boolean {
  const v = value.replace(/[\u0000-\u0020]/g, '').toLowerCase();
  if (v.startsWith('javascript:') || v.startsWith('vbscript:')) return true;
  return v.startsWith('data:') && !/^data:image\/(png|jpe?g|gif|webp);/.test(v);
}

function clean(node: Element): void {
  for (const child of [...node.children]) {
    if (DROP_TAGS.has(child.tagName.toUpperCase())) {
      child.remove();
      continue;
    }
    for (const attr of [...child.attributes]) {
      const name = attr.name.toLowerCase();
      if (name.startsWith('on') || (name === 'style' && /expression|url\(/i.test(attr.value))) child.removeAttribute(attr.name);
      else if (URL_ATTRS.has(name) && unsafeUrl(attr.value)) child.removeAttribute(attr.name);
    }
    if (child.tagName === 'A') {
      child.setAttribute('target', '_blank');
      child.setAttribute('rel', 'noopener noreferrer');
    }
    clean(child);
  }
}

/** Parses `html` inertly (no scripts run, no resources load) and returns a cleaned fragment. */
export function sanitizeHtml(html: string): DocumentFragment {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  clean(doc.body);
  const frag = document.createDocumentFragment();
  for (const child of [...doc.body.childNodes]) frag.appendChild(document.importNode(child, true));
  return frag;
}
