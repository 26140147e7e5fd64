/** Test helpers, published under `nighthawk-ts/testing` (as Temporal ships `testing`). */
export { ScriptedModel, toolCall, type ScriptedModelOptions, type ScriptedResponse, type ScriptedToolCall, type ScriptedTurn, type ScriptedTurnInfo } from './model/index.js';
