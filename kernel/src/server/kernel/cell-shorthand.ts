/**
 * Spells out shorthand object properties (`{ grant }` → `{ grant: grant }`) in a cell. The cell
 * compiler rewrites references to names from earlier cells, but a shorthand property would keep the
 * bare name and throw ReferenceError. Same-line edits keep every line number.
 */
import { createRequire } from 'node:module';
import type ts from 'typescript';

let tsModule: typeof ts | undefined;
function typescript(): typeof ts {
  tsModule ??= createRequire(import.meta.url)('typescript') as typeof ts;
  return tsModule;
}

export function expandShorthandProperties(source: string): string {
  if (!/[{,]\s*[A-Za-z_$][\w$]*\s*[,}]/.test(source)) return source;
  const t = typescript();
  const file = t.createSourceFile('cell.ts', source, t.ScriptTarget.Latest, false, t.ScriptKind.TS);
  const inserts: { at: number; text: string }[] = [];
  const visit = (node: ts.Node): void => {
    if (t.isShorthandPropertyAssignment(node) && !node.objectAssignmentInitializer) {
      inserts.push({ at: node.name.getStart(file), text: `${node.name.text}: ` });
    }
    t.forEachChild(node, visit);
  };
  visit(file);
  let out = source;
  for (const { at, text } of inserts.sort((a, b) => b.at - a.at)) out = out.slice(0, at) + text + out.slice(at);
  return out;
}
