/** Errors of generated-code validation and guarded execution. Messages are built from typed fields. */
import { NighthawkError } from '../../core/index.js';
import type { DependencyMismatch } from './dependencies.js';
import type { Violation } from './violation.js';

/** Where a guard refused: at a function entry, in a handler, after an await, or in an initializer. */
export const GuardSite = { entry: 'entry', handler: 'handler', resume: 'resume', initializer: 'initializer' } as const;
export type GuardSite = (typeof GuardSite)[keyof typeof GuardSite];

/** Validation rejected the proposal; nothing from it ran. */
export class GeneratedSourceRejectedError extends NighthawkError {
  readonly definitionId: string;
  readonly violations: readonly Violation[];
  constructor(options: { definitionId: string; violations: readonly Violation[] }) {
    const first = options.violations.slice(0, 3).map((v) => `${v.rule} at ${v.line}:${v.column}: ${v.message}`);
    const more = options.violations.length > 3 ? ` (+${options.violations.length - 3} more)` : '';
    super('generated-source-rejected', `Generated source ${options.definitionId} was rejected before running: ${first.join('; ')}${more}`);
    this.definitionId = options.definitionId;
    this.violations = options.violations;
  }
}

/** Generated code tried to start or resume while its dispatch was not live (for example an escaped helper). */
export class GeneratedCodeOutsideDispatchError extends NighthawkError {
  readonly definitionId: string;
  readonly site: GuardSite;
  constructor(options: { definitionId: string; site: GuardSite }) {
    super(
      'generated-code-outside-dispatch',
      `Generated code of ${options.definitionId} refused to run at a function ${options.site} because its dispatch is no longer live; ` +
        'invoke generated functions through dispatch.',
    );
    this.definitionId = options.definitionId;
    this.site = options.site;
  }
}

/** How generated code reached a shadowed dynamic-execution entry at run time. */
export type RuntimeSpelling = 'eval' | 'Function' | 'global-eval' | 'global-Function' | 'timer-string' | 'forbidden-module' | 'undeclared-module';

/** Thrown by the runtime shadows when generated code reaches raw dynamic execution the parser could not see. */
export class RawDynamicExecutionError extends NighthawkError {
  readonly definitionId: string;
  readonly spelling: RuntimeSpelling;
  constructor(options: { definitionId: string; spelling: RuntimeSpelling; detail: string }) {
    super('raw-dynamic-execution', `Generated code of ${options.definitionId} attempted raw dynamic execution (${options.spelling}): ${options.detail}`);
    this.definitionId = options.definitionId;
    this.spelling = options.spelling;
  }
}

/** Declared dependencies do not match what was granted or supplied. The body never ran. */
export class DependencyMismatchError extends NighthawkError {
  readonly mismatches: readonly DependencyMismatch[];
  constructor(options: { mismatches: readonly DependencyMismatch[] }) {
    const detail = options.mismatches
      .map((m) =>
        m.kind === 'missing'
          ? `'${m.name}' is not granted`
          : m.kind === 'kind-differs'
            ? `'${m.name}' is declared as ${m.declared} but granted as ${m.granted}`
            : m.kind === 'not-callable'
              ? `capability '${m.name}' was supplied as a value that cannot be called`
              : `'${m.name}' is declared as type ${m.declared} but granted as ${m.granted}`,
      )
      .join('; ');
    super('dependency-mismatch', `Generated source dependencies do not match the grant: ${detail}.`);
    this.mismatches = options.mismatches;
  }
}

/** An export turned out at materialisation to be a kind that is not exported (a class). */
export class GeneratedExportError extends NighthawkError {
  readonly exportName: string;
  readonly reason: 'class';
  constructor(options: { exportName: string; reason: 'class' }) {
    super('generated-export', `Export '${options.exportName}' is a class at materialisation; export a factory function instead.`);
    this.exportName = options.exportName;
    this.reason = options.reason;
  }
}

/** A module import the host does not provide to generated code. */
export class GeneratedModuleRefusedError extends NighthawkError {
  readonly specifier: string;
  readonly reason: 'forbidden' | 'unavailable';
  constructor(options: { specifier: string; reason: 'forbidden' | 'unavailable' }) {
    super(
      'generated-module-refused',
      options.reason === 'forbidden'
        ? `Module '${options.specifier}' runs constructed code and is not available to generated code.`
        : `Module '${options.specifier}' is not provided to generated code; declare what the source needs as a dependency.`,
    );
    this.specifier = options.specifier;
    this.reason = options.reason;
  }
}
