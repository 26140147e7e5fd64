export { mayContainNaturalBlocks } from './block-sentinel.js';
export { transformNaturalBlocks } from './transform.js';
export {
  TransformDiagnosticCode,
  formatTransformDiagnostic,
  type TransformDiagnostic,
  type TransformOptions,
  type TransformResult,
} from './types.js';
