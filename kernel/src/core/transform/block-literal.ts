/**
 * Reading a block's program text from its literal. The text comes from the RAW literal: JavaScript
 * cooks `\<` to `<`, which would turn an escape into a binding, so escapes are cooked here except
 * `\<`, which stays for the runtime to unescape in the prompt.
 */
import type TS from 'typescript';
import { typescript } from './typescript-module.js';

/** The literal parts of a block (one for a plain literal) and the `${}` expressions between them. */
export interface BlockLiteral {
  readonly parts: readonly string[];
  readonly expressions: readonly TS.Expression[];
}

const SENTINEL = /^(?:execute|decide)\n/;

const ESCAPE = /\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|\r\n|[\s\S])/g;
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  b: '\b',
  f: '\f',
  v: '\v',
  '0': '\0',
};

/** Cooks JavaScript escapes in raw literal text, keeping `\<` as `\<`. */
export function cookKeepingBlockEscapes(raw: string): string {
  return raw.replace(ESCAPE, (_whole, escape: string) => {
    if (escape === '<') return '\\<';
    const simple = SIMPLE_ESCAPES[escape];
    if (simple !== undefined) return simple;
    if (escape === '\n' || escape === '\r\n' || escape === '\r' || escape === '\u2028' || escape === '\u2029') return '';
    if (escape.startsWith('u{')) return String.fromCodePoint(parseInt(escape.slice(2, -1), 16));
    if (escape.length > 1 && (escape[0] === 'u' || escape[0] === 'x')) return String.fromCharCode(parseInt(escape.slice(1), 16));
    return escape;
  });
}

function templateRaw(node: TS.TemplateLiteralLikeNode, sourceText: string, open: number, close: number): string {
  // Template raw text normalises CR LF and CR to LF (ECMAScript TRV).
  const raw = node.rawText ?? sourceText.slice(node.getStart() + open, node.end - close);
  return raw.replace(/\r\n?/g, '\n');
}

/** The block literal of an expression statement, or undefined when it is not a sentinel literal. */
export function readBlockLiteral(statement: TS.ExpressionStatement, sourceText: string): BlockLiteral | undefined {
  const ts = typescript();
  let expression = statement.expression;
  while (ts.isParenthesizedExpression(expression)) expression = expression.expression;
  if (ts.isStringLiteral(expression)) {
    if (!SENTINEL.test(expression.text)) return undefined;
    const raw = sourceText.slice(expression.getStart() + 1, expression.end - 1);
    return { parts: [cookKeepingBlockEscapes(raw)], expressions: [] };
  }
  if (ts.isNoSubstitutionTemplateLiteral(expression)) {
    if (!SENTINEL.test(expression.text)) return undefined;
    return { parts: [cookKeepingBlockEscapes(templateRaw(expression, sourceText, 1, 1))], expressions: [] };
  }
  if (ts.isTemplateExpression(expression)) {
    if (!SENTINEL.test(expression.head.text)) return undefined;
    const parts = [cookKeepingBlockEscapes(templateRaw(expression.head, sourceText, 1, 2))];
    const expressions: TS.Expression[] = [];
    for (const span of expression.templateSpans) {
      expressions.push(span.expression);
      const isTail = ts.isTemplateTail(span.literal);
      parts.push(cookKeepingBlockEscapes(templateRaw(span.literal, sourceText, 1, isTail ? 1 : 2)));
    }
    return { parts, expressions };
  }
  return undefined;
}

/** A `<` token opening in one literal part and closing in a later one, e.g. `<${name}>`. */
export function findSpanningToken(parts: readonly string[]): string | undefined {
  if (parts.length < 2) return undefined;
  const joined = parts.join('\u0000');
  const match = /(?<!\\)<:?[A-Za-z0-9_.]*\u0000[A-Za-z0-9_.\u0000]*>/.exec(joined);
  return match ? match[0].replace(/\u0000/g, '${…}') : undefined;
}

function escapeForTemplate(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/`/g, '\\`')
    .replace(/\$\{/g, '\\${')
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r');
}

/**
 * The emitted program expression: a one-line string literal, or a template literal whose
 * interpolations pass through `escapeName` so interpolated text never creates a binding.
 */
export function emitProgramExpression(literal: BlockLiteral, sourceText: string, escapeName: string): string {
  if (literal.expressions.length === 0) return JSON.stringify(literal.parts[0]);
  let out = '`' + escapeForTemplate(literal.parts[0]!);
  literal.expressions.forEach((expression, index) => {
    const text = sourceText.slice(expression.getStart(), expression.end);
    out += '${' + escapeName + '(' + text + ')}' + escapeForTemplate(literal.parts[index + 1]!);
  });
  return out + '`';
}
