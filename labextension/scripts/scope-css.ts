/**
 * Takes the renderer rules (selectors naming an `nh-` class) out of the web notebook's stylesheet and
 * scopes them under the extension's output class, so JupyterLab gets the same look as the web notebook
 * without the notebook's page rules (body, toolbar, cells) and without leaking into JupyterLab's own UI.
 * Keyframes the kept rules use are renamed with the scope's prefix: JupyterLab's page has its own.
 */

interface Block {
  prelude: string;
  body: string;
}

/** Top-level `prelude { body }` blocks; comments dropped. Enough for hand-written CSS without strings holding braces. */
function blocks(css: string): Block[] {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const out: Block[] = [];
  let depth = 0;
  let start = 0;
  let open = -1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '{') {
      if (depth === 0) open = i;
      depth++;
    } else if (ch === '}') {
      depth--;
      if (depth < 0) throw new Error(`unbalanced '}' at offset ${i}`);
      if (depth === 0) {
        out.push({ prelude: text.slice(start, open).trim(), body: text.slice(open + 1, i).trim() });
        start = i + 1;
      }
    }
  }
  if (depth !== 0) throw new Error('unbalanced braces: a block is never closed');
  return out;
}

const RENDERER_CLASS = /\.nh-/;

function scopeRule(block: Block, scope: string, renamed: Map<string, string>): string | undefined {
  const selectors = block.prelude
    .split(',')
    .map((s) => s.trim())
    .filter((s) => RENDERER_CLASS.test(s));
  if (selectors.length === 0) return undefined;
  let body = block.body;
  for (const [from, to] of renamed) body = body.replace(new RegExp(`(animation(?:-name)?\\s*:\\s*)${from}\\b`, 'g'), `$1${to}`);
  return `${selectors.map((s) => `${scope} ${s}`).join(', ')} { ${body} }`;
}

export function scopeRendererCss(css: string, scope: string, prefix: string): string {
  const all = blocks(css);
  const renamed = new Map<string, string>();
  for (const b of all) {
    const m = /^@keyframes\s+([\w-]+)$/.exec(b.prelude);
    if (m) renamed.set(m[1]!, `${prefix}${m[1]!}`);
  }
  const out: string[] = [];
  const usedKeyframes = new Set<string>();
  const note = (rule: string): string => {
    for (const [from, to] of renamed) if (new RegExp(`\\b${to}\\b`).test(rule)) usedKeyframes.add(from);
    return rule;
  };
  for (const b of all) {
    if (b.prelude.startsWith('@keyframes')) continue;
    if (b.prelude.startsWith('@media')) {
      const inner = blocks(b.body)
        .map((r) => scopeRule(r, scope, renamed))
        .filter((r): r is string => r !== undefined);
      if (inner.length > 0) out.push(`${b.prelude} { ${inner.map(note).join(' ')} }`);
      continue;
    }
    if (b.prelude.startsWith('@')) continue;
    const rule = scopeRule(b, scope, renamed);
    if (rule) out.push(note(rule));
  }
  for (const b of all) {
    const m = /^@keyframes\s+([\w-]+)$/.exec(b.prelude);
    if (m && usedKeyframes.has(m[1]!)) out.push(`@keyframes ${renamed.get(m[1]!)!} { ${b.body} }`);
  }
  return out.join('\n') + '\n';
}
