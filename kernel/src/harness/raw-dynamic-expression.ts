/**
 * The raw-dynamic-execution rule applied to model-authored expressions (seed 001, detective tier):
 * a cheap textual check run by the host inspector before evaluation. A hit is refused recoverably
 * and recorded as a trace anomaly; a miss is not a breach, only evidence that was not produced.
 */
// Loaded on the first expression that mentions `import`: a static import made every importer of the library
// parse the 9 MB compiler.
import type TS from 'typescript';
import { ts } from './generated/typescript-lazy.js';

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

/** Returns the name of the rule an expression breaks, or undefined. */
export function rawDynamicExecutionIn(expression: string): string | undefined {
  const code = expression.replace(STRING_LITERAL, (m) => m[0]! + m[0]!);
  for (const [pattern, rule] of PATTERNS) if (pattern.test(code)) return rule;
  return importCallIn(expression) ? 'dynamic import' : undefined;
}

/**
 * `import(…)` is syntax, so the parser sees every one however it is spaced or commented (`import/**\/(`);
 * the keyword cannot be spelled with escapes, so text without "import" needs no parse.
 */
function importCallIn(expression: string): boolean {
  if (!expression.includes('import')) return false;
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
