/**
 * A model backed by a function, for tests and demos (the analogue of pydantic-ai's FunctionModel).
 * The function sees the conversation and the offered tools and returns the next response.
 */
import { copyNetworkOrigins } from '../core/index.js';
import type {
  ModelClient,
  ModelMessage,
  ModelRequest,
  ModelResponse,
  ModelToolCall,
  ToolDefinition,
  Usage,
} from '../core/index.js';

export interface ScriptedTurnInfo {
  readonly tools: readonly ToolDefinition[];
  /** Output tools, first one is the one to call to finish (`outputTools[0].name`). */
  readonly outputTools: readonly ToolDefinition[];
  readonly functionTools: readonly ToolDefinition[];
  /** 1-based index of this request over the model's lifetime. */
  readonly requestNumber: number;
  readonly model: string | undefined;
}

/** A tool call written by a script; arguments may be an object (serialised for you) or raw text. */
export interface ScriptedToolCall {
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>> | string;
  readonly id?: string;
}

export interface ScriptedResponse {
  readonly text?: string | null;
  readonly toolCalls?: readonly ScriptedToolCall[];
  readonly usage?: Partial<Usage>;
}

export type ScriptedTurn = (messages: readonly ModelMessage[], info: ScriptedTurnInfo) => ScriptedResponse | Promise<ScriptedResponse>;

/** Shorthand for a scripted tool call. */
export function toolCall(name: string, args: Readonly<Record<string, unknown>> | string, id?: string): ScriptedToolCall {
  return id === undefined ? { name, arguments: args } : { name, arguments: args, id };
}

export interface ScriptedModelOptions {
  /** Where the turns connect while a request is sent (ModelClient.networkOrigins): by default nowhere. */
  readonly networkOrigins?: readonly string[];
}

export class ScriptedModel implements ModelClient {
  readonly label = 'scripted';
  readonly networkOrigins: readonly string[] | undefined;
  #requests = 0;
  #turns: readonly ScriptedTurn[] | undefined;
  #handler: ScriptedTurn | undefined;

  /** A single function for every turn, or a list of turns consumed in order. */
  constructor(script: ScriptedTurn | readonly ScriptedTurn[], options: ScriptedModelOptions = {}) {
    if (typeof script === 'function') this.#handler = script;
    else this.#turns = script;
    this.networkOrigins = copyNetworkOrigins(options.networkOrigins, 'ScriptedModel');
  }

  get requestCount(): number {
    return this.#requests;
  }

  /** Throws unless every listed turn was used (list form only). */
  assertComplete(): void {
    if (this.#turns && this.#requests !== this.#turns.length) {
      throw new Error(`ScriptedModel used ${this.#requests} of ${this.#turns.length} scripted turns.`);
    }
  }

  async request(request: ModelRequest): Promise<ModelResponse> {
    request.signal?.throwIfAborted();
    const n = ++this.#requests;
    const turn = this.#handler ?? this.#turns?.[n - 1];
    if (!turn) throw new Error(`ScriptedModel has no turn for request ${n}.`);
    const outputTools = request.tools.filter((t) => t.name === request.outputToolName);
    const info: ScriptedTurnInfo = {
      tools: request.tools,
      outputTools,
      functionTools: request.tools.filter((t) => t.name !== request.outputToolName),
      requestNumber: n,
      model: request.model,
    };
    const response = await turn(request.messages, info);
    const toolCalls: ModelToolCall[] = (response.toolCalls ?? []).map((c, i) => ({
      id: c.id ?? `call_${n}_${i}`,
      name: c.name,
      arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
    }));
    return { text: response.text ?? null, toolCalls, usage: response.usage ?? { inputTokens: 0, outputTokens: 0 } };
  }
}
Object.freeze(ScriptedModel.prototype); // shared by every run in the process: model code replaces no method
