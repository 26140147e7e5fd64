/** Public names of the kernel server. */
export { startServer, type NighthawkServer, type ServerOptions } from './server.js';
export type { CellCompiler, CellOutcome, CompletionResult, ExecuteOptions, InspectionResult, SourceTransform } from './cell-compiler.js';
export { createTslabCompiler, type TslabCompilerOptions } from './tslab-compiler.js';
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
export { KernelRuntime } from './kernel-runtime.js';
export type { KernelProcessConfig } from './kernel-process.js';
export { KernelManager, Kernel, KERNEL_NAME, type KernelManagerOptions } from './kernel-manager.js';
export { ContentsStore } from './contents.js';
export { MIME_BUNDLE, valueToBundle } from './value-bundle.js';
export { InputRequestError, KernelProcessError, RequestRefusedError, type InputFailure } from './errors.js';
export type { ChannelStats } from './channels.js';
