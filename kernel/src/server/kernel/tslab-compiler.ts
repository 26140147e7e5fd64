/**
 * CellCompiler on tslab@1.0.22's converter (TypeScript 5.0 fork, cross-cell declarations, last-expression
 * capture). tslab's own executor prints values and errors as text, so cells are run here instead: the
 * converted CommonJS runs with vm.runInThisContext (same realm and module cache as the kernel) with
 * `breakOnSigint`, awaiting cells race an interrupt promise, and values and errors come back structured.
 */
import { createHash, randomUUID } from 'node:crypto';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import type * as TS from 'typescript';
import type { CellCompiler, CellDiagnostic, CellOutcome, CompletionResult, ExecuteOptions, InspectionResult, SourceTransform } from './cell-compiler.js';
import { expandShorthandProperties } from './cell-shorthand.js';
import { createLineMap } from './cell-lines.js';
import { isCompleteSource } from './cell-complete.js';
import { CellFrames, cellSyntaxError, errorValueText, escapedErrorText, interruptedOutcome, runtimeError, typeScriptError } from './cell-errors.js';
import { prepareModuleSyntax, type PreparedModuleSyntax as PreparedCell } from './cell-module-syntax.js';
import { LocalModules } from './cell-local-modules.js';
import { bindingNames, survivingDeclarations } from './cell-declarations.js';
import { valueToBundle } from './value-bundle.js';
import { ConversionStore } from './conversion-store.js';
import { prepareCompilerSystem, WARM_UP_CELL, WARM_UP_ROUNDS } from './compiler-system.js';
import { discardStartupBlob, takeCompilerSnapshot, tslabPaths } from './compiler-snapshot.js';
import type { CompilerSnapshotHandoff } from './compiler-snapshot-slot.js';
import { CONVERTER_FIXES_VERSION, loadMendedConverter } from './tslab-converter-fixes.js';
import { documentationFromDisk } from './declaration-docs.js';
import type { FileSystemObservations, Observation } from './fs-observations.js';
import { sigintTakenOver } from './sigint-hold.js';
import { beginKernelWork, duringKernelWork } from './kernel-work.js';

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
}

/** A CellCompiler that can do its first, most expensive conversion ahead of the first cell. */
export interface TslabCompiler extends CellCompiler {
  /**
   * Converts (never runs) a cell importing the library, so the compiler parses and binds its declaration
   * files, and zod's and openai's, before anyone asks; the first real cell then reuses those source files.
   * Rounds after 0 convert further such cells (false: none left). Each conversion still builds a program and
   * a checker, and a first cell after only one conversion spent ~60 ms there against ~25 ms after six: the
   * checker's code was not optimized yet. Every round imports the library, so its files stay in the program.
   */
  warmUp(round?: number): boolean;
  /**
   * Whether tslab's compiler has built its program (by a warm-up, or by a cell whose conversion was not stored
   * from an earlier kernel). Until then, cells converted before are taken from disk without building it.
   */
  readonly built: boolean;
  /** A kernel before this one, here, stored a first cell's conversion (see ConversionStore.holdsFirstCells). */
  readonly holdsFirstCells: boolean;
  /** Builds the compiler's program now (about a second of one synchronous step), if it is not built yet. */
  buildProgram(): void;
  /**
   * Opens the watchers of a program built or adopted (from a snapshot) without them, now rather than after the
   * next cell: a spare does this before it is handed out. Until then the program's watchers wait, so that a
   * cell waiting for the program does not also wait for them (~0.2 s: node_modules is watched recursively).
   */
  openWatchers(): void;
}

/** How long a kernel with nobody waiting on it stays idle before it builds the compiler's program. */
export const WARM_UP_IDLE_MS = 1000;

/**
 * Builds the compiler's program once the kernel has had nothing to do for WARM_UP_IDLE_MS (a second of one
 * synchronous step): the cells of a notebook run again convert from disk meanwhile, and the next cell typed
 * by someone finds the program ready. `idleFor` says how long the kernel has been idle (0 while busy): a client
 * running a notebook sends each cell a few milliseconds after the last reply, and a build in such a gap would
 * hold the next cell for that second.
 */
export function warmUpWhenIdle(compiler: TslabCompiler, idleFor: () => number): void {
  const attempt = (): void => {
    if (compiler.built) return;
    const quiet = idleFor();
    if (quiet < WARM_UP_IDLE_MS) {
      setTimeout(attempt, WARM_UP_IDLE_MS - quiet).unref();
      return;
    }
    try {
      compiler.warmUp();
    } catch {
      // The next cell that needs the program meets the same failure and reports it.
    }
  };
  setTimeout(attempt, WARM_UP_IDLE_MS).unref();
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

const EXPORT_PREAMBLE = /^exports\.[\w$]+ = (?:exports\.[\w$]+ = )*void 0;$/;
const EXPORT_OWN = /^exports\.([\w$]+) = \1;$/;

/**
 * Adjusts the compiled cell before it runs. The `exports.a = … = void 0;` preamble is blanked (kept as an
 * empty line so line numbers hold): a cell that throws must not reset names it never reached. With a
 * binding hook, each `exports.x = x;` also reads the bound value back into the local (`const` becoming
 * `let` for that), so a function called later in the same cell is the approved adapter too.
 */
function prepareOutput(ts: typeof TS, output: string, names: ReadonlySet<string>, rebindLocals: boolean): string {
  const lines = output.split('\n').map((line) => {
    if (EXPORT_PREAMBLE.test(line)) return '';
    const own = rebindLocals ? EXPORT_OWN.exec(line) : null;
    return own && names.has(own[1]!) ? `${own[1]} = (exports.${own[1]} = ${own[1]}, exports.${own[1]});` : line;
  });
  let text = lines.join('\n');
  if (!rebindLocals || !/\bconst\b/.test(text)) return text;
  const file = ts.createSourceFile('cell.js', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const edits: number[] = [];
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement) || !(statement.declarationList.flags & ts.NodeFlags.Const)) continue;
    if (bindingNames(ts, statement).some((n) => names.has(n))) edits.push(statement.declarationList.getStart(file));
  }
  for (const at of edits.reverse()) text = `${text.slice(0, at)}let  ${text.slice(at + 'const'.length)}`;
  return text;
}


function endsWithSemicolon(source: string): boolean {
  const lines = source.split('\n').map((line) => line.replace(/\/\/[^'"`\n]*$/, '').trimEnd());
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.length > 0 && lines[lines.length - 1]!.endsWith(';');
}

/** The cell frames of this process's compiler (one per kernel process), for errors that escape every cell. */
let latestFrames: CellFrames | undefined;

/** An error no cell caught, described as a cell's own error is (cell frames, no kernel frames). */
export function describeEscapedError(error: unknown): string {
  return escapedErrorText(error, latestFrames);
}

let tslabModules: { ts: typeof TS; converter: TslabConverterModule } | undefined;

/** tslab's version, read from its package file once. */
let tslabVersionRead: string | undefined;
function tslabVersion(): string {
  if (tslabVersionRead === undefined) {
    const load = createRequire(import.meta.url);
    tslabVersionRead = String((load('tslab/package.json') as { version?: unknown }).version);
  }
  return tslabVersionRead;
}

/** What a compiler snapshot handed over (compiler-snapshot.ts), when this process started from one. */
let snapshot: CompilerSnapshotHandoff | undefined;

function loadTslabModules(): { ts: typeof TS; converter: TslabConverterModule } {
  if (tslabModules) return tslabModules;
  const { converterPath, tsPath } = tslabPaths();
  const handoff = takeCompilerSnapshot();
  if (handoff && handoff.converterPath === converterPath && handoff.tsPath === tsPath) {
    snapshot = handoff;
    tslabModules = { ts: handoff.ts, converter: handoff.converterModule as TslabConverterModule };
    return tslabModules;
  }
  const ts = createRequire(converterPath)('@tslab/typescript-for-tslab') as typeof TS;
  tslabModules = { ts, converter: loadMendedConverter(converterPath) as TslabConverterModule };
  return tslabModules;
}

/** A converter whose program's watchers have not opened yet (a snapshot's, or one built while a cell waited). */
interface Unarmed {
  converter: TslabConverter;
  /** Opens the program's watchers, then checks what it read once more (a change in between went unwatched). */
  arm(): boolean;
}

/**
 * The snapshot's converter, for the first compiler made for the directory it was built in, while everything its
 * program read still holds; otherwise it is closed and its blob deleted (the next kernel builds a fresh one).
 */
function adoptSnapshotConverter(rootDir: string, observations: FileSystemObservations): Unarmed | undefined {
  const handoff = snapshot;
  if (!handoff) return undefined;
  snapshot = undefined;
  const converter = handoff.converter as TslabConverter;
  let observed: Observation[] = [];
  let holds = false;
  if (handoff.rootDir === rootDir) {
    try {
      observed = JSON.parse(handoff.manifest) as Observation[];
      holds = observations.holds(observed);
    } catch {
      holds = false;
    }
    if (!holds) discardStartupBlob();
  }
  if (!holds) {
    converter.close(); // its watchers were never opened
    return undefined;
  }
  return {
    converter,
    arm: () => {
      handoff.armWatchers();
      if (observations.holds(observed)) return true;
      discardStartupBlob();
      return false;
    },
  };
}

/**
 * Loads tslab's converter and its TypeScript, module code only (no program, no file of the working directory
 * read): about 0.1 s with the code cache, which a kernel can spend while it waits for its first cell.
 * (Returns nothing: a declaration naming TypeScript's types here would reach the public ones.)
 */
export function preloadTslab(): void {
  loadTslabModules();
}

type Conversion = ReturnType<TslabConverter['convert']>;

export function createTslabCompiler(options: TslabCompilerOptions = {}): TslabCompiler {
  const rootDir = options.rootDir ?? process.cwd();
  const transform = options.transform ?? ((source: string) => ({ code: source }));
  const { ts, converter: { createConverter } } = loadTslabModules();
  const { observations, watchEvents, watchDeferral, self } = prepareCompilerSystem(ts.sys, rootDir);
  let unarmed = adoptSnapshotConverter(rootDir, observations);
  // The snapshot's converter, as the snapshot left it: its last conversion was the warm-up cell.
  let snapshotWarm = unarmed !== undefined;
  // Everything a conversion depends on besides the two texts and the file system it observes.
  const stored = ConversionStore.open<Conversion>(
    JSON.stringify([process.version, ts.version, tslabVersion(), CONVERTER_FIXES_VERSION, rootDir, self ? [self.name, self.root, [...self.files]] : null]),
    observations,
  );
  // Built at the first need (a warm-up, a conversion not stored, a completion): about a second of one
  // synchronous step that a cell converted before (by an earlier kernel, same texts) does not wait for.
  let converter: TslabConverter | undefined = unarmed?.converter;
  const live = (): TslabConverter => (converter ??= buildConverter());
  // A program built here opens its watchers as a snapshot's does (below): after the cell that waits for it.
  const buildConverter = (): TslabConverter => {
    watchDeferral.defer();
    let built: TslabConverter;
    try {
      built = createConverter({ isJS: false, isBrowser: false });
    } catch (error) {
      watchDeferral.arm();
      throw error;
    }
    unarmed = {
      converter: built,
      arm: () => {
        const read = JSON.parse(observations.manifest().json) as Observation[];
        watchDeferral.arm();
        return observations.holds(read);
      },
    };
    armLater(3000);
    return built;
  };
  // A snapshot's converter, or one just built, opens its watchers (~0.1-0.2 s) after the first cell, not
  // before it: shortly after a conversion, once no cell runs, or after a few seconds with none. A file changed
  // before then is caught by checking the observations again: the converter is dropped and the next
  // conversion builds a fresh one.
  let arming: ReturnType<typeof setTimeout> | undefined;
  const armLater = (delay: number): void => {
    if (!unarmed) return;
    clearTimeout(arming);
    arming = setTimeout(() => (executing ? armLater(delay) : armNow()), delay);
    arming.unref?.();
  };
  // Kernel work: opening the watchers checks what the program read, and may drop it for a rebuild.
  const armNow = (): void =>
    duringKernelWork(() => {
      clearTimeout(arming);
      const pending = unarmed;
      unarmed = undefined;
      if (!pending) return;
      if (!pending.arm() && converter === pending.converter) {
        converter = undefined;
        snapshotWarm = false;
        conversions.clear();
        pending.converter.close();
      }
    });
  armLater(3000);

  const locals: Record<string, unknown> = {};
  // What the running cell declares, which of those it has reached, and the host's binding hook.
  let cell: { names: ReadonlySet<string>; assigned: Set<string>; bind: ExecuteOptions['bind'] } | undefined;
  // TypeScript's CJS emit uses defineProperty for imports; plain writes keep later cells free to reassign.
  const exportsProxy = new Proxy(locals, {
    defineProperty(target, prop, attributes) {
      if (prop === '__esModule') return true;
      let value = attributes.get ? (attributes.get as () => unknown)() : attributes.value;
      if (cell && typeof prop === 'string' && cell.names.has(prop)) {
        cell.assigned.add(prop);
        if (cell.bind && typeof value === 'function') value = cell.bind(prop, value);
      }
      (target as Record<string | symbol, unknown>)[prop] = value;
      return true;
    },
  });
  const cellRequire = Module.createRequire(path.join(rootDir, '__cell__.js'));
  // A converted cell runs as a script in the global scope and finds its `exports` and `require` on a global
  // slot: present only from just before the script runs until its first statement takes it (and under a name
  // drawn per process), so code a model leaves running never finds the operator's `require` or cell scope there.
  const cellSlot = {
    exports: exportsProxy,
    require: new LocalModules(ts, (source) => transform(source).code).require(cellRequire, rootDir),
    started: (): void => {},
    __dirname: rootDir,
    __filename: path.join(rootDir, '__cell__.js'),
  };
  const slotKey = Symbol.for(`${CELL_SLOT}.${randomUUID()}`);
  const slot = `globalThis[Symbol.for(${JSON.stringify(slotKey.description)})]`;

  let prevDecl = '';
  const frames = new CellFrames();
  latestFrames = frames;
  // Re-running an unchanged cell against unchanged declarations is the commonest notebook action (and a cell
  // the server prepared ahead is converted before it runs): the conversion is then a function of the two texts
  // and of the files the program read. TypeScript's watch program learns of changes to those files only through
  // its watchers, so an entry stands while none of them fired or closed (a closed one: its file left the program
  // and could change unseen), imports included: exactly as fresh as converting again. Keyed by a hash: the
  // declarations grow with the Session and a joined key would copy them.
  // Before the program is built, a conversion stored by an earlier kernel is used while what it observed holds
  // (asked again at every use: no watcher reports changes yet). Not kept in memory: nothing would invalidate it.
  const conversions = new Map<string, { result: Conversion; watchEvents: number }>();
  const convert = (decls: string, code: string): Conversion => {
    const key = createHash('sha256').update(decls).update('\u0000').update(code).digest('base64');
    const hit = conversions.get(key);
    if (hit) {
      conversions.delete(key);
      if (hit.watchEvents === watchEvents.count) {
        conversions.set(key, hit);
        return hit.result;
      }
    }
    if (!converter && stored) {
      const found = stored.find(decls, code);
      if (found) return found.result;
    }
    const result = live().convert(decls, code);
    snapshotWarm = false;
    armLater(300);
    conversions.set(key, { result, watchEvents: watchEvents.count });
    if (conversions.size > CONVERSION_CACHE_SIZE) conversions.delete(conversions.keys().next().value!);
    if (stored) {
      // The observations are taken now, as this conversion saw them; the write waits until the cell has run.
      const manifest = observations.manifest();
      setImmediate(() => stored.save(decls, code, result, manifest));
    }
    return result;
  };
  let rejectInterrupt: ((error: Error) => void) | undefined;
  // Sticky for the running cell: an interrupt that lands while the cell compiles still stops it.
  let executing = false;
  let interruptPending = false;

  // A cell's preparation (run's synchronous part up to the cell's own script) is kernel work (kernel-work.ts): run
  // ends it just before that script, and execute as soon as run returns (a cell that never got that far), so
  // nothing the event loop runs while the cell is awaited counts as the kernel's own work.
  let endPreparation = (): void => {};
  async function execute(source: string, options: ExecuteOptions): Promise<CellOutcome> {
    executing = true;
    interruptPending = false;
    endPreparation = beginKernelWork();
    try {
      let outcome: Promise<CellOutcome>;
      try {
        outcome = run(source, options);
      } finally {
        endPreparation();
      }
      return await outcome;
    } finally {
      executing = false;
      interruptPending = false;
    }
  }

  /** Waits for `pending` unless the cell is interrupted first (then rejects with Interrupted). */
  async function untilInterrupted<T>(pending: T | Promise<T>): Promise<T> {
    const interrupted = new Promise<never>((_, reject) => {
      rejectInterrupt = reject;
      if (interruptPending) reject(new Interrupted('interrupted'));
    });
    try {
      return await Promise.race([pending, interrupted]);
    } finally {
      rejectInterrupt = undefined;
    }
  }

  /**
   * A cell's source as the converter takes it, the same for a run and for live diagnostics: the host's transform,
   * then `{ name }` shorthands spelled out (tslab rewrites earlier cells' names but not those; parsed with tslab's
   * TypeScript, already loaded: a second compiler would cost every kernel ~40 MB), then the module syntax fitted
   * (cell-module-syntax.ts). A transform that throws, throws here.
   */
  function prepare(source: string, executionCount?: number): PreparedCell {
    return prepareModuleSyntax(expandShorthandProperties(transform(source, executionCount === undefined ? undefined : { executionCount }).code, ts), ts);
  }

  async function run(source: string, { executionCount, onStart, bind: bindHook, describeError, awaitValue }: ExecuteOptions): Promise<CellOutcome> {
    let prepared: PreparedCell;
    try {
      prepared = prepare(source, executionCount);
    } catch (error) {
      return runtimeError(error, frames, describeError);
    }
    if (prepared.problems.length > 0) return cellSyntaxError(prepared.problems, prepared.code);
    const { code } = prepared;
    const converted = convert(prevDecl, code);
    const topLevelAwait = converted.hasToplevelAwait === true || prepared.topLevelAwait;
    const errors = converted.diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error);
    if (errors.length > 0) return typeScriptError(errors, code);
    if (!converted.output) {
      prevDecl = converted.declOutput ?? '';
      return { kind: 'ok', value: undefined, declared: {} };
    }
    const lastName = converted.lastExpressionVar;
    // Imported bindings are not what this cell declared: they are someone else's code.
    const imported = importedNames(ts, code);
    const names = new Set(declaredNames(converted.output).filter((n) => n !== lastName && !imported.has(n)));
    const output = prepareOutput(ts, converted.output, names, bindHook !== undefined);
    frames.remember(executionCount, createLineMap(ts, code, output), output.split('\n').length + 1);
    // One line before the cell's own, so its line numbers hold.
    // `__dirname` and `__filename` as a CommonJS module has them (@types/node declares them, so a cell using them
    // type-checks): the directory its relative imports resolve from. Not passed when this or an earlier cell declared
    // its own.
    const paths = (['__filename', '__dirname'] as const).filter((n) => !names.has(n) && !(n in locals));
    const wrapped =
      `(function (slot) { delete ${slot}; slot.started(); return ` +
      (topLevelAwait ? '(async ' : '(') + `function (${['exports', 'require', ...paths].join(', ')}) { ` +
      output +
      `\n})(${['slot.exports', 'slot.require', ...paths.map((n) => `slot.${n}`)].join(', ')}); })(${slot})`;
    cellSlot.started = () => {
      if (interruptPending) throw new Interrupted('interrupted');
      onStart?.();
    };
    const assigned = new Set<string>();
    cell = { names, assigned, bind: bindHook };
    try {
      Object.defineProperty(globalThis, slotKey, { value: cellSlot, configurable: true, enumerable: false, writable: false });
      let returned: unknown;
      endPreparation();
      try {
        returned = vm.runInThisContext(wrapped, { filename: `cell-${executionCount}`, breakOnSigint: !sigintTakenOver() });
      } finally {
        delete (globalThis as Record<symbol, unknown>)[slotKey]; // a script that never started leaves it otherwise
      }
      if (topLevelAwait) await untilInterrupted(returned);
    } catch (error) {
      // What ran before the throw stays, as in Jupyter and Deno: later cells see the names it reached.
      if (assigned.size > 0) prevDecl = survivingDeclarations(ts, prevDecl, converted.declOutput ?? '', names, assigned);
      if (error instanceof Interrupted || (error as { code?: unknown } | null)?.code === INTERRUPTED) {
        return interruptedOutcome();
      }
      return runtimeError(error, frames, describeError);
    } finally {
      cell = undefined;
    }
    prevDecl = converted.declOutput ?? '';
    const name = lastName;
    const declared: Record<string, unknown> = {};
    for (const n of names) if (n in locals) declared[n] = locals[n];
    if (name === undefined || !(name in locals)) return { kind: 'ok', value: undefined, declared };
    let value = locals[name];
    delete locals[name];
    if (awaitValue?.(value)) {
      try {
        value = await untilInterrupted(value as Promise<unknown>);
      } catch (error) {
        if (error instanceof Interrupted) return interruptedOutcome();
        return runtimeError(error, frames, describeError);
      }
    }
    // As in IPython: a trailing semicolon means "run it, show nothing" (`nh.displayLedger(...);`).
    if (endsWithSemicolon(source)) return { kind: 'ok', value: undefined, declared };
    return { kind: 'ok', value: value === undefined ? undefined : valueToBundle(value, (error) => errorValueText(error, frames)), declared };
  }

  function complete(source: string, cursorPos: number): CompletionResult {
    const info = live().complete(prevDecl, transform(source).code, cursorPos);
    // The editor shows an icon per kind; TypeScript's entry kinds ('local var' → 'variable').
    const kinds = new Map((info.original?.entries ?? []).map((e) => [e.name, String(e.kind)]));
    const types = info.candidates.map((c) => {
      const k = kinds.get(c) ?? '';
      return k === 'var' || k === 'local var' || k === 'parameter' ? 'variable' : k === 'local function' ? 'function' : k === 'type' || k === 'alias' ? 'type' : k;
    });
    return { matches: info.candidates, cursorStart: info.start, cursorEnd: info.end, types };
  }

  function diagnose(source: string): CellDiagnostic[] {
    let prepared: PreparedCell;
    try {
      prepared = prepare(source);
    } catch {
      return [];
    }
    if (prepared.problems.length > 0) {
      return prepared.problems.map((p) => ({ line: p.start.line, character: p.start.character, message: p.messageText, code: 0, severity: 'error' as const }));
    }
    // Checked against the declarations of the cells that ran; nothing runs and prevDecl is not moved.
    return convert(prevDecl, prepared.code).diagnostics
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
    const info = live().inspect(prevDecl, transform(source).code, cursorPos);
    if (!info) return { found: false, text: '' };
    const signature = ts.displayPartsToString(info.displayParts);
    // An installed declaration file was read without its JSDoc (declaration-docs.ts): the file on disk has it.
    const declarations = (info as { declarations?: () => readonly TS.Node[] }).declarations;
    const docs = ts.displayPartsToString(info.documentation) || (declarations ? documentationFromDisk(ts, declarations()) : '');
    return { found: signature.length > 0, text: docs ? `${signature}\n\n${docs}` : signature };
  }

  const isComplete = isCompleteSource;

  let canImportLibrary: boolean | undefined;
  function warmUp(round = 0): boolean {
    if (canImportLibrary === undefined) {
      try {
        cellRequire.resolve('nighthawk-ts');
        canImportLibrary = true;
      } catch {
        canImportLibrary = false; // cells here cannot import the library; nothing worth converting ahead
      }
    }
    if (!canImportLibrary) return false;
    if (round > 0) {
      const cell = WARM_UP_ROUNDS[round - 1];
      if (cell === undefined) return false;
      // Against no earlier cells, as the first real cell is; prevDecl is left as it is.
      live().convert('', cell);
      return true;
    }
    // A snapshot's converter has converted this cell already; converting it again costs a first, unoptimized
    // rebuild (~0.3 s) that the first real cell then pays instead, once.
    if (!snapshotWarm) live().convert(prevDecl, WARM_UP_CELL);
    // A cell's `import` becomes this require: loading the library's module graph through it now (the host
    // imported it as ESM) takes ~15 ms off the first cell. Nothing runs as a cell, nothing is counted.
    cellRequire('nighthawk-ts');
    return true;
  }

  // The compiler's own synchronous work, which the interrupt watchdog must not cut short (kernel-work.ts).
  return {
    warmUp: (round) => duringKernelWork(() => warmUp(round)),
    get built() {
      return converter !== undefined;
    },
    get holdsFirstCells() {
      return stored?.holdsFirstCells() ?? false;
    },
    buildProgram() {
      duringKernelWork(live);
    },
    openWatchers: armNow,
    execute,
    complete: (source, cursorPos) => duringKernelWork(() => complete(source, cursorPos)),
    inspect: (source, cursorPos) => duringKernelWork(() => inspect(source, cursorPos)),
    diagnose: (source) => duringKernelWork(() => diagnose(source)),
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
      clearTimeout(arming);
      converter?.close();
    },
  };
}
