export { AgentExecutor, type AgentExecutorOptions } from './agent-executor.js';
export { inferSchema, toJsonSchema, typeLabel } from './binding-types.js';
export type { BlockResult, BlockSpec } from './block-spec.js';
export {
  currentExecutionRef,
  currentState,
  currentStepContext,
  currentUsageMeter,
  handStepAdmission,
  run,
  scope,
  type ExecutionRef,
  type RequestAdmission,
  type CoreRunOptions,
  type RuntimeState,
  type ScopeOptions,
} from './context.js';
export {
  BindingResolutionError,
  ExecutionError,
  DependencyUnavailableError,
  NaturalParseError,
  NighthawkError,
  OperationDeliveryError,
  OperationRejectedError,
  OutputValidationError,
  OversightContractError,
  StepAbortedError,
  TerminalOperationError,
  UnassignedWriteBindingError,
  UsageError,
  describeError,
  isInstance,
  isNighthawkError,
  isTerminalOperationError,
  sealErrorClass,
  sealErrorClasses,
  StepControlRefusedError,
  ScopeAuthorityError,
  SecretRegistrationError,
  type ErrorKind,
  type StepAbortSubject,
} from './errors.js';
export { compileExpression, parseTargetPath } from './expression.js';
export { claimReflectWriteAnswer, facingArguments, facingStructuredClone, MODEL_FACING, modelFacing, modelFacingFunction, modelFacingReference, nextModelFacingEpoch, operatorValue, operatorValueDeep } from './model-facing.js';
export { PrivateAsyncContext, privateAsyncContextInUse } from './private-context.js';
export { isCoreRecord } from './provenance.js';
export { currentOperationBody, insideOperationBody, modelCodeRunning } from './operation-body.js';
export { currentInterior, interiorParentId, interiorRefusal, noteUnmarkedModelCode, probedMark, reenterInterior, runInterior, runOutsideInterior, taintedByModelCode, unmarkedModelCode, type InteriorMark, type InteriorRefusal } from './interior.js';
export { untilStopped } from './until-stopped.js';
export {
  ExpressionCodeOutsideExecutionError,
  ExpressionNotGuardableError,
  UNGUARDABLE_GUIDANCE,
  UNGUARDABLE_REASON,
  SUPER_GENERATOR_GUIDANCE,
  SUPER_GENERATOR_REASON,
  expressionRefusal,
  type Unguardable,
  setLateRefusalSink,
  unguardableExpression,
  type ExpressionCodeRefusal,
  type LateRefusalSink,
} from './expression-guard.js';
export { hasRegisteredSecrets, redactionsIn, redactText, redactTextNoting, redactValue, registerEnvSecret, registerSecret, registeredSecretNames, secretsIn, secretsInText } from './secrets.js';
export { monotonicMs, newId, wallClockMs } from './ids.js';
export type {
  JsonSchema,
  ModelClient,
  ModelMessage,
  ModelRequest,
  ModelResponse,
  ModelStreamEvent,
  ModelToolCall,
  ToolDefinition,
} from './model-client.js';
export { ANY_NETWORK_ORIGIN, copyNetworkOrigins } from './model-client.js';
export {
  isNaturalFunction,
  isSpecNaturalFunction,
  isTransformedNaturalFunction,
  naturalFunction,
  naturalFunction as function,
  step,
  type NaturalFunction,
  type NaturalFunctionOptions,
  type TransformMeta,
} from './natural-function.js';
export {
  FROZEN_WRITE_GUIDANCE,
  isFrozenWriteMessage,
  isModelFrozenWrite,
  OperationKind,
  OperationStatus,
  type OperationFailure,
  type OperationFinished,
  type OperationRejection,
  type OperationRequest,
} from './operation.js';
export { claimFrozenWriteSight, frozenWriteMessage, type SeenAt } from './frozen-write-sight.js';
export { OUTPUT_TOOL_NAME } from './output-schema.js';
export {
  abortStep,
  accept,
  checkOperationDecision,
  checkStepCommitDecision,
  rejectOperation,
  rewrite,
  type AbortStep,
  type Accept,
  type OperationDecision,
  type Oversight,
  type RejectOperation,
  type Rewrite,
  type StepCommitDecision,
} from './oversight.js';
export {
  OUTCOME_KINDS,
  OutcomeKind,
  allowedOutcomes,
  dedent,
  extractBindings,
  hasSentinel,
  parseProgram,
  unescapeProgram,
  type BlockSentinel,
  type NaturalProgram,
} from './program.js';
export {
  DEFAULT_PROMPT_LIMITS,
  SNIPPED,
  describeCallable,
  estimateTokens,
  previewValue,
  renderSystemPrompt,
  renderUserPrompt,
  type PromptLimits,
} from './prompt.js';
export {
  Break,
  Continue,
  Pass,
  Raise,
  Return,
  type StepCandidate,
  type StepCommit,
  type StepExecutor,
  type StepFinished,
  type StepOutcome,
  type StepRequest,
  type StepStatus,
} from './step.js';
export {
  BindingValidationError,
  StepContext,
  assignBinding,
  evaluateExpression,
  type AssignResult,
  type OperationResult,
} from './step-context.js';
export { runBlock } from './step-runner.js';
export { defineTool, describeIssues, isParsedToolArguments, type ArgumentsParse, type ToolSpec } from './tool.js';
export { addUsage, usageCount, UsageMeter, ZERO_USAGE, type Usage } from './usage.js';
export * from './transform/index.js';
export { reportRefusal, setRefusalSink, type RefusalSink } from './refusal-sink.js';
export { setRealmSeam, type RealmSeam } from './realm-seam.js';
export { claimInfrastructureRunner, setInfrastructureSeam, type InfrastructureRunner } from './infrastructure-seam.js';
export { resumingIterator } from './resuming-iterator.js';
export { FrozenMap, FrozenSet } from './frozen-collections.js';

// Every error class this folder exports is frozen with its prototype before anything runs (see sealErrorClass).
import * as exported from './index.js';
import { sealErrorClasses } from './errors.js';
sealErrorClasses(exported);
