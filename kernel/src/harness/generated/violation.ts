/**
 * Validation findings: stable rule ids so callers, ledgers and tests can match on them. Kept free of `typescript` types: the public declarations reach
 * this file, and a declaration file importing `typescript` makes every notebook's type checker parse
 * typescript.d.ts (574 KB, ~12 MB of kernel memory).
 */

export const ViolationRule = {
  syntax: 'syntax',
  eval: 'eval',
  functionConstructor: 'function-constructor',
  computedGlobalAccess: 'computed-global-access',
  dynamicImport: 'dynamic-import',
  dynamicRequire: 'dynamic-require',
  forbiddenModule: 'forbidden-module',
  workerEval: 'worker-eval',
  withStatement: 'with-statement',
  timerString: 'timer-string',
  processBinding: 'process-binding',
  moduleLoad: 'module-load',
  reservedName: 'reserved-name',
  argumentsCallee: 'arguments-callee',
  debuggerStatement: 'debugger',
  generator: 'generator',
  coroutineMethod: 'coroutine-method',
  topLevelAwait: 'top-level-await',
  unsupportedSyntax: 'unsupported-syntax',
  classExport: 'class-export',
  exportForm: 'export-form',
  intentMismatch: 'intent-mismatch',
  dependencyName: 'dependency-name',
} as const;
export type ViolationRule = (typeof ViolationRule)[keyof typeof ViolationRule];

/** Rules that are the raw-dynamic-execution check of seed 001 (recorded as trace anomalies). */
const RAW_DYNAMIC_RULES: ReadonlySet<ViolationRule> = new Set<ViolationRule>([
  'eval',
  'function-constructor',
  'computed-global-access',
  'dynamic-import',
  'dynamic-require',
  'forbidden-module',
  'worker-eval',
  'with-statement',
  'timer-string',
  'process-binding',
  'module-load',
]);

export function isRawDynamicExecutionRule(rule: ViolationRule): boolean {
  return RAW_DYNAMIC_RULES.has(rule);
}

/** Rules against reaching or evading the host guards (seed 001): a refused attempt, so recorded as a trace anomaly too. */
const GUARD_EVASION_RULES: ReadonlySet<ViolationRule> = new Set<ViolationRule>(['reserved-name', 'arguments-callee', 'debugger']);

export function isGuardEvasionRule(rule: ViolationRule): boolean {
  return GUARD_EVASION_RULES.has(rule);
}

export interface Violation {
  readonly rule: ViolationRule;
  readonly message: string;
  /** 1-based line and column in the proposal's source; 0 when the finding concerns the proposal as a whole. */
  readonly line: number;
  readonly column: number;
}

/** Orders findings by position, then rule, so results are deterministic for equal input. */
export function sortViolations(violations: Violation[]): Violation[] {
  return violations.sort((a, b) => a.line - b.line || a.column - b.column || a.rule.localeCompare(b.rule));
}
