/**
 * Translation between the provider-neutral model types and OpenAI Chat Completions, in both
 * directions, including assembly of a streamed response from its chunks.
 */
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
} from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import type { ModelMessage, ModelResponse, ModelStreamEvent, ModelToolCall, ToolDefinition, Usage } from '../core/index.js';

export function toChatMessages(messages: readonly ModelMessage[]): ChatCompletionMessageParam[] {
  return messages.map((message): ChatCompletionMessageParam => {
    switch (message.role) {
      case 'system':
        return { role: 'system', content: message.content };
      case 'user':
        return { role: 'user', content: message.content };
      case 'assistant':
        // An empty tool_calls array is rejected by some servers, so it is omitted.
        return message.toolCalls.length === 0
          ? { role: 'assistant', content: message.content }
          : {
              role: 'assistant',
              content: message.content,
              tool_calls: message.toolCalls.map((call) => ({
                id: call.id,
                type: 'function' as const,
                function: { name: call.name, arguments: call.arguments },
              })),
            };
      case 'tool':
        return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    }
  });
}

export function toChatTools(tools: readonly ToolDefinition[]): ChatCompletionFunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: { ...tool.parameters } },
  }));
}

export function toUsage(usage: CompletionUsage | null | undefined): Partial<Usage> {
  if (!usage) return { requests: 1 };
  return { inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens, requests: 1 };
}

function toToolCall(call: ChatCompletionMessageToolCall): ModelToolCall {
  // Custom (free-text) tools carry their input as text; it reaches the executor like malformed JSON would.
  return call.type === 'function'
    ? { id: call.id, name: call.function.name, arguments: call.function.arguments }
    : { id: call.id, name: call.custom.name, arguments: call.custom.input };
}

/** Reads the first choice of a non-streamed completion; undefined when the server sent no choice. */
export function fromCompletion(completion: ChatCompletion): ModelResponse | undefined {
  const choice = completion.choices?.[0];
  if (!choice) return undefined;
  return {
    text: choice.message.content ?? null,
    toolCalls: (choice.message.tool_calls ?? []).map(toToolCall),
    usage: toUsage(completion.usage),
    model: completion.model,
    finishReason: choice.finish_reason ?? undefined,
  };
}

interface PartialToolCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * Accumulates streamed chunks into one response. Tool calls are keyed by their delta index and
 * returned in index order, which is the order the model emitted them.
 */
export class StreamAssembler {
  #text: string[] = [];
  #sawText = false;
  readonly #calls = new Map<number, PartialToolCall>();
  #usage: CompletionUsage | null | undefined;
  #model: string | undefined;
  #finishReason: string | undefined;
  readonly #emit: (event: ModelStreamEvent) => void;

  constructor(emit: (event: ModelStreamEvent) => void) {
    this.#emit = emit;
  }

  add(chunk: ChatCompletionChunk): void {
    this.#model ??= chunk.model;
    if (chunk.usage) this.#usage = chunk.usage;
    const choice = chunk.choices?.[0];
    if (!choice) return;
    if (choice.finish_reason) this.#finishReason = choice.finish_reason;
    const delta = choice.delta;
    if (typeof delta?.content === 'string' && delta.content.length > 0) {
      this.#sawText = true;
      this.#text.push(delta.content);
      this.#emit({ kind: 'text-delta', delta: delta.content });
    }
    for (const part of delta?.tool_calls ?? []) {
      const call = this.#calls.get(part.index) ?? { id: '', name: '', arguments: '' };
      if (part.id) call.id = part.id;
      if (part.function?.name) call.name += part.function.name;
      const argumentsDelta = part.function?.arguments ?? '';
      call.arguments += argumentsDelta;
      this.#calls.set(part.index, call);
      this.#emit({
        kind: 'tool-call-delta',
        index: part.index,
        ...(part.id ? { id: part.id } : {}),
        ...(part.function?.name ? { name: part.function.name } : {}),
        argumentsDelta,
      });
    }
  }

  finish(): ModelResponse {
    const toolCalls = [...this.#calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => ({ id: call.id || `call_${index}`, name: call.name, arguments: call.arguments }));
    return {
      text: this.#sawText ? this.#text.join('') : null,
      toolCalls,
      usage: toUsage(this.#usage),
      model: this.#model,
      finishReason: this.#finishReason,
    };
  }
}
