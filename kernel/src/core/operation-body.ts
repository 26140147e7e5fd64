/**
 * Marks code running inside an operation body (a model expression's evaluation, a tool call). The
 * host uses it to refuse host-infrastructure seams, such as the executor-step admission, to code an
 * operation runs: those seams belong to the executor, never to what the model proposed.
 */
import { PrivateAsyncContext } from './private-context.js';

const IN_BODY = Object.freeze({ inBody: true });
const OUTSIDE = Object.freeze({ inBody: false });
const marks = new PrivateAsyncContext<{ readonly inBody: boolean }>();

/** Core-internal: runs an operation body under the mark. */
export function runOperationBody<T>(body: () => T): T {
  return marks.run(IN_BODY, body);
}

/** Core-internal: a step starts outside any operation body, even when an expression started it. */
export function outsideOperationBody<T>(fn: () => T): T {
  return marks.run(OUTSIDE, fn);
}

/** True while an operation body (expression evaluation, tool call) is executing. */
export function insideOperationBody(): boolean {
  return marks.getStore() === IN_BODY;
}
