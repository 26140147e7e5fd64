/**
 * HTML sanitizer for markdown and text/html outputs. Notebook files and kernel outputs are untrusted, so
 * they go through DOMPurify (maintained against mutation-XSS and namespace-confusion bypasses that a
 * hand-written filter keeps missing) with a stricter configuration: no forms, frames, embedded objects,
 * <base>, <meta>, <link> or <style> elements, only http(s)/mailto/relative/fragment links (opening a new
 * tab) and raster `data:` images, ids and names prefixed. Styles stay; the page's CSS confines what they paint
 * to the output's box (styles.css, `.output-html`). The server's Content-Security-Policy (no inline script) is the second line of defence.
 */
import DOMPurify, { type Config } from 'dompurify';

const purifier = DOMPurify(window);

const CONFIG: Config = {
  FORBID_TAGS: ['form', 'input', 'button', 'textarea', 'select', 'iframe', 'frame', 'frameset', 'object', 'embed', 'base', 'meta', 'link', 'style', 'template', 'noscript', 'portal'],
  FORBID_ATTR: ['srcdoc', 'formaction', 'action', 'ping', 'background', 'xlink:href'],
  // http(s), mailto, fragment and relative references only (javascript:, vbscript:, data:text/html… fail).
  ALLOWED_URI_REGEXP: /^(?:(?:https?|mailto):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
  ALLOW_DATA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  SAFE_FOR_TEMPLATES: false,
  // Ids and names become `user-content-…`: model HTML cannot name an element like one of the app's (`toast`,
  // `app`) and take over the app's lookups, or clobber document properties.
  SANITIZE_NAMED_PROPS: true,
  RETURN_DOM_FRAGMENT: true,
};

const RASTER_DATA_URI = /^data:image\/(?:png|jpe?g|gif|webp);/i;
const URL_ATTRIBUTES = new Set(['href', 'src', 'srcset', 'poster', 'cite', 'data']);

purifier.addHook('uponSanitizeAttribute', (_node, data) => {
  // SVG <animate>/<set> can rewrite another attribute (attributeName="href") to a javascript: URL later.
  if (data.attrName === 'attributename' && /^(?:xlink:)?href$|^on/i.test(data.attrValue.trim())) data.keepAttr = false;
  // DOMPurify allows data: URIs on media elements; only raster images are kept (no SVG documents, no HTML).
  if (URL_ATTRIBUTES.has(data.attrName) && /^\s*data:/i.test(data.attrValue) && !RASTER_DATA_URI.test(data.attrValue.trim())) data.keepAttr = false;
});

purifier.addHook('afterSanitizeAttributes', (node) => {
  // HTML <a> and <area>, and SVG <a> (whose tagName is lower case): a link opens a new tab, never this one.
  const name = node.localName;
  if ((name === 'a' || name === 'area') && node.hasAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

/** Parses `html` inertly (no scripts run, no resources load) and returns a cleaned fragment. */
export function sanitizeHtml(html: string): DocumentFragment {
  return purifier.sanitize(html, { ...CONFIG, RETURN_DOM_FRAGMENT: true });
}
