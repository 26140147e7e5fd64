export {
  CodeLanguage,
  DependencyKind,
  DispatchIntent,
  codeProposalSchema,
  dependencyDeclarationSchema,
  frozenProposal,
  parseCodeProposal,
  type CodeProposal,
  type DependencyDeclaration,
} from './code-proposal.js';
export {
  compileGenerated,
  instrumentGenerated,
  type CompileOptions,
  type CompiledDefinition,
  type GeneratedCodeAnomaly,
  type GeneratedFunction,
} from './compile.js';
export { definitionIdOf, normalizeSource } from './definition-id.js';
export {
  checkDependencies,
  normalizeTypeText,
  type DependencyCheck,
  type DependencyMismatch,
  type GrantedDependency,
} from './dependencies.js';
export {
  DependencyMismatchError,
  GeneratedCodeOutsideDispatchError,
  GeneratedExportError,
  GeneratedModuleRefusedError,
  GeneratedSourceRejectedError,
  GuardSite,
  RawDynamicExecutionError,
  type RuntimeSpelling,
} from './errors.js';
export { ExportKind, type ExportInfo } from './export-kind.js';
export { FORBIDDEN_MODULES, RESERVED_PREFIX } from './forbidden-names.js';
export { validateGeneratedSource, type ValidateOptions, type ValidationResult } from './validate.js';
export { ViolationRule, isRawDynamicExecutionRule, type Violation } from './violation.js';
