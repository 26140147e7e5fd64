/** Kernel processes and the cell engine: the runtime behind both transports, tslab conversion, host contract. */
export type { CellCompiler, CellOutcome, CompletionResult, ExecuteOptions, InspectionResult, SourceTransform } from './cell-compiler.js';
export { createTslabCompiler, describeEscapedError, preloadTslab, warmUpWhenIdle, type TslabCompiler, type TslabCompilerOptions } from './tslab-compiler.js';
export { codeCacheDir, codeCacheStale, installCodeCache, saveCodeCache } from './code-cache.js';
export { KERNEL_ENV, withKernelEnv } from './kernel-env.js';
export {
  noopKernelHost,
  type CellResult,
  type CellScope,
  type CellSubmission,
  type DisplayOptions,
  type InputOptions,
  type KernelChannel,
  type KernelHost,
  type KernelHostContext,
  type KernelHostFactory,
} from './kernel-host.js';
export { KernelRuntime, KERNEL_INFO } from './kernel-runtime.js';
export type { KernelProcessConfig } from './kernel-process.js';
export { KernelManager, Kernel, KERNEL_NAME, type KernelManagerOptions } from './kernel-manager.js';
export { answerFrames, makeMessage, replyType } from './kernel-messages.js';
export { MIME_BUNDLE, valueToBundle } from './value-bundle.js';
export { installCellOutputBridge, type CellOutputTarget } from './cell-output-bridge.js';
export { InputRequestError, KernelProcessError, RequestRefusedError, type InputFailure } from './errors.js';
export { rateLimitedLog, type RateLimitedLog, type RateLimitOptions } from './rate-limited-log.js';
export { startSignalWatchdog } from './interrupt-watchdog.js';
export { isCompleteSource, type CompletenessReply } from './cell-complete.js';
export { cullIdleKernels, type CullOptions } from './kernel-culler.js';
export { CommandLineError, parseCommandLine } from './command-line.js';
