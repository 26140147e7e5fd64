export { hashSource, type ApprovalEvidence, type ApprovalRoute, type Submission } from './approval.js';
export { observeOwner, taskOwner, type BackgroundOwner, type OwnerObservation } from './background-owner.js';
export { OperatorControlError, SessionClosedError, SessionExitBlockedError, SubmissionRefusedError } from './errors.js';
export { Session, isSessionCallResult, type SessionAnomaly, type SessionFunction, type SessionOptions } from './session.js';
export { activeSession, setActiveSession } from './active-session.js';
export { operatorOnly } from './operator-only.js';

// Every error class this folder exports is frozen with its prototype before anything runs (see sealErrorClass).
import * as exported from './index.js';
import { sealErrorClasses } from '../core/index.js';
sealErrorClasses(exported);
