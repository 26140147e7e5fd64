/**
 * Spells out shorthand object properties (`{ grant }` → `{ grant: grant }`) in a cell. The cell
 * compiler rewrites references to names from earlier cells, but a shorthand property would keep the
 * bare name and throw ReferenceError. Same-line edits keep every line number.
 */
import type ts from 'typescript';

/** The parser API used here; the cell compiler passes the TypeScript it already loaded (tslab's fork). */
export type ShorthandParser = Pick<typeof ts, 'createSourceFile' | 'ScriptTarget' | 'ScriptKind' | 'isShorthandPropertyAssignment' | 'forEachChild'>;

export function expandShorthandProperties(source: string, t: ShorthandParser): string {
  if (!/[{,]\s*[A-Za-z_$][\w$]*\s*[,}]/.test(source)) return source;
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
