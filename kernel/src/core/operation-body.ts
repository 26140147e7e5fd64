/**
 * Marks code running inside an operation body (a model expression's evaluation, a tool call). The
 * host uses it to refuse host-infrastructure seams, such as the executor-step admission, to code an
 * operation runs: those seams belong to the executor, never to what the model proposed. The mark
 * carries the operation's own request, so a tool body learns its Natural execution from the core,
 * not from the context object its caller handed it.
 */
import { currentInterior } from './interior.js';
import type { OperationRequest } from './operation.js';
import { PrivateAsyncContext } from './private-context.js';

interface BodyMark {
  readonly request: OperationRequest | undefined;
}

const OUTSIDE: BodyMark = Object.freeze({ request: undefined });
const marks = new PrivateAsyncContext<BodyMark>();

/** Core-internal: runs the body of `request` under the mark. */
export function runOperationBody<T>(request: OperationRequest, body: () => T): T {
  return marks.run(Object.freeze({ request }), body);
}

/** Core-internal: a step starts outside any operation body, even when an expression started it. */
export function outsideOperationBody<T>(fn: () => T): T {
  return marks.run(OUTSIDE, fn);
}

/** True while an operation body (expression evaluation, tool call) is executing. */
export function insideOperationBody(): boolean {
  return marks.getStore()?.request !== undefined;
}

/**
 * Whether what runs now is model code or an operation body: under an interior mark (a model expression, generated
 * code) or inside an operation body. Operator-only calls (the interior-mark controls, secrets, approvals, the
 * executor-step admission) refuse it.
 */
export function modelCodeRunning(): boolean {
  return marks.getStore()?.request !== undefined || currentInterior() !== undefined;
}

/**
 * The request of the operation whose body is executing, as the core made it (frozen), or undefined. Code the
 * body starts (a model expression, generated code it calls) runs in it too: callers pair it with the interior mark.
 */
export function currentOperationBody(): OperationRequest | undefined {
  return marks.getStore()?.request;
}
