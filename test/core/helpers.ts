import type { OperationFinished, StepExecutor, StepFinished, StepRequest, StepCandidate } from '../../kernel/src/index.js';

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
