export { explore } from './explore.js';
export { PROPOSE_PROGRAM as EXPLORATION_PROGRAM, explorationProposalSchema } from './program.js';
export {
  findingSchema,
  type AcceptanceCheck,
  type ExplorationAttempt,
  type ExplorationEvidence,
  type ExplorationOptions,
  type ExplorationResult,
  type Finding,
} from './types.js';
