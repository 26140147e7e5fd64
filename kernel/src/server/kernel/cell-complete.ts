/**
 * `is_complete_request` without the compiler: a terminal frontend (jupyter console) asks on every Enter
 * with a one-second timeout, also while the compiler loads or a cell runs, so the answer must be immediate.
 * A small scanner tracks brackets, strings, template literals (with `${}` nesting), comments and regular
 * expression literals; input is incomplete when something is left open or the last token continues an
 * expression, invalid when a closer does not match or a quoted string runs past its line.
 */

export interface CompletenessReply {
  status: 'complete' | 'incomplete' | 'invalid';
  /** For `incomplete`: the indent to offer on the next line. */
  indent: string;
}

const OPENERS: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
const CLOSERS = new Set([')', ']', '}']);
// After one of these (or at the start) a `/` begins a regular expression, not a division.
const REGEX_AFTER = new Set(['', '(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '+', '-', '*', '%', '<', '>', '~', '^']);
const REGEX_AFTER_WORDS = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await']);
// A last token that cannot end a statement.
const CONTINUES = /(?:[=+\-*%&|^?:,([{~]|=>|\.|\b(?:new|typeof|return\s+await|await|extends|instanceof|in|of|import|from|as|keyof))$/;

export function isCompleteSource(source: string): CompletenessReply {
  const stack: string[] = [];
  let i = 0;
  let last = ''; // the last significant character outside strings and comments
  let lastWord = '';
  const n = source.length;
  while (i < n) {
    const c = source[i]!;
    const top = stack[stack.length - 1];
    if (top === '`') {
      // Inside a template literal.
      if (c === '\\') i += 2;
      else if (c === '`') {
        stack.pop();
        last = '`';
        i++;
      } else if (c === '$' && source[i + 1] === '{') {
        stack.push('${');
        i += 2;
      } else i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n') {
      i++;
      continue;
    }
    if (c === '/' && source[i + 1] === '/') {
      const end = source.indexOf('\n', i);
      i = end < 0 ? n : end;
      continue;
    }
    if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      if (end < 0) return { status: 'incomplete', indent: '' };
      i = end + 2;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < n && source[j] !== c) {
        if (source[j] === '\n') return { status: 'invalid', indent: '' };
        j += source[j] === '\\' ? 2 : 1;
      }
      if (j >= n) return { status: 'invalid', indent: '' };
      i = j + 1;
      last = c;
      lastWord = '';
      continue;
    }
    if (c === '`') {
      stack.push('`');
      i++;
      continue;
    }
    if (c === '/' && (REGEX_AFTER.has(last) || REGEX_AFTER_WORDS.has(lastWord))) {
      let j = i + 1;
      let inClass = false;
      while (j < n && (inClass || source[j] !== '/')) {
        if (source[j] === '\n') return { status: 'invalid', indent: '' };
        if (source[j] === '[') inClass = true;
        else if (source[j] === ']') inClass = false;
        j += source[j] === '\\' ? 2 : 1;
      }
      if (j >= n) return { status: 'invalid', indent: '' };
      i = j + 1;
      while (i < n && /[a-z]/i.test(source[i]!)) i++;
      last = '/';
      lastWord = '';
      continue;
    }
    if (c in OPENERS) stack.push(c);
    else if (c === '}' && top === '${') stack.pop();
    else if (CLOSERS.has(c)) {
      if (top === undefined || OPENERS[top] !== c) return { status: 'invalid', indent: '' };
      stack.pop();
    }
    if (/[\w$]/.test(c)) {
      let j = i;
      while (j < n && /[\w$]/.test(source[j]!)) j++;
      lastWord = source.slice(i, j);
      last = source[j - 1]!;
      i = j;
      continue;
    }
    last = c;
    lastWord = '';
    i++;
  }
  if (stack.length > 0) {
    const depth = stack.filter((s) => s in OPENERS).length;
    return { status: 'incomplete', indent: '  '.repeat(depth) };
  }
  const tail = source.replace(/\/\/[^\n]*$/, '').trimEnd();
  if (tail === '') return { status: 'complete', indent: '' };
  // `a++` / `a--` end a statement; a number like `1.` is complete.
  if (/(?:\+\+|--)$/.test(tail) || /\d\.$/.test(tail)) return { status: 'complete', indent: '' };
  if (CONTINUES.test(tail) && !/[)\]}'"`]$/.test(tail.slice(-1))) return { status: 'incomplete', indent: '' };
  return { status: 'complete', indent: '' };
}
