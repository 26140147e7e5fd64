/**
 * Far cells show their source as highlighted static code until their Monaco editor mounts (near the viewport
 * or on focus): one <pre> of text spans per cell, no editor, no model. The scanner knows only what colours a
 * TypeScript cell at a glance (comments, strings and templates, numbers, keywords); the colours match Monaco's
 * `vs` / `vs-dark` themes so the swap to the editor does not flash. Text goes in as text nodes, never as HTML.
 */
const KEYWORDS = new Set(
  ('abstract any as async await bigint boolean break case catch class const constructor continue debugger declare default delete do else ' +
    'enum export extends false finally for from function get if implements import in infer instanceof interface is keyof let module namespace ' +
    'never new null number object of package private protected public readonly return satisfies set static string super switch symbol this ' +
    'throw true try type typeof undefined unique unknown var void while with yield').split(' '),
);

type Kind = 'comment' | 'string' | 'number' | 'keyword';

const TOKEN = /(\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$))|("(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?|`(?:[^`\\]|\\[\s\S])*`?)|(\b\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?n?\b|\b0[xXbBoO][\da-fA-F_]+n?\b)|([A-Za-z_$][\w$]*)/g;

/** The source split into plain runs and coloured tokens. */
export function tokenize(source: string): Array<{ text: string; kind?: Kind }> {
  const out: Array<{ text: string; kind?: Kind }> = [];
  let last = 0;
  for (const match of source.matchAll(TOKEN)) {
    const [text, comment, string, number, word] = match;
    const kind: Kind | undefined = comment ? 'comment' : string ? 'string' : number ? 'number' : word && KEYWORDS.has(word) ? 'keyword' : undefined;
    if (!kind) continue;
    if (match.index > last) out.push({ text: source.slice(last, match.index) });
    out.push({ text, kind });
    last = match.index + text.length;
  }
  if (last < source.length) out.push({ text: source.slice(last) });
  return out;
}
