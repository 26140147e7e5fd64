import { AgentExecutor, run, scope, step, type ModelMessage, type OperationFinished, type Oversight, type StepCandidate, type StepExecutor, type StepFinished, type StepRequest } from '../../kernel/src/index.js';
import { ScriptedModel, toolCall, type ScriptedTurn } from '../../kernel/src/testing.js';

/** Collects operation and step records through the oversight notification seams. */
export function recorder() {
  const operations: OperationFinished[] = [];
  const steps: StepFinished[] = [];
  return {
    operations,
    steps,
    onOperationFinished: (f: OperationFinished) => void operations.push(f),
    onStepFinished: (f: StepFinished) => void steps.push(f),
  };
}

/** A custom executor from a function; records every request it receives. */
export function callbackExecutor(handler: (request: StepRequest) => StepCandidate | Promise<StepCandidate>) {
  const requests: StepRequest[] = [];
  const executor: StepExecutor = {
    async runStep(request) {
      requests.push(request);
      return handler(request);
    },
  };
  return { executor, requests };
}

/** The output tool call that finishes a step with `result`. */
export const finish = (result: Record<string, unknown>) => toolCall('nh_output', { result });

/** The parsed tool-result messages the model has seen so far. */
export const toolMessages = (messages: readonly ModelMessage[]) =>
  messages.filter((m) => m.role === 'tool').map((m) => JSON.parse((m as { content: string }).content) as Record<string, unknown>);

/**
 * Runs one step with the agent executor over scripted turns, recording every operation and step
 * (the test's own notifications run after the given oversight's hooks are merged in).
 */
export async function runAgent(turns: ScriptedTurn[], oversight: Oversight, spec: Parameters<typeof step>[0], references: Record<string, unknown> = {}) {
  const model = new ScriptedModel(turns);
  const rec = recorder();
  const result = await run(new AgentExecutor({ model }), () =>
    scope({ taskReferences: references, oversight: { onOperationFinished: rec.onOperationFinished, onStepFinished: rec.onStepFinished, ...oversight } }, () => step(spec)),
  ).then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  return { result, model, ...rec };
}
