/**
 * Which interior execution is running in the current async context: a model-authored expression or
 * generated code. The Harness run-time tier refuses code-from-text intrinsics while a mark is present;
 * host infrastructure reached from interior code (a capability gateway, a Natural execution's own
 * machinery) runs with the mark cleared. The latest `runInterior` / `runOutsideInterior` wins.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export type InteriorMark =
  | { readonly kind: 'expression'; readonly executionId: string; readonly operationId: string | undefined }
  | { readonly kind: 'generated'; readonly nodeId: string; readonly definitionId: string };

const marks = new AsyncLocalStorage<InteriorMark | null>();
const operations = new AsyncLocalStorage<string>();

export function currentInterior(): InteriorMark | undefined {
  return marks.getStore() ?? undefined;
}

export function runInterior<T>(mark: InteriorMark, fn: () => T): T {
  return marks.run(Object.freeze({ ...mark }), fn);
}

/** Runs host infrastructure reached from interior code without the interior mark. */
export function runOutsideInterior<T>(fn: () => T): T {
  return marks.getStore() ? marks.run(null, fn) : fn();
}

/** The operation whose body is running (so the interior mark of an expression names its operation). */
export function runAsOperation<T>(operationId: string, fn: () => T): T {
  return operations.run(operationId, fn);
}

export function currentOperationId(): string | undefined {
  return operations.getStore();
}
