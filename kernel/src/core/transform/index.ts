export { mayContainNaturalBlocks } from './block-literal.js';
export { transformNaturalBlocks } from './transform.js';
export {
  TransformDiagnosticCode,
  formatTransformDiagnostic,
  type TransformDiagnostic,
  type TransformOptions,
  type TransformResult,
} from './types.js';
