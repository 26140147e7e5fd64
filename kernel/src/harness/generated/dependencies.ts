/**
 * Dependencies are declared by name and type (seed 001): a grant whose entry differs in kind or type
 * text is a typed rejection before the body runs, not a failure inside generated execution.
 */
import { ts } from './typescript-lazy.js';
import type { DependencyDeclaration, DependencyKind } from './code-proposal.js';
import { RESERVED_PREFIX } from './forbidden-names.js';
import type { Violation } from './violation.js';

export interface GrantedDependency {
  readonly kind: DependencyKind;
  readonly type: string;
}

export type DependencyMismatch =
  | { readonly kind: 'missing'; readonly name: string; readonly declared: DependencyDeclaration }
  | { readonly kind: 'kind-differs'; readonly name: string; readonly declared: DependencyKind; readonly granted: DependencyKind }
  | { readonly kind: 'type-differs'; readonly name: string; readonly declared: string; readonly granted: string }
  /** A capability was supplied as something that cannot be called. */
  | { readonly kind: 'not-callable'; readonly name: string; readonly declared: DependencyDeclaration };

export type DependencyCheck = { readonly ok: true } | { readonly ok: false; readonly mismatches: readonly DependencyMismatch[] };

/** Names the compiled module binds itself; a dependency may not take them. */
export const SHADOWED_NAMES: ReadonlySet<string> = new Set([
  'eval', 'Function', 'globalThis', 'global', 'self', 'window', 'setTimeout', 'setInterval', 'setImmediate',
  'require', 'exports', 'module', 'arguments', 'undefined', 'NaN', 'Infinity',
]);

/**
 * Canonical type text: printed from the parsed type so formatting differences do not count as a
 * mismatch, while any change in the type itself does.
 */
export function normalizeTypeText(text: string): string {
  const file = ts.createSourceFile('type.ts', `type __T = ${text};`, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  const statement = file.statements[0];
  const diagnostics = (file as unknown as { parseDiagnostics?: readonly unknown[] }).parseDiagnostics ?? [];
  if (file.statements.length !== 1 || !statement || !ts.isTypeAliasDeclaration(statement) || diagnostics.length > 0) {
    return text.replace(/\s+/g, ' ').trim();
  }
  const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });
  return printer.printNode(ts.EmitHint.Unspecified, statement.type, file).replace(/\s+/g, ' ').trim();
}

export function checkDependencies(
  declared: readonly DependencyDeclaration[],
  granted: Readonly<Record<string, GrantedDependency>>,
): DependencyCheck {
  const mismatches: DependencyMismatch[] = [];
  for (const d of declared) {
    const g = Object.prototype.hasOwnProperty.call(granted, d.name) ? granted[d.name] : undefined;
    if (!g) mismatches.push({ kind: 'missing', name: d.name, declared: d });
    else if (g.kind !== d.kind) mismatches.push({ kind: 'kind-differs', name: d.name, declared: d.kind, granted: g.kind });
    else if (normalizeTypeText(g.type) !== normalizeTypeText(d.type))
      mismatches.push({ kind: 'type-differs', name: d.name, declared: d.type, granted: g.type });
  }
  return mismatches.length === 0 ? { ok: true } : { ok: false, mismatches };
}

/** Declaration names must be plain identifiers the module can bind as parameters. */
export function checkDependencyNames(declared: readonly DependencyDeclaration[]): Violation[] {
  const out: Violation[] = [];
  const seen = new Set<string>();
  for (const d of declared) {
    const problem = !/^[A-Za-z_$][\w$]*$/.test(d.name) || ts.identifierToKeywordKind(ts.factory.createIdentifier(d.name)) !== undefined
      ? 'is not an identifier'
      : d.name.startsWith(RESERVED_PREFIX)
        ? 'uses the reserved guard prefix'
        : SHADOWED_NAMES.has(d.name)
          ? 'is bound by the host for every generated module'
          : seen.has(d.name)
            ? 'is declared twice'
            : undefined;
    if (problem) out.push({ rule: 'dependency-name', message: `Dependency '${d.name}' ${problem}.`, line: 0, column: 0 });
    seen.add(d.name);
  }
  return out;
}
