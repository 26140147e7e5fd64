export {
  OpenAIModelClient,
  DEFAULT_OPENAI_MODEL,
  DEFAULT_OPENAI_BASE_URL,
  type OpenAIModelClientOptions,
  type BeforeRequestInfo,
  type RetryInfo,
} from './openai-client.js';
export {
  RecordingModelClient,
  ReplayModelClient,
  readCassette,
  normaliseRequest,
  type CassetteEntry,
  type CassetteRequest,
  type CassetteResponse,
  type ReplayOptions,
} from './cassette.js';
export {
  API_KEY_VARIABLE,
  ModelAuthenticationError,
  ModelRequestError,
  ModelTimeoutError,
  ModelRequestAbortedError,
  CassetteDivergenceError,
  CassetteFormatError,
} from './errors.js';
export {
  ScriptedModel,
  toolCall,
  type ScriptedModelOptions,
  type ScriptedResponse,
  type ScriptedToolCall,
  type ScriptedTurn,
  type ScriptedTurnInfo,
} from './scripted-model.js';

// Every error class this folder exports is frozen with its prototype before anything runs (see sealErrorClass).
import * as exported from './index.js';
import { sealErrorClasses } from '../core/index.js';
sealErrorClasses(exported);
