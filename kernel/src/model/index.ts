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
  type ScriptedResponse,
  type ScriptedToolCall,
  type ScriptedTurn,
  type ScriptedTurnInfo,
} from './scripted-model.js';
