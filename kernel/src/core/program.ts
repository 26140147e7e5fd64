/**
 * Natural program text: sentinel detection, dedent, frontmatter (`deny`) and binding extraction.
 * `<name>` is a read binding, `<:name>` a write binding, `\<name>` an escape that makes no binding
 * and renders as `<name>` in the prompt. Dotted tokens (`<a.b>`) are prompt references only.
 */
import { parse as parseYaml } from 'yaml';
import { NaturalParseError } from './errors.js';

export const OutcomeKind = {
  pass: 'pass',
  return: 'return',
  break: 'break',
  continue: 'continue',
  raise: 'raise',
} as const;
export type OutcomeKind = (typeof OutcomeKind)[keyof typeof OutcomeKind];
export const OUTCOME_KINDS: readonly OutcomeKind[] = ['pass', 'return', 'break', 'continue', 'raise'];

export type BlockSentinel = 'execute' | 'decide';

/** A parsed Natural program, independent of where its values come from. */
export interface NaturalProgram {
  readonly sentinel: BlockSentinel;
  /** Program text after the sentinel line, dedented, frontmatter removed, escapes kept. */
  readonly text: string;
  readonly readBindingNames: readonly string[];
  readonly writeBindingNames: readonly string[];
  /** Roots of unescaped `<name>` and `<a.b>` tokens, for GLOBALS selection. */
  readonly referenceRoots: readonly string[];
  readonly deniedOutcomes: readonly OutcomeKind[];
}

const SENTINEL = /^(execute|decide)\n/;
const TOKEN = /(\\?)<(:?)([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)>/g;

/** True when `text` begins with a block sentinel on its own first line. */
export function hasSentinel(text: string): boolean {
  return SENTINEL.test(text);
}

/** Removes common leading indentation; whitespace-only lines do not count (Python dedent rules). */
export function dedent(text: string): string {
  const lines = text.split('\n');
  let margin: string | undefined;
  for (const line of lines) {
    if (line.trim() === '') continue;
    const indent = /^[ \t]*/.exec(line)![0];
    if (margin === undefined || indent.startsWith(margin)) {
      margin ??= indent;
      continue;
    }
    let i = 0;
    while (i < margin.length && i < indent.length && margin[i] === indent[i]) i++;
    margin = margin.slice(0, i);
  }
  if (!margin) return lines.map((l) => (l.trim() === '' ? '' : l)).join('\n');
  const m = margin;
  return lines.map((l) => (l.trim() === '' ? '' : l.startsWith(m) ? l.slice(m.length) : l)).join('\n');
}

/** Extracts bindings from program text. Escaped tokens and dotted tokens make no binding. */
export function extractBindings(text: string): { reads: string[]; writes: string[]; referenceRoots: string[] } {
  const reads: string[] = [];
  const writes: string[] = [];
  const roots: string[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const [, escape, colon, path] = match;
    if (escape) continue;
    const dotted = path!.includes('.');
    if (colon) {
      if (dotted) throw new NaturalParseError(`Write binding <:${path}> must be a simple name, not a dotted path.`);
      if (!writes.includes(path!)) writes.push(path!);
      continue;
    }
    const root = path!.split('.')[0]!;
    if (!roots.includes(root)) roots.push(root);
    if (!dotted && !reads.includes(path!)) reads.push(path!);
  }
  return { reads: reads.filter((n) => !writes.includes(n)), writes, referenceRoots: roots };
}

/** Turns `\<name>` escapes into the literal `<name>` the model should see. */
export function unescapeProgram(text: string): string {
  return text.replace(/\\</g, '<');
}

function parseFrontmatter(text: string): { body: string; deny: OutcomeKind[] } {
  const lines = text.split('\n');
  let first = 0;
  while (first < lines.length && lines[first]!.trim() === '') first++;
  if (lines[first] !== '---') return { body: text, deny: [] };
  const close = lines.indexOf('---', first + 1);
  if (close < 0) return { body: text, deny: [] };
  const yamlText = lines.slice(first + 1, close).join('\n');
  if (yamlText.trim() === '') return { body: text, deny: [] };
  let data: unknown;
  try {
    data = parseYaml(yamlText);
  } catch (error) {
    throw new NaturalParseError(`Frontmatter is not valid YAML: ${(error as Error).message}`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new NaturalParseError('Frontmatter must be a YAML mapping with a `deny` list.');
  }
  const keys = Object.keys(data);
  const unknown = keys.filter((k) => k !== 'deny');
  if (unknown.length) throw new NaturalParseError(`Unknown frontmatter key(s): ${unknown.join(', ')}. Only \`deny\` is allowed.`);
  const deny = (data as { deny?: unknown }).deny;
  if (!Array.isArray(deny) || deny.length === 0) {
    throw new NaturalParseError('Frontmatter `deny` must be a non-empty list of outcome kinds.');
  }
  for (const kind of deny) {
    if (!OUTCOME_KINDS.includes(kind as OutcomeKind)) {
      throw new NaturalParseError(`Frontmatter \`deny\` names unknown outcome kind '${String(kind)}'; use ${OUTCOME_KINDS.join(', ')}.`);
    }
  }
  const body = lines.slice(close + 1).join('\n').replace(/^\n+/, '');
  return { body, deny: deny as OutcomeKind[] };
}

const cache = new Map<string, NaturalProgram>();

/**
 * Parses a program that starts with its sentinel line (`execute\n…` or `decide\n…`).
 * Results are cached by text: the same block site parses once.
 */
export function parseProgram(source: string): NaturalProgram {
  const cached = cache.get(source);
  if (cached) return cached;
  const match = SENTINEL.exec(source);
  if (!match) {
    throw new NaturalParseError(
      'A Natural program must begin with `execute` or `decide` alone on its first line (no leading blank line or spaces).',
    );
  }
  const sentinel = match[1] as BlockSentinel;
  const { body, deny } = parseFrontmatter(dedent(source.slice(match[0].length)));
  const { reads, writes, referenceRoots } = extractBindings(body);
  if (sentinel === 'decide' && writes.length !== 1) {
    throw new NaturalParseError(
      `A decide block must declare exactly one write binding; found ${writes.length}${writes.length ? ` (${writes.join(', ')})` : ''}.`,
    );
  }
  const program: NaturalProgram = Object.freeze({
    sentinel,
    text: body,
    readBindingNames: Object.freeze(reads),
    writeBindingNames: Object.freeze(writes),
    referenceRoots: Object.freeze(referenceRoots),
    deniedOutcomes: Object.freeze(deny),
  });
  if (cache.size > 4096) cache.clear();
  cache.set(source, program);
  return program;
}

/** The outcome kinds a block may produce: syntactic cap minus frontmatter denials. */
export function allowedOutcomes(program: NaturalProgram, options: { inLoop: boolean; returnAllowed: boolean }): OutcomeKind[] {
  if (program.sentinel === 'decide') return program.deniedOutcomes.includes('pass') ? [] : ['pass'];
  const cap: OutcomeKind[] = ['pass'];
  if (options.returnAllowed) cap.push('return');
  if (options.inLoop) cap.push('break', 'continue');
  cap.push('raise');
  return cap.filter((k) => !program.deniedOutcomes.includes(k));
}
