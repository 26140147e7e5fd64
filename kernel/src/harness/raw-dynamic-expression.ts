/**
 * The raw-dynamic-execution rule applied to model-authored expressions (seed 001, detective tier):
 * a cheap textual check run by the host inspector before evaluation. A hit is refused recoverably
 * and recorded as a trace anomaly; a miss is not a breach, only evidence that was not produced.
 */
// Loaded on the first expression that mentions `import`: a static import made every importer of the library
// parse the 9 MB compiler.
import type TS from 'typescript';
import { ts } from './generated/typescript-lazy.js';
import { regExpExec, stringIndexOf, stringSlice } from './intrinsics.js';

const PATTERNS: readonly [RegExp, string][] = [
  [/\beval\b/, 'eval'],
  [/\bFunction\s*\(/, 'Function constructor'],
  [/\bnew\s+Function\b/, 'Function constructor'],
  [/\.constructor\s*(?:\.\s*constructor|\[|\()/, 'constructor access'],
  [/\bimport\s*\(/, 'dynamic import'],
  [/\brequire\s*\(/, 'require'],
  [/\bchild_process\b|\bnode:vm\b|\bvm\s*\.\s*run/, 'code-running module'],
  [/\bwith\s*\(/, 'with statement'],
  [/\bset(?:Timeout|Interval)\s*\(\s*['"`]/, 'timer with source text'],
  [/__nh_/, 'reserved name'],
  [/\b(?:globalThis|global|window|self)\s*\[/, 'computed global access'],
];

// String and template literal contents are data: a word like "eval" inside one runs nothing.
const STRING_LITERAL = /'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\$]|\\.|\$(?!\{))*`/g;

/**
 * Returns the name of the rule an expression breaks, or undefined. Captured built-ins and index loops only: an
 * earlier expression of the step may have replaced `String.prototype.replace`, `RegExp.prototype[Symbol.replace]`
 * or the array iterator (none of them in the per-operation realm check) to blind this inspection.
 */
export function rawDynamicExecutionIn(expression: string): string | undefined {
  const code = withoutStringContents(expression);
  for (let i = 0; i < PATTERNS.length; i++) {
    // By index, not destructuring, which would call the array iterator.
    const entry = PATTERNS[i]!;
    if (regExpExec(entry[0], code) !== null) return entry[1];
  }
  return importCallIn(expression) ? 'dynamic import' : undefined;
}

/** Each string or template literal reduced to its two quotes, by the captured `exec` of the global pattern. */
function withoutStringContents(expression: string): string {
  let out = '';
  let from = 0;
  STRING_LITERAL.lastIndex = 0;
  for (let m = regExpExec(STRING_LITERAL, expression); m !== null; m = regExpExec(STRING_LITERAL, expression)) {
    const quote = m[0]![0]!;
    out += stringSlice(expression, from, m.index) + quote + quote;
    from = m.index + m[0]!.length;
  }
  return out + stringSlice(expression, from);
}

/**
 * `import(…)` is syntax, so the parser sees every one however it is spaced or commented (`import/**\/(`);
 * the keyword cannot be spelled with escapes, so text without "import" needs no parse.
 */
function importCallIn(expression: string): boolean {
  if (stringIndexOf(expression, 'import') < 0) return false;
  const source = ts.createSourceFile('expression.ts', `(async () => (\n${expression}\n))`, ts.ScriptTarget.ES2022, false, ts.ScriptKind.JS);
  let found = false;
  const visit = (node: TS.Node): void => {
    if (found) return;
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) found = true;
    else if (ts.isMetaProperty(node) && node.keywordToken === ts.SyntaxKind.ImportKeyword) found = true;
    else ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
