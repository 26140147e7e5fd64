/**
 * CellCompiler on tslab@1.0.22's converter (TypeScript 5.0 fork, cross-cell declarations, last-expression
 * capture). tslab's own executor prints values and errors as text, so cells are run here instead: the
 * converted CommonJS runs with vm.runInThisContext (same realm and module cache as the kernel) with
 * `breakOnSigint`, awaiting cells race an interrupt promise, and values and errors come back structured.
 */
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import type * as TS from 'typescript';
import type { CellCompiler, CellDiagnostic, CellOutcome, CompletionResult, ExecuteOptions, InspectionResult, SourceTransform } from './cell-compiler.js';
import { expandShorthandProperties } from './cell-shorthand.js';
import { createLineMap } from './cell-lines.js';
import { runtimeError, typeScriptError } from './cell-errors.js';
import { findPackageSelf, installSelfReference } from './self-reference.js';
import { valueToBundle } from './value-bundle.js';

interface TslabDiagnostic {
  start: { line: number; character: number };
  messageText: string;
  category: number;
  code: number;
  fileName?: string;
}
interface TslabConverter {
  convert(prevDecl: string, src: string): {
    output?: string;
    declOutput?: string;
    diagnostics: TslabDiagnostic[];
    lastExpressionVar?: string;
    hasToplevelAwait?: boolean;
  };
  inspect(prevDecl: string, src: string, position: number): TS.QuickInfo | undefined;
  complete(prevDecl: string, src: string, position: number): { start: number; end: number; candidates: string[]; original?: { entries: ReadonlyArray<{ name: string; kind: string }> } };
  close(): void;
}
interface TslabConverterModule {
  createConverter(options: { isJS: boolean; isBrowser: boolean }): TslabConverter;
  isCompleteCode(src: string): { completed: boolean; indent?: string };
}

export interface TslabCompilerOptions {
  /** Directory cells resolve imports from; defaults to process.cwd(). tslab's compiler always uses cwd. */
  rootDir?: string;
  transform?: SourceTransform;
}

const CELL_SLOT = 'nighthawk.kernel.cell';
const CONVERSION_CACHE_SIZE = 64;
const INTERRUPTED = 'ERR_SCRIPT_EXECUTION_INTERRUPTED';

class Interrupted extends Error {}

/**
 * The compiler's CommonJS emit lists every exported name in `exports.a = exports.b = void 0;` lines;
 * import helpers can push those lines anywhere near the top, so every line is scanned.
 */
function declaredNames(output: string): string[] {
  const names: string[] = [];
  for (const line of output.split('\n')) {
    if (!/^exports\.[\w$]+ = (?:exports\.[\w$]+ = )*void 0;$/.test(line)) continue;
    for (const match of line.matchAll(/exports\.([\w$]+) =/g)) names.push(match[1]!);
  }
  return names;
}

/** Names bound by the cell's import declarations (`import x`, `import { a as b }`, `import * as ns`, `import y = require()`). */
function importedNames(ts: typeof TS, code: string): Set<string> {
  const names = new Set<string>();
  if (!/\bimport\b/.test(code)) return names;
  const file = ts.createSourceFile('cell.ts', code, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  for (const statement of file.statements) {
    if (ts.isImportEqualsDeclaration(statement)) names.add(statement.name.text);
    if (!ts.isImportDeclaration(statement) || !statement.importClause) continue;
    const clause = statement.importClause;
    if (clause.name) names.add(clause.name.text);
    const bindings = clause.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) names.add(bindings.name.text);
    if (bindings && ts.isNamedImports(bindings)) for (const el of bindings.elements) names.add(el.name.text);
  }
  return names;
}

function interruptedOutcome(): CellOutcome {
  return { kind: 'interrupted', ename: 'KeyboardInterrupt', evalue: 'Execution interrupted', traceback: ['KeyboardInterrupt: Execution interrupted'] };
}

export function createTslabCompiler(options: TslabCompilerOptions = {}): CellCompiler {
  const rootDir = options.rootDir ?? process.cwd();
  const transform = options.transform ?? ((source: string) => ({ code: source }));
  const load = createRequire(import.meta.url);
  const converterPath = load.resolve('tslab/dist/converter');
  const ts = createRequire(converterPath)('@tslab/typescript-for-tslab') as typeof TS;
  const self = findPackageSelf(rootDir);
  if (self) installSelfReference(ts.sys as Parameters<typeof installSelfReference>[0], self);
  const { createConverter, isCompleteCode } = load(converterPath) as TslabConverterModule;
  const converter = createConverter({ isJS: false, isBrowser: false });

  const locals: Record<string, unknown> = {};
  // TypeScript's CJS emit uses defineProperty for imports; plain writes keep later cells free to reassign.
  const exportsProxy = new Proxy(locals, {
    defineProperty(target, prop, attributes) {
      if (prop === '__esModule') return true;
      (target as Record<string | symbol, unknown>)[prop] = attributes.get ? (attributes.get as () => unknown)() : attributes.value;
      return true;
    },
  });
  const cellRequire = Module.createRequire(path.join(rootDir, '__cell__.js'));
  const cellSlot = { exports: exportsProxy, require: cellRequire, started: (): void => {} };
  (globalThis as Record<symbol, unknown>)[Symbol.for(CELL_SLOT)] = cellSlot;
  const slot = `globalThis[Symbol.for(${JSON.stringify(CELL_SLOT)})]`;

  let prevDecl = '';
  // Re-running an unchanged cell against unchanged declarations is the commonest notebook action, and the
  // conversion is then a pure function of the two texts. Cells that import are not cached: what they import
  // can change on disk.
  const conversions = new Map<string, ReturnType<TslabConverter['convert']>>();
  const convert = (decls: string, code: string): ReturnType<TslabConverter['convert']> => {
    if (/\bimport\b|\brequire\s*\(|\/\/\/\s*<reference/.test(code)) return converter.convert(decls, code);
    const key = `${decls}\u0000${code}`;
    const hit = conversions.get(key);
    if (hit) {
      conversions.delete(key);
      conversions.set(key, hit);
      return hit;
    }
    const result = converter.convert(decls, code);
    conversions.set(key, result);
    if (conversions.size > CONVERSION_CACHE_SIZE) conversions.delete(conversions.keys().next().value!);
    return result;
  };
  let rejectInterrupt: ((error: Error) => void) | undefined;
  // Sticky for the running cell: an interrupt that lands while the cell compiles still stops it.
  let executing = false;
  let interruptPending = false;

  async function execute(source: string, options: ExecuteOptions): Promise<CellOutcome> {
    executing = true;
    interruptPending = false;
    try {
      return await run(source, options);
    } finally {
      executing = false;
      interruptPending = false;
    }
  }

  async function run(source: string, { executionCount, onStart }: ExecuteOptions): Promise<CellOutcome> {
    let code: string;
    try {
      // tslab rewrites earlier cells' names but not `{ name }` shorthands; spelled out, they resolve.
      code = expandShorthandProperties(transform(source).code);
    } catch (error) {
      return runtimeError(error, undefined, executionCount);
    }
    const converted = convert(prevDecl, code);
    const errors = converted.diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error);
    if (errors.length > 0) return typeScriptError(errors, code);
    if (!converted.output) {
      prevDecl = converted.declOutput ?? '';
      return { kind: 'ok', value: undefined, declared: {} };
    }
    const output = converted.output;
    const lineMap = createLineMap(ts, code, output);
    const wrapped =
      `${slot}.started(); ` +
      (converted.hasToplevelAwait ? '(async function (exports, require) { ' : '(function (exports, require) { ') +
      output +
      `\n})(${slot}.exports, ${slot}.require)`;
    cellSlot.started = () => {
      if (interruptPending) throw new Interrupted('interrupted');
      onStart?.();
    };
    try {
      const returned: unknown = vm.runInThisContext(wrapped, { filename: `cell-${executionCount}`, breakOnSigint: true });
      if (converted.hasToplevelAwait) {
        const interrupted = new Promise<never>((_, reject) => {
          rejectInterrupt = reject;
          if (interruptPending) reject(new Interrupted('interrupted'));
        });
        try {
          await Promise.race([returned, interrupted]);
        } finally {
          rejectInterrupt = undefined;
        }
      }
    } catch (error) {
      if (error instanceof Interrupted || (error as { code?: unknown } | null)?.code === INTERRUPTED) {
        return interruptedOutcome();
      }
      return runtimeError(error, lineMap, executionCount, output.split('\n').length + 1);
    }
    prevDecl = converted.declOutput ?? '';
    const name = converted.lastExpressionVar;
    const declared: Record<string, unknown> = {};
    // Imported bindings are not what this cell declared: they are someone else's code.
    const imported = importedNames(ts, code);
    for (const n of declaredNames(output)) if (n !== name && n in locals && !imported.has(n)) declared[n] = locals[n];
    if (name === undefined || !(name in locals)) return { kind: 'ok', value: undefined, declared };
    const value = locals[name];
    delete locals[name];
    return { kind: 'ok', value: value === undefined ? undefined : valueToBundle(value), declared };
  }

  function complete(source: string, cursorPos: number): CompletionResult {
    const info = converter.complete(prevDecl, transform(source).code, cursorPos);
    // The editor shows an icon per kind; TypeScript's entry kinds ('local var' → 'variable').
    const kinds = new Map((info.original?.entries ?? []).map((e) => [e.name, String(e.kind)]));
    const types = info.candidates.map((c) => {
      const k = kinds.get(c) ?? '';
      return k === 'var' || k === 'local var' || k === 'parameter' ? 'variable' : k === 'local function' ? 'function' : k === 'type' || k === 'alias' ? 'type' : k;
    });
    return { matches: info.candidates, cursorStart: info.start, cursorEnd: info.end, types };
  }

  function diagnose(source: string): CellDiagnostic[] {
    let code: string;
    try {
      code = expandShorthandProperties(transform(source).code);
    } catch {
      return [];
    }
    // Checked against the declarations of the cells that ran; nothing runs and prevDecl is not moved.
    return convert(prevDecl, code).diagnostics
      .filter((d) => d.category === ts.DiagnosticCategory.Error || d.category === ts.DiagnosticCategory.Warning)
      .map((d) => ({
        line: d.start.line,
        character: d.start.character,
        message: typeof d.messageText === 'string' ? d.messageText : String(d.messageText),
        code: d.code,
        severity: d.category === ts.DiagnosticCategory.Error ? 'error' : 'warning',
      }));
  }

  function inspect(source: string, cursorPos: number): InspectionResult {
    const info = converter.inspect(prevDecl, transform(source).code, cursorPos);
    if (!info) return { found: false, text: '' };
    const signature = ts.displayPartsToString(info.displayParts);
    const docs = ts.displayPartsToString(info.documentation);
    return { found: signature.length > 0, text: docs ? `${signature}\n\n${docs}` : signature };
  }

  function isComplete(source: string): { status: 'complete' | 'incomplete' | 'invalid'; indent: string } {
    const result = isCompleteCode(source);
    return result.completed ? { status: 'complete', indent: '' } : { status: 'incomplete', indent: result.indent ?? '' };
  }

  return {
    execute,
    complete,
    inspect,
    diagnose,
    isComplete,
    rebind(name: string, value: unknown) {
      locals[name] = value;
    },
    interrupt() {
      if (!executing) return;
      interruptPending = true;
      rejectInterrupt?.(new Interrupted('interrupted'));
    },
    close() {
      converter.close();
    },
  };
}
