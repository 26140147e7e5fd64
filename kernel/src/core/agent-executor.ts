/**
 * The agent executor: the project's own loop over a ModelClient. Tool calls in one response are
 * handled in emission order; a refusal skips the later calls of that response (seed 000), a failed
 * operation does not. Return expressions are resolved here as inspected `output` operations.
 */
import { z, type ZodType } from 'zod';
import { toJsonSchema } from './binding-types.js';
import { requireState, stepAdmissionOf, type RuntimeState } from './context.js';
import { describeIssues, markParsedToolArguments, type ArgumentsParse } from './tool.js';
import { ExecutionError, NighthawkError, UsageError, describeError, isInstance } from './errors.js';
import { redactText, redactValue, secretsVersion } from './secrets.js';
import { parseTargetPath } from './expression.js';
import { copyNetworkOrigins, type ModelClient, type ModelMessage, type ModelToolCall, type ToolDefinition } from './model-client.js';
import type { Usage } from './usage.js';
import { FROZEN_WRITE_GUIDANCE, isModelFrozenWrite, type OperationFinished, type OperationKind, type OperationRequest } from './operation.js';
import { OUTPUT_TOOL_NAME, decideToolSchema, outputToolSchema, type OutputProposal } from './output-schema.js';
import { DEFAULT_PROMPT_LIMITS, previewValue, renderSystemPrompt, renderUserPrompt, type PromptLimits } from './prompt.js';
import { Raise, Return, type StepCandidate, type StepExecutor, type StepOutcome, type StepRequest } from './step.js';
import { markAssigned, typesOf, validateWith, type AssignResult, type StepContext } from './step-context.js';

export interface AgentExecutorOptions {
  readonly model: ModelClient;
  readonly limits?: Partial<PromptLimits>;
  /** How many times the model may fail to produce a usable output before the step fails. */
  readonly outputRetries?: number;
  /** Hard bound on model requests per step. */
  readonly maxRequestsPerStep?: number;
  readonly systemPromptFragments?: readonly string[];
}

/** A tool as the loop sees it: argument schema, request builder and body. */
interface Handler {
  readonly kind: OperationKind;
  readonly definition: ToolDefinition;
  readonly input: ZodType;
  /** The tool's own argument check (ToolSpec.parseArguments), used in place of `input.safeParse`. */
  readonly parse?: (value: unknown) => ArgumentsParse;
  request(ctx: StepContext, args: Record<string, unknown>): OperationRequest;
  body(ctx: StepContext, args: Record<string, unknown>): unknown;
  /** The body takes the arguments as the model sent them (the tool validates its request itself). */
  readonly rawArguments?: boolean;
  /** Model-visible payload of a completed call. */
  present(value: unknown, limits: PromptLimits): unknown;
}

const evaluateInput = z.strictObject({ expression: z.string().min(1) });
const assignInput = z.strictObject({ target_path: z.string().min(1), expression: z.string().min(1) });

const builtins: readonly Handler[] = [
  {
    kind: 'evaluate',
    definition: {
      name: 'nh_evaluate',
      description: 'Evaluate one JavaScript expression (await allowed) against the step locals and globals; returns its value.',
      parameters: toJsonSchema(evaluateInput),
    },
    input: evaluateInput,
    request: (ctx, a) => ctx.newRequest('evaluate', { toolName: 'nh_evaluate', expression: a.expression as string }),
    body: (ctx, a) => ctx.evaluateBody(a.expression as string),
    present: (value, limits) => previewPayload(value, limits),
  },
  {
    kind: 'assign',
    definition: {
      name: 'nh_assign',
      description: 'Set a write binding or a field of a local: target_path is name or name.field; expression is JavaScript.',
      parameters: toJsonSchema(assignInput),
    },
    input: assignInput.refine((a) => typeof parseTargetPath(a.target_path) !== 'string', {
      message: 'target_path must be a name or a dotted path of identifiers, with no segment starting with __',
      path: ['target_path'],
    }),
    request: (ctx, a) =>
      ctx.newRequest('assign', { toolName: 'nh_assign', targetPath: a.target_path as string, expression: a.expression as string }),
    body: async (ctx, a) => {
      const path = a.target_path as string;
      return ctx.assignValue(path, parseTargetPath(path) as string[], await ctx.evaluateBody(a.expression as string));
    },
    present: (value, limits) => {
      const r = value as AssignResult;
      return { target_path: r.targetPath, revision: r.revision, value: previewPayload(r.value, limits).value, ...(r.note ? { note: r.note } : {}) };
    },
  },
];

function previewPayload(value: unknown, limits: PromptLimits): { value: unknown; truncated?: true } {
  const { text, truncated, json } = previewValue(value, limits.toolResultMaxTokens);
  // A preview cut mid-structure has no structure left: the model sees its text.
  const shown = json !== undefined ? json : text;
  return truncated ? { value: shown, truncated: true } : { value: shown };
}

export class AgentExecutor implements StepExecutor {
  readonly model: ModelClient;
  readonly limits: PromptLimits;
  readonly outputRetries: number;
  readonly maxRequestsPerStep: number;
  readonly systemPromptFragments: readonly string[];
  /** The client's declared network origins, copied when built (a later edit of the client changes nothing). */
  readonly #origins: readonly string[] | undefined;

  constructor(options: AgentExecutorOptions) {
    if (!options?.model || typeof options.model.request !== 'function') {
      throw new TypeError('AgentExecutor needs a model: an object implementing ModelClient.');
    }
    this.model = options.model;
    this.#origins = copyNetworkOrigins(options.model.networkOrigins, 'ModelClient');
    this.limits = { ...DEFAULT_PROMPT_LIMITS, ...options.limits };
    this.outputRetries = options.outputRetries ?? 2;
    this.maxRequestsPerStep = options.maxRequestsPerStep ?? 50;
    this.systemPromptFragments = options.systemPromptFragments ?? [];
  }

  async runStep(request: StepRequest): Promise<StepCandidate> {
    const ctx = request.stepContext;
    const state = requireState('AgentExecutor.runStep');
    // No allowed kind means an output tool no answer satisfies (an empty anyOf): refuse before spending requests.
    if (ctx.allowedOutcomes.length === 0) throw noOutcomeAllowed(ctx, state);
    // A host hands its admission to this executor privately; a plain core run may put one in the scope.
    const admission = stepAdmissionOf(request) ?? state.requestAdmission;
    const handlers = this.#handlers(ctx, state);
    const definitions = [...handlers.values()].map((h) => h.definition);
    const messages: ModelMessage[] = [
      { role: 'system', content: renderSystemPrompt(ctx, OUTPUT_TOOL_NAME, [...this.systemPromptFragments, ...state.systemPromptFragments]) },
      { role: 'user', content: renderUserPrompt(ctx, this.limits, state.userPromptFragments) },
    ];
    // The conversation only grows and its messages are not changed once added: each is redacted once
    // (again only when a secret is registered meanwhile), not the whole history on every request.
    const redacted: ModelMessage[] = [];
    let redactedAt = secretsVersion();
    const redactedMessages = (): ModelMessage[] => {
      if (redactedAt !== secretsVersion()) {
        redacted.length = 0;
        redactedAt = secretsVersion();
      }
      for (let i = redacted.length; i < messages.length; i++) redacted[i] = redactValue(messages[i]!);
      return redacted.slice();
    };
    let retriesLeft = this.outputRetries;
    let lastOutputError: unknown;
    for (let requestIndex = 0; ; requestIndex++) {
      if (ctx.isTerminal) throw ctx.terminalError;
      if (requestIndex >= this.maxRequestsPerStep) {
        throw new ExecutionError(`Step ${ctx.stepId} reached its limit of ${this.maxRequestsPerStep} model requests without finishing.`, {
          stepId: ctx.stepId,
        });
      }
      if (admission) await admission.admit({ stepId: ctx.stepId, executionId: ctx.executionId, requestIndex });
      const send = (reportUsage?: (usage: Partial<Usage>) => void) =>
        // Registered secrets never travel back to the provider inside the conversation.
        this.model.request({
          messages: redactedMessages(),
          tools: definitions,
          outputToolName: OUTPUT_TOOL_NAME,
          signal: request.signal,
          model: state.model,
          ...(reportUsage ? { reportUsage } : {}),
        });
      const response = admission?.request ? await admission.request(send, this.#origins) : await send();
      if (response.usage) {
        admission?.observe(response.usage);
        state.usageMeter.record({ ...response.usage, requests: 1 }, 'step');
      } else state.usageMeter.record({ requests: 1 }, 'step');
      const toolCalls = Array.isArray(response.toolCalls) ? response.toolCalls : [];
      messages.push({ role: 'assistant', content: response.text ?? null, toolCalls });
      if (toolCalls.length === 0) {
        if (--retriesLeft < 0) throw this.#noOutput(ctx, lastOutputError);
        messages.push({ role: 'user', content: `Respond with tool calls, and finish by calling ${OUTPUT_TOOL_NAME}.` });
        continue;
      }
      const batch = await this.#runBatch(ctx, toolCalls, handlers, messages);
      if (batch.outcome && !batch.refused) return { outcome: batch.outcome, bindings: ctx.touchedWriteBindings() };
      if (batch.outputError !== undefined) lastOutputError = batch.outputError;
      if (batch.outputFailed && --retriesLeft < 0) throw this.#noOutput(ctx, lastOutputError);
    }
  }

  /** The last failed output's own message is the useful part (e.g. which write binding is unassigned). */
  #noOutput(ctx: StepContext, last?: unknown): ExecutionError {
    const why = last instanceof Error ? ` The last attempt failed: ${last.message}` : '';
    return new ExecutionError(`Step ${ctx.stepId} failed: the model did not produce a valid ${OUTPUT_TOOL_NAME} call within its output retries.${why}`, {
      stepId: ctx.stepId,
      ...(last !== undefined ? { cause: last } : {}),
    });
  }

  async #runBatch(
    ctx: StepContext,
    calls: readonly ModelToolCall[],
    handlers: Map<string, Handler>,
    messages: ModelMessage[],
  ): Promise<{ outcome?: StepOutcome; refused: boolean; outputFailed: boolean; outputError?: unknown }> {
    let blockedBy: string | undefined;
    let outcome: StepOutcome | undefined;
    let outputFailed = false;
    let outputError: unknown;
    const reply = (call: ModelToolCall, payload: unknown) =>
      messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: redactText(JSON.stringify(payload)) });
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i]!;
      const handler = handlers.get(call.name);
      if (!handler) {
        // After a refusal the rest of the response is skipped (seed 000), whatever it names. A tool that does not
        // exist names no operation, so it gets this feedback but no record.
        if (blockedBy !== undefined) {
          reply(call, { status: 'skipped', blocked_by_operation_id: blockedBy });
          continue;
        }
        reply(call, { status: 'error', error: { kind: 'unknown_tool', message: `Unknown tool '${String(call.name)}'. Available: ${[...handlers.keys()].join(', ')}.` } });
        if (call.name === OUTPUT_TOOL_NAME) outputFailed = true;
        continue;
      }
      // The step ended inside call i (a terminal failure): later siblings never run, but each gets its record.
      const skipRest = async (blocking: string): Promise<void> => {
        for (const rest of calls.slice(i + 1)) {
          const h = handlers.get(rest.name);
          if (h) await ctx.skipOperation(h.request(ctx, safeArgs(rest.arguments)), blocking).catch(() => undefined);
        }
      };
      if (blockedBy !== undefined) {
        let skipped: OperationFinished;
        try {
          skipped = await ctx.skipOperation(handler.request(ctx, safeArgs(call.arguments)), blockedBy);
        } catch (terminal) {
          // Its notification failed (terminal): the siblings after it are still recorded as skipped.
          await skipRest(blockedBy);
          throw terminal;
        }
        reply(call, { status: 'skipped', operation_id: skipped.request.operationId, blocked_by_operation_id: blockedBy });
        continue;
      }
      const parsed = parseArguments(call.arguments, handler.input, handler.parse);
      if (!parsed.ok) {
        const invalid = handler.request(ctx, safeArgs(call.arguments));
        let failed;
        try {
          failed = await ctx.failBeforeInspection(invalid, parsed.error);
        } catch (terminal) {
          await skipRest(invalid.operationId);
          throw terminal;
        }
        reply(call, { status: 'failed', operation_id: failed.request.operationId, error: { kind: 'invalid_input', class: parsed.error.name, message: parsed.error.message, guidance: 'Fix the arguments and call again.' } });
        if (handler.kind === 'output') outputFailed = true;
        continue;
      }
      const opRequest = handler.request(ctx, parsed.args);
      // An expression's value is presented while its operation still runs, under its mark: presenting may run the
      // model's proxy traps, which between operations would run as host code (see StepContext.readModelValue).
      // The reaction is registered under the mark too: resolving with the value looks up its `then`.
      let presented: { readonly payload: unknown } | undefined;
      const body =
        handler.kind === 'evaluate' || handler.kind === 'assign'
          ? () => {
              const out = handler.body(ctx, parsed.args);
              return ctx.readModelValue(() =>
                Promise.resolve(out).then((value) => {
                  presented = { payload: handler.present(value, this.limits) };
                  return value;
                }),
              );
            }
          : () => handler.body(ctx, handler.rawArguments ? rawArgumentsOf(parsed.raw) : parsed.args);
      let result;
      try {
        result = await ctx.runOperation(opRequest, body);
      } catch (terminal) {
        await skipRest(opRequest.operationId);
        throw terminal;
      }
      if (result.status === 'completed') {
        if (handler.kind === 'output') {
          outcome = result.value as StepOutcome;
          reply(call, { status: 'completed', operation_id: opRequest.operationId });
        } else reply(call, { status: 'completed', operation_id: opRequest.operationId, ...((presented ? presented.payload : handler.present(result.value, this.limits)) as object) });
      } else if (result.status === 'failed') {
        if (handler.kind === 'output') {
          outputFailed = true;
          outputError = result.error;
        }
        const failure = result.record.failure!;
        const guidance = isModelFrozenWrite(result.record) ? FROZEN_WRITE_GUIDANCE : 'Fix the cause and retry, choose another operation, or raise with raise_operation_id.';
        reply(call, {
          status: 'failed',
          operation_id: opRequest.operationId,
          error: { kind: errorKind(result.error), class: failure.errorClass, message: failure.message, guidance },
        });
      } else {
        blockedBy = opRequest.operationId;
        if (handler.kind === 'output') outputFailed = true;
        // The tool error shape of a failed operation (seed 000): the reason as its message, with the operation's
        // identities and the fact that its body never started; never the arguments or a diagnostic exception.
        const { reason, guidance, request } = result.rejection;
        reply(call, {
          status: 'rejected',
          operation_id: request.operationId,
          step_id: request.stepId,
          execution_id: request.executionId,
          execution_started: false,
          error: { kind: 'rejected', class: 'OperationRejectedError', message: reason, ...(guidance !== undefined ? { guidance } : {}) },
        });
      }
    }
    return { outcome, refused: blockedBy !== undefined, outputFailed, ...(outputError !== undefined ? { outputError } : {}) };
  }

  #handlers(ctx: StepContext, state: RuntimeState): Map<string, Handler> {
    const map = new Map<string, Handler>();
    if (ctx.program.sentinel === 'decide') {
      map.set(OUTPUT_TOOL_NAME, decideOutputHandler(ctx));
      return map;
    }
    for (const h of builtins) map.set(h.definition.name, h);
    for (const tool of state.tools) {
      map.set(tool.name, {
        kind: 'tool',
        definition: { name: tool.name, description: tool.description, parameters: toJsonSchema(tool.input) },
        input: tool.input,
        ...(typeof tool.parseArguments === 'function' ? { parse: tool.parseArguments } : {}),
        request: (c, a) => c.newRequest('tool', { toolName: tool.name, arguments: Object.freeze({ ...a }) }),
        body: (c, a) => tool.run(a, c),
        ...(tool.validatesRequest === true ? { rawArguments: true } : {}),
        present: (value, limits) => previewPayload(value, limits),
      });
    }
    map.set(OUTPUT_TOOL_NAME, outputHandler(ctx));
    return map;
  }
}
Object.freeze(AgentExecutor.prototype); // shared by every run in the process: model code replaces no method

function noOutcomeAllowed(ctx: StepContext, state: RuntimeState): UsageError {
  const denied = [
    ...(ctx.program.deniedOutcomes.length ? [`frontmatter deny: ${ctx.program.deniedOutcomes.join(', ')}`] : []),
    ...(state.deniedOutcomes.length ? [`scope deny: ${state.deniedOutcomes.join(', ')}`] : []),
  ];
  return new UsageError(
    `Step ${ctx.stepId} allows no outcome kind, so no model output could finish it (${denied.join('; ') || 'nothing is allowed here'}). ` +
      "Deny fewer kinds in the block's frontmatter `deny` so that at least one outcome stays allowed.",
  );
}

function outputHandler(ctx: StepContext): Handler {
  const { schema, json } = outputToolSchema(ctx.allowedOutcomes, Object.keys(ctx.errorTypes));
  return {
    kind: 'output',
    definition: { name: OUTPUT_TOOL_NAME, description: 'Finish the step with an outcome.', parameters: json },
    input: schema,
    request: (c, a) => {
      const p = (a.result ?? {}) as Partial<OutputProposal> & Record<string, unknown>;
      return c.newRequest('output', {
        toolName: OUTPUT_TOOL_NAME,
        outcomeKind: typeof p.kind === 'string' ? p.kind : undefined,
        ...(typeof p.return_expression === 'string' ? { expression: p.return_expression } : {}),
      });
    },
    body: async (c, a) => resolveProposal(c, a.result as OutputProposal),
    present: () => ({}),
  };
}

/** Resolves an output proposal into an outcome; a return expression is evaluated exactly once, here. */
async function resolveProposal(ctx: StepContext, proposal: OutputProposal): Promise<StepOutcome> {
  // A step that finishes normally must not leave a declared binding unusable: the model gets the
  // binding's name as this output's failure and may retry within its output retries.
  if (proposal.kind === 'pass' || proposal.kind === 'break' || proposal.kind === 'continue') {
    const unassigned = ctx.unassignedWriteBindingError();
    if (unassigned) throw unassigned;
  }
  switch (proposal.kind) {
    case 'return': {
      const value = await ctx.evaluateBody(proposal.return_expression);
      const schema = typesOf(ctx).returns;
      // Checked now, so the model can retry an unfit value; parsed once, with the write set, at the commit.
      if (schema) ctx.readModelValue(() => validateWith(schema, value, 'return value'));
      return Return.of(value);
    }
    case 'raise': {
      if (proposal.raise_operation_id !== undefined) {
        const found = ctx.failedOperationError(proposal.raise_operation_id);
        if (!found.found) throw new RangeError(`No failed operation has id '${proposal.raise_operation_id}' in this step.`);
        return Raise.of(found.error);
      }
      const message = proposal.raise_message ?? 'raised';
      const type = proposal.raise_error_type ? ctx.errorTypes[proposal.raise_error_type] : undefined;
      return Raise.of(type ? new type(message) : new ExecutionError(`Execution failed: ${message}`, { stepId: ctx.stepId }));
    }
    default:
      return { kind: proposal.kind };
  }
}

function decideOutputHandler(ctx: StepContext): Handler {
  const name = ctx.program.writeBindingNames[0]!;
  const { schema, json } = decideToolSchema(typesOf(ctx).bindings[name] ?? z.unknown());
  return {
    kind: 'output',
    definition: { name: OUTPUT_TOOL_NAME, description: `Give the value of <:${name}>.`, parameters: json },
    input: schema,
    request: (c) => c.newRequest('output', { toolName: OUTPUT_TOOL_NAME, outcomeKind: 'pass', targetPath: name }),
    // The value as the model sent it (checked against the type already): the commit parses it, once.
    rawArguments: true,
    body: (c, a) => {
      c.locals[name] = a.value;
      markAssigned(c, name);
      return { kind: 'pass' } satisfies StepOutcome;
    },
    present: () => ({}),
  };
}

function errorKind(error: unknown): string {
  if (isInstance(error, NighthawkError) && error.kind === 'binding-validation') return 'invalid_input';
  if (error instanceof ReferenceError || error instanceof TypeError) return 'resolution';
  return 'execution';
}

function safeArgs(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A model's arguments as sent, marked as what this executor parsed (data), for a tool that validates them itself. */
function rawArgumentsOf(raw: Record<string, unknown>): Record<string, unknown> {
  if (raw !== null && typeof raw === 'object') markParsedToolArguments(raw);
  return raw;
}

class ArgumentError extends Error {
  override name = 'ArgumentError';
}

function parseArguments(text: unknown, schema: ZodType, parse?: (value: unknown) => ArgumentsParse): { ok: true; args: Record<string, unknown>; raw: Record<string, unknown> } | { ok: false; error: Error } {
  let raw: unknown;
  try {
    raw = typeof text === 'string' ? JSON.parse(text === '' ? '{}' : text) : text;
  } catch (e) {
    return { ok: false, error: new ArgumentError(`Arguments are not valid JSON: ${describeError(e, 200)}`) };
  }
  let parsed: ArgumentsParse;
  try {
    parsed = parse ? parse(raw) : (schema.safeParse(raw) as ArgumentsParse);
  } catch (thrown) {
    // Seed 000: an exception from an argument validator fails only its operation.
    return { ok: false, error: thrown instanceof Error ? thrown : new ArgumentError(`Argument validation threw ${describeError(thrown, 200)}`) };
  }
  if (!parsed.success) {
    return {
      ok: false,
      error: new ArgumentError(describeIssues(parsed.error.issues)),
    };
  }
  return { ok: true, args: parsed.data as Record<string, unknown>, raw: raw as Record<string, unknown> };
}
