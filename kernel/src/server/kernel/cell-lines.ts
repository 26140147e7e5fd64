/**
 * Maps a line of a cell's compiled JavaScript back to the cell's TypeScript source. tslab emits no source
 * maps, so top-level statements of both texts are aligned by kind (longest common subsequence), skipping
 * the statements the compiler inserts (`exports.x = x`, `__esModule`, helpers). Within one statement the
 * line offset is carried over and clamped to the statement's span. Unmatched lines map to undefined.
 */
import type * as TS from 'typescript';

type Ts = typeof TS;

interface Span {
  kind: string;
  startLine: number;
  endLine: number;
}

const INSERTED_ASSIGNMENT = /^exports\.([\w$]+) = (?:exports\.[\w$]+ = )*(?:void 0|([\w$]+));$/;

function statementKind(ts: Ts, node: TS.Statement, sourceText: string): string | undefined {
  const SK = ts.SyntaxKind;
  switch (node.kind) {
    case SK.InterfaceDeclaration:
    case SK.TypeAliasDeclaration:
    case SK.EmptyStatement:
      return undefined;
    case SK.ImportDeclaration:
      return (node as TS.ImportDeclaration).importClause?.isTypeOnly ? undefined : 'import';
    case SK.ImportEqualsDeclaration:
      return 'import';
    case SK.ExportDeclaration:
      return undefined;
    default:
      break;
  }
  const modifiers = ts.canHaveModifiers(node) ? ts.getModifiers(node) : undefined;
  if (modifiers?.some((m) => m.kind === SK.DeclareKeyword)) return undefined;
  if (node.kind === SK.VariableStatement) {
    const text = sourceText.slice(node.getStart(), node.end);
    if (/=\s*(?:__\w+\()?require\(/.test(text)) return 'import';
    return 'var';
  }
  if (node.kind === SK.FunctionDeclaration) return 'function';
  if (node.kind === SK.ClassDeclaration) return 'class';
  if (node.kind === SK.ExpressionStatement) return 'expression';
  return 'other:' + node.kind;
}

function spans(ts: Ts, text: string, fileName: string, isJs: boolean): Span[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, isJs ? ts.ScriptKind.JS : ts.ScriptKind.TS);
  const out: Span[] = [];
  for (const statement of file.statements) {
    if (isJs && isInserted(ts, statement, text)) continue;
    const kind = statementKind(ts, statement, text);
    if (kind === undefined) continue;
    out.push({
      kind,
      startLine: file.getLineAndCharacterOfPosition(statement.getStart()).line,
      endLine: file.getLineAndCharacterOfPosition(statement.end).line,
    });
  }
  return out;
}

function isInserted(ts: Ts, statement: TS.Statement, text: string): boolean {
  const source = text.slice(statement.getStart(), statement.end).trim();
  if (source.startsWith('Object.defineProperty(exports,')) return true;
  const assignment = INSERTED_ASSIGNMENT.exec(source);
  if (assignment && (assignment[2] === undefined || assignment[2] === assignment[1])) return true;
  if (ts.isVariableStatement(statement)) {
    const names = statement.declarationList.declarations.map((d) => (ts.isIdentifier(d.name) ? d.name.text : ''));
    if (names.every((n) => n.startsWith('__'))) return true;
  }
  return false;
}

/** Pairs of indices (js, ts) of the longest common subsequence of statement kinds. */
function align(js: Span[], src: Span[]): Array<[number, number]> {
  const n = js.length;
  const m = src.length;
  const table: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i]![j] = js[i]!.kind === src[j]!.kind ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
    }
  }
  const pairs: Array<[number, number]> = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (js[i]!.kind === src[j]!.kind) {
      pairs.push([i, j]);
      i++;
      j++;
    } else if (table[i + 1]![j]! >= table[i]![j + 1]!) i++;
    else j++;
  }
  return pairs;
}

/** Returns a function from 1-based JS line to 1-based cell line. */
export function createLineMap(ts: Ts, cellSource: string, compiledJs: string): (jsLine: number) => number | undefined {
  let jsSpans: Span[] | undefined;
  let pairs: Array<[number, number]> = [];
  let srcSpans: Span[] = [];
  return (jsLine) => {
    if (jsSpans === undefined) {
      // Parsing is deferred to the first lookup: only failing cells need it.
      jsSpans = spans(ts, compiledJs, 'cell.js', true);
      srcSpans = spans(ts, cellSource, 'cell.ts', false);
      pairs = align(jsSpans, srcSpans);
    }
    const line = jsLine - 1;
    for (const [ji, si] of pairs) {
      const js = jsSpans[ji]!;
      if (line < js.startLine || line > js.endLine) continue;
      const src = srcSpans[si]!;
      return Math.min(src.startLine + (line - js.startLine), src.endLine) + 1;
    }
    return undefined;
  };
}
