/**
 * TypeScript 5.0 (tslab's) parses every `/** … *\/` comment of every declaration file into JSDoc nodes, which the
 * type checker never reads in a `.d.ts` (TypeScript 5.3 skips them the same way for `tsc`). For installed files
 * (TypeScript's lib files, every package's declarations under `node_modules`: `@types/node` is in every program),
 * that was a third of a cold kernel's program build (~0.3 s) and ~8 MB of its heap. This layer, above the
 * observations, hands the compiler those files with each JSDoc opener at a line start turned into a plain comment
 * of the same length: every position, token and type stays as it was. Only their documentation is gone from the
 * program; an inspection reads it back from the file on disk (documentationFromDisk).
 */
import { readFileSync } from 'node:fs';
import type * as TS from 'typescript';

const STRIPPED = Symbol.for('nighthawk.kernel.declarationDocsStripped');

/** Installed declaration files (TypeScript's lib, every package's under `node_modules`), read without their JSDoc. */
export const UNDOCUMENTED_DECLARATIONS = /(?:[\\/]typescript(?:-for-tslab)?[\\/]lib[\\/]lib\.[^\\/]*\.d\.ts|[\\/]node_modules[\\/].*\.d\.[cm]?ts)$/;

/** `/**` opening a line (not `/**\/`), as `/* ` : same length, no longer a JSDoc comment. */
const JSDOC_OPENER = /^([ \t]*)\/\*\*(?!\/)/gm;

export function withoutDocComments(text: string): string {
  return text.replace(JSDOC_OPENER, '$1/* ');
}

/** Installs the layer on `sys` once (a snapshot's `sys` comes with it). */
export function stripDeclarationDocs(sys: TS.System): void {
  const marked = sys as TS.System & { [STRIPPED]?: true };
  if (marked[STRIPPED]) return;
  marked[STRIPPED] = true;
  const read = sys.readFile.bind(sys);
  sys.readFile = (p, encoding) => {
    const text = read(p, encoding);
    return text !== undefined && UNDOCUMENTED_DECLARATIONS.test(p) ? withoutDocComments(text) : text;
  };
}

/** Texts of declaration files read again from disk for their documentation, most recent last. */
const originals = new Map<string, string | undefined>();
const ORIGINALS_KEPT = 8;

function originalText(file: string): string | undefined {
  if (originals.has(file)) {
    const text = originals.get(file);
    originals.delete(file);
    originals.set(file, text);
    return text;
  }
  let text: string | undefined;
  try {
    text = readFileSync(file, 'utf8');
    // As the compiler's sys.readFile hands it over: without a byte-order mark.
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  } catch {
    text = undefined;
  }
  originals.set(file, text);
  if (originals.size > ORIGINALS_KEPT) originals.delete(originals.keys().next().value!);
  return text;
}

/** A JSDoc comment's prose: the lines before its first tag, without the comment's own markers. */
export function jsDocProse(comment: string): string {
  const lines = comment
    .replace(/^\/\*\*/, '')
    .replace(/\*\/$/, '')
    .split('\n')
    .map((line) => line.replace(/^\s*\* ?/, '').trimEnd());
  const tag = lines.findIndex((line) => /^\s*@/.test(line));
  return (tag < 0 ? lines : lines.slice(0, tag)).join('\n').trim();
}

/**
 * The documentation of `declarations` in files this layer read without it, from the files on disk: the JSDoc
 * just before the declaration, or before the statement holding it (a variable's), as TypeScript attaches it.
 * Empty when none of them has one.
 */
export function documentationFromDisk(ts: typeof TS, declarations: readonly TS.Node[]): string {
  for (const declaration of declarations) {
    const file = declaration.getSourceFile();
    if (!UNDOCUMENTED_DECLARATIONS.test(file.fileName)) continue;
    const text = originalText(file.fileName);
    if (text === undefined || text.length !== file.text.length) continue;
    for (let node: TS.Node | undefined = declaration, hops = 0; node !== undefined && hops < 3; node = node.parent, hops++) {
      const closest = ts.getLeadingCommentRanges(text, node.pos)?.at(-1);
      if (closest && text.startsWith('/**', closest.pos)) {
        const prose = jsDocProse(text.slice(closest.pos, closest.end));
        if (prose) return prose;
      }
      if (!ts.isVariableDeclaration(node) && !ts.isVariableDeclarationList(node)) break;
    }
  }
  return '';
}
