/**
 * The provider-neutral model interface the agent executor talks to. `model/` implements it for the
 * `openai` package, scripted models and cassettes; nothing in core knows a provider.
 */
import type { Usage } from './usage.js';

export interface ModelToolCall {
  readonly id: string;
  readonly name: string;
  /** Raw JSON text as the provider sent it; it may be malformed, and that is the model's error to fix. */
  readonly arguments: string;
}

export type ModelMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string | null; readonly toolCalls: readonly ModelToolCall[] }
  | { readonly role: 'tool'; readonly toolCallId: string; readonly name: string; readonly content: string };

/** A JSON Schema object describing a tool's arguments. */
export type JsonSchema = { readonly [key: string]: unknown };

export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
}

export interface ModelRequest {
  /** The whole conversation so far. Clients must not mutate or retain it beyond the call. */
  readonly messages: readonly ModelMessage[];
  /** Action tools followed by the output tool. */
  readonly tools: readonly ToolDefinition[];
  /** Name of the tool the model calls to finish the step (structured final output). */
  readonly outputToolName: string;
  readonly signal?: AbortSignal | undefined;
  /** A per-scope model choice; the client's default when absent. */
  readonly model?: string | undefined;
  /**
   * Set by a host that meters usage (a run's cost allocation). A client that reads its replies' bytes itself
   * calls it once per reply the provider sent, with the usage those bytes state, as soon as it has them and
   * before anything else parses the reply, so the count does not depend on code that may be tampered with
   * meanwhile (see OpenAIModelClient). The host still counts `ModelResponse.usage` where it says more.
   */
  readonly reportUsage?: ((usage: Partial<Usage>) => void) | undefined;
}

export interface ModelResponse {
  readonly text: string | null;
  /** Tool calls in emission order. */
  readonly toolCalls: readonly ModelToolCall[];
  readonly usage?: Partial<Usage> | undefined;
  readonly model?: string | undefined;
  readonly finishReason?: string | undefined;
}

/** Streaming deltas, for clients that can stream. */
export type ModelStreamEvent =
  | { readonly kind: 'text-delta'; readonly delta: string }
  | { readonly kind: 'tool-call-delta'; readonly index: number; readonly id?: string; readonly name?: string; readonly argumentsDelta: string };

export interface ModelClient {
  /** A short, non-secret label for records (`openai:gpt-4o-mini`, `scripted`). */
  readonly label: string;
  /**
   * The origins (`https://api.openai.com`) a request of this client connects to: while one is sent under a run's
   * host, the network is admitted to those only. Undeclared or empty: none (a client that connects must say
   * where). `ANY_NETWORK_ORIGIN` (`'*'`) in the list admits every host, for a client whose destinations are
   * operator code's to choose. Read once, when an AgentExecutor is built with the client.
   */
  readonly networkOrigins?: readonly string[];
  request(request: ModelRequest, options?: { onStream?: (event: ModelStreamEvent) => void }): Promise<ModelResponse>;
}

/** In `ModelClient.networkOrigins`: the client's requests may connect anywhere. */
export const ANY_NETWORK_ORIGIN = '*';

/**
 * A copy (frozen) of declared network origins, for whoever reads them once (the AgentExecutor when built, the host
 * at each request, a client from its options): undefined when none are declared; a TypeError naming `owner` when
 * `origins` is not a list of strings.
 */
export function copyNetworkOrigins(origins: unknown, owner: string): readonly string[] | undefined {
  if (origins === undefined) return undefined;
  // Index reads and built-ins captured at load: the host copies at each request, where model code may have
  // replaced `Array.prototype.every` or the array iterator.
  const bad = (): TypeError => new TypeErrorCtor(`${owner} networkOrigins must be a list of origins (strings such as "https://api.openai.com").`);
  if (!isArray(origins)) throw bad();
  const copy: string[] = [];
  for (let i = 0; i < origins.length; i++) {
    const origin: unknown = origins[i];
    if (typeof origin !== 'string') throw bad();
    // Defined, not assigned: an index setter on Array.prototype would see an assignment.
    defineProperty(copy, i, { value: origin, writable: true, enumerable: true, configurable: true });
  }
  return freeze(copy);
}

const isArray = Array.isArray;
const freeze = Object.freeze;
const defineProperty = Object.defineProperty;
const TypeErrorCtor = TypeError;
