/**
 * Seed 000's sync example, set up for runs through a real ModelClient: the forbidden helper, the
 * inspector, the Natural function, and a server-side script that plays the model's part.
 */
import { z } from 'zod';
import {
  OUTPUT_TOOL_NAME,
  accept,
  naturalFunction,
  rejectOperation,
  type OperationDecision,
  type OperationFinished,
  type OperationRequest,
  type Oversight,
  type StepFinished,
} from '../../kernel/src/index.js';
import { completion, toolCall, type ChatRequestBody, type ScriptedReply } from './openai-server.js';

export const SEED_000_PROGRAM = 'execute\nCalculate the requested value using a permitted operation and return it.\n';

export function seed000(program = SEED_000_PROGRAM) {
  const effects: string[] = [];
  const forbidden = (): number => {
    effects.push('forbidden body');
    return 2;
  };
  const inspectOperation = (request: OperationRequest): OperationDecision =>
    request.expression === 'forbidden()' ? rejectOperation('This helper is unavailable.', 'Evaluate 1 + 1 instead.') : accept();
  const calculate = naturalFunction({
    name: 'calculate',
    program,
    input: z.object({}),
    returns: z.number(),
    then: () => 0,
  });
  return { effects, forbidden, inspectOperation, calculate };
}

/** Oversight that applies `inspect` and collects every operation and step record. */
export function recordingOversight(inspect: (request: OperationRequest) => OperationDecision) {
  const operations: OperationFinished[] = [];
  const steps: StepFinished[] = [];
  const oversight: Oversight = {
    inspectOperation: inspect,
    onOperationFinished: (finished) => void operations.push(finished),
    onStepFinished: (finished) => void steps.push(finished),
  };
  return { oversight, operations, steps };
}

interface ChatMessage {
  readonly role: string;
  readonly content?: unknown;
  readonly tool_call_id?: string;
}

/** Tool results in a request body, parsed, in order. */
export function toolResults(body: ChatRequestBody): Record<string, unknown>[] {
  const messages = (body.messages ?? []) as ChatMessage[];
  return messages.filter((m) => m.role === 'tool').map((m) => JSON.parse(String(m.content)) as Record<string, unknown>);
}

/**
 * The model's part of seed 000, decided from what the server receives (like the seed's
 * FunctionModel): propose `forbidden()`; once a refusal is visible, finish with `1 + 1`.
 */
export function seed000Model(body: ChatRequestBody): ScriptedReply {
  const refused = toolResults(body).some((r) => r.status === 'rejected');
  if (!refused) return completion({ toolCalls: [toolCall('nh_evaluate', { expression: 'forbidden()' }, 'proposal')] });
  return completion({
    toolCalls: [toolCall(OUTPUT_TOOL_NAME, { result: { kind: 'return', return_expression: '1 + 1' } }, 'finish')],
    usage: { promptTokens: 120, completionTokens: 12 },
  });
}

const RUNTIME_ID = /\b[a-z]{1,8}_[0-9A-HJKMNP-TV-Z]{26}\b/g;

/** Records as plain JSON with runtime ids numbered by first appearance and timings removed. */
export function normaliseRecords(records: readonly unknown[]): unknown {
  const ids: string[] = [];
  const text = JSON.stringify(records, (key, value: unknown) => (key === 'startedAt' || key === 'durationMs' ? undefined : value));
  return JSON.parse(
    text.replace(RUNTIME_ID, (id) => {
      let n = ids.indexOf(id);
      if (n < 0) n = ids.push(id) - 1;
      return `<id:${n}>`;
    }),
  ) as unknown;
}
