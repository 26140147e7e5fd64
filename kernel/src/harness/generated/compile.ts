/**
 * Guarded compilation of a validated CodeProposal in this realm. The host compiles and evaluates the
 * module (the raw-dynamic-execution rule restricts generated code, not the host); generated code then
 * runs only while `isLive()` holds, sees only its declared dependencies, and reaches its function
 * exports (including siblings inside the module) only through the host's export wrappers.
 */
import vm from 'node:vm';
import type TS from 'typescript';
import { ts } from './typescript-lazy.js';
import { isNaturalFunction, resumingIterator, type SeenAt } from '../../core/index.js';
import { markLateRefusal } from '../late-callbacks.js';
import { refuseRawDynamic } from '../raw-dynamic-runtime.js';
import type { CodeProposal } from './code-proposal.js';
import { checkDependencies, type DependencyMismatch, type GrantedDependency } from './dependencies.js';
import { definitionIdOf } from './definition-id.js';
import {
  DependencyMismatchError,
  GeneratedCodeOutsideDispatchError,
  GeneratedExportError,
  GeneratedSourceRejectedError,
  GuardSite,
  type RuntimeSpelling,
} from './errors.js';
import type { ExportInfo, ExportKind } from './export-kind.js';
import { ESCAPING_NAME, GEN_NAME, GUARD_NAME, RESUME_NAME, SITE_CODES, WRAP_NAME, guardTransformer } from './guard-transform.js';
import { SHADOW_NAMES, createRuntimeShadows } from './runtime-shadows.js';
import { analyzeProposal, type ValidateOptions } from './validate.js';
import { diagnosticViolations, sourceFileName } from './parse-generated.js';
import { isGuardEvasionRule, isRawDynamicExecutionRule, sortViolations, type Violation } from './violation.js';

// Captured at load: the run-time tier refuses `vm.*` to interior code, and this host compiler is not interior.
const compileFunction = vm.compileFunction;

export type GeneratedFunction = (...args: unknown[]) => unknown;

export type GeneratedCodeAnomaly =
  | { readonly kind: 'raw_dynamic_execution'; readonly phase: 'validation'; readonly definitionId: string; readonly violations: readonly Violation[] }
  | { readonly kind: 'generated_guard_evasion'; readonly phase: 'validation'; readonly definitionId: string; readonly violations: readonly Violation[] }
  | { readonly kind: 'raw_dynamic_execution'; readonly phase: 'runtime'; readonly definitionId: string; readonly spelling: RuntimeSpelling; readonly detail: string }
  | { readonly kind: 'generated_code_outside_dispatch'; readonly definitionId: string; readonly site: GuardSite };

export interface CompileOptions {
  /** Receives trace anomalies; a throwing recorder never turns a refusal into success. */
  readonly onAnomaly: (anomaly: GeneratedCodeAnomaly) => void;
  /** True while a generated execution of this definition may run (its dispatch node is nonterminal). */
  readonly isLive: () => boolean;
  /** Receives what a catch block of the live code caught, and exceptions leaving its functions; a throwing receiver changes nothing the code does. */
  readonly onCaught?: (caught: unknown, seenAt: SeenAt) => void;
  /** Values for the declared dependencies; undeclared entries are never bound. */
  readonly dependencies: Readonly<Record<string, unknown>>;
  /** When given, declarations are checked against the grant before anything runs. */
  readonly granted?: Readonly<Record<string, GrantedDependency>>;
  /** Host wrapper for each function export; sibling calls inside the module go through it too. */
  readonly wrapExport?: (name: string, fn: GeneratedFunction) => GeneratedFunction;
  /** Modules for static imports; default: Node built-ins except the forbidden ones. */
  readonly resolveModule?: (specifier: string) => unknown;
  readonly naturalFunctionNames?: readonly string[];
  /** Runs the module body under the interior mark of its dispatch node (the run-time raw-dynamic tier). */
  readonly runInterior?: <T>(fn: () => T) => T;
}

export interface CompiledDefinition {
  readonly definitionId: string;
  /** Function exports are host wrappers; the object is frozen. */
  readonly exports: Readonly<Record<string, unknown>>;
  /** Export kinds, refined by what each export turned out to be at materialisation. */
  readonly exportInfo: readonly ExportInfo[];
}

/** Transpiles source to the guarded CommonJS body that `compileGenerated` evaluates, with its syntax diagnostics. */
function instrument(proposal: CodeProposal, exportedLocals: ReadonlyMap<string, string>): TS.TranspileOutput {
  return ts.transpileModule(proposal.source, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, allowJs: true, removeComments: true },
    fileName: sourceFileName(proposal),
    reportDiagnostics: true,
    transformers: { before: [guardTransformer(exportedLocals)] },
  });
}

/** The guarded JavaScript for a proposal, for inspection; compileGenerated evaluates exactly this. */
export function instrumentGenerated(proposal: CodeProposal, options: ValidateOptions = {}): string {
  return instrument(proposal, analyzeProposal(proposal, options).analysis.exportedLocals).outputText;
}

const isClass = (fn: GeneratedFunction): boolean => /^class[\s{]/.test(Function.prototype.toString.call(fn));

function runtimeKind(staticKind: ExportKind, value: unknown): ExportKind {
  if (typeof value !== 'function') return staticKind;
  if (isNaturalFunction(value)) return 'natural-function';
  if (staticKind !== 'value') return staticKind;
  return (value as { [Symbol.toStringTag]?: string })[Symbol.toStringTag] === 'AsyncFunction' ? 'async-function' : 'function';
}

export function compileGenerated(proposal: CodeProposal, options: CompileOptions): CompiledDefinition {
  // Its one caller is the dispatcher, outside any mark: model code calling it would run source outside any dispatch node.
  refuseRawDynamic('compileGenerated');
  const definitionId = definitionIdOf(proposal);
  const record = (anomaly: GeneratedCodeAnomaly): void => {
    try {
      options.onAnomaly(anomaly);
    } catch {
      /* the refusal that follows is the outcome */
    }
  };

  // One parse for the rules and one transpile for both syntax diagnostics and the guarded output.
  const { analysis, violations: ruleViolations } = analyzeProposal(proposal, { naturalFunctionNames: options.naturalFunctionNames });
  const output = instrument(proposal, analysis.exportedLocals);
  const violations = sortViolations([...diagnosticViolations(output.diagnostics), ...ruleViolations]);
  if (violations.length > 0) {
    const raw = violations.filter((v) => isRawDynamicExecutionRule(v.rule));
    if (raw.length > 0) record({ kind: 'raw_dynamic_execution', phase: 'validation', definitionId, violations: raw });
    const evasion = violations.filter((v) => isGuardEvasionRule(v.rule));
    if (evasion.length > 0) record({ kind: 'generated_guard_evasion', phase: 'validation', definitionId, violations: evasion });
    throw new GeneratedSourceRejectedError({ definitionId, violations });
  }

  const declared = proposal.dependencies ?? [];
  if (options.granted) {
    const check = checkDependencies(declared, options.granted);
    if (!check.ok) throw new DependencyMismatchError({ mismatches: check.mismatches });
  }
  const supplied: DependencyMismatch[] = [];
  for (const d of declared) {
    const present = Object.prototype.hasOwnProperty.call(options.dependencies, d.name);
    if (!present) supplied.push({ kind: 'missing', name: d.name, declared: d });
    else if (d.kind === 'capability' && typeof options.dependencies[d.name] !== 'function')
      supplied.push({ kind: 'not-callable', name: d.name, declared: d });
  }
  if (supplied.length > 0) throw new DependencyMismatchError({ mismatches: supplied });

  // What a catch block caught (site 1, once it may run), or what leaves a function as an exception: the host may note it.
  const note = (caught: unknown, seenAt: SeenAt): void => {
    if (caught === undefined) return;
    try {
      options.onCaught?.(caught, seenAt);
    } catch {
      /* the note is the host's; the code goes on either way */
    }
  };
  const refuse = (code: number): never => {
    const site = SITE_CODES[code] ?? GuardSite.entry;
    record({ kind: 'generated_code_outside_dispatch', definitionId, site });
    // Recorded: where no caller can catch it (a timer, a promise job) the Harness absorbs it instead of ending the process.
    throw markLateRefusal(new GeneratedCodeOutsideDispatchError({ definitionId, site }));
  };
  const handOver = (code: number, caught: unknown): void => {
    if (!options.isLive()) refuse(code);
    note(caught, 'catch-block');
  };
  // What leaves a function: only noted (the function's own guards decided whether it may run).
  const escaping = (error: unknown): void => note(error, 'function-exit');
  // Called at every function entry and resumption: the common case (live, nothing caught) stays small enough to inline.
  const guard = (code: number, caught?: unknown): void => {
    if (caught !== undefined) handOver(code, caught);
    else if (!options.isLive()) refuse(code);
  };
  const resume = <T>(value: T): T => {
    guard(2);
    return value;
  };
  // The host proxy of a generated generator: one that escapes its dispatch can neither start nor resume afterwards.
  const generator = (inner: Generator | AsyncGenerator, isAsync: number): object => resumingIterator(inner, isAsync === 1, (go) => (guard(2), go()));
  const wrappers = new Map<GeneratedFunction, GeneratedFunction>();
  const wrapperSet = new WeakSet<GeneratedFunction>();
  const wrap = (name: string, value: unknown): unknown => {
    if (typeof value !== 'function') return value;
    const fn = value as GeneratedFunction;
    if (wrapperSet.has(fn)) return fn;
    let wrapper = wrappers.get(fn);
    if (!wrapper) {
      if (isClass(fn)) throw new GeneratedExportError({ exportName: name, reason: 'class' });
      wrapper = options.wrapExport ? options.wrapExport(name, fn) : fn;
      wrappers.set(fn, wrapper);
      wrapperSet.add(wrapper);
    }
    return wrapper;
  };

  const shadows = createRuntimeShadows({
    definitionId,
    report: (spelling, detail) => record({ kind: 'raw_dynamic_execution', phase: 'runtime', definitionId, spelling, detail }),
    resolveModule: options.resolveModule,
  });
  const moduleExports: Record<string, unknown> = {};
  const params = [...SHADOW_NAMES, 'exports', GUARD_NAME, RESUME_NAME, WRAP_NAME, GEN_NAME, ESCAPING_NAME, ...declared.map((d) => d.name)];
  // The outer function is sloppy so `eval` can be a parameter; the module body runs strict inside it.
  const body = `return (function () {\n${output.outputText}\n}).call(undefined);`;
  const evaluate = compileFunction(body, params, { filename: `nighthawk-generated/${definitionId.slice(7, 19)}.js` });
  const args = [...shadows, moduleExports, guard, resume, wrap, generator, escaping, ...declared.map((d) => options.dependencies[d.name])];
  const interior = <T>(fn: () => T): T => (options.runInterior ? options.runInterior(fn) : fn());
  interior(() => evaluate(...args));

  // Reading the exports can run generated code (a getter or setter on `exports`, a proxy prototype behind it, a
  // Symbol.toStringTag getter on an export, a built-in the checks call replaced by the body), still inside the live
  // node: it runs under the node's interior mark like the body itself, so the run-time raw-dynamic tier applies.
  return interior(() => {
    const exports: Record<string, unknown> = Object.create(null);
    const exportInfo = analysis.exports.map((info) => {
      const value = wrap(info.name, moduleExports[info.name]);
      moduleExports[info.name] = value;
      exports[info.name] = value;
      return { ...info, kind: runtimeKind(info.kind, value === undefined ? undefined : unwrapFor(wrappers, value) ?? value) };
    });
    Object.freeze(moduleExports);
    return { definitionId, exports: Object.freeze(exports), exportInfo };
  });
}

function unwrapFor(wrappers: ReadonlyMap<GeneratedFunction, GeneratedFunction>, wrapper: unknown): unknown {
  for (const [fn, w] of wrappers) if (w === wrapper) return fn;
  return undefined;
}
