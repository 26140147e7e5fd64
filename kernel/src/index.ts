/**
 * Nighthawk TS: Natural functions with host oversight, a run harness, Sessions and parts.
 * This is the library's single entry point; each folder's index lists its public names.
 */
export * from './core/index.js';
export * from './model/index.js';
export * from './harness/index.js';
export * from './parts/index.js';
export * from './session/index.js';
// Explicit exports take precedence over the star exports above: the public interior-mark controls, refusal report,
// seams, expression compiler and membrane unwrapping refuse model code (the core and the harness use their own).
export {
  publicClaimFrozenWriteSight as claimFrozenWriteSight,
  publicClaimReflectWriteAnswer as claimReflectWriteAnswer,
  publicClaimInfrastructureRunner as claimInfrastructureRunner,
  publicCompileExpression as compileExpression,
  publicModelFacingFunction as modelFacingFunction,
  publicNoteUnmarkedModelCode as noteUnmarkedModelCode,
  publicOperatorValue as operatorValue,
  publicReenterInterior as reenterInterior,
  publicReportRefusal as reportRefusal,
  publicRunInterior as runInterior,
  publicRunOutsideInterior as runOutsideInterior,
  publicSetInfrastructureSeam as setInfrastructureSeam,
  publicSetLateRefusalSink as setLateRefusalSink,
  publicSetRealmSeam as setRealmSeam,
  publicSetRefusalSink as setRefusalSink,
} from './harness/index.js';
export { displayLedger, exportLedgerHtml, ledgerReportHtml, operatorApproval, parseAnswer, type LedgerReportOptions, type OperatorApprovalOptions } from './server/display/index.js';
