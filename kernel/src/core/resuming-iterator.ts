/**
 * An iterator over a generator whose `next`, `throw` and `return` each go through `resume(go)`, which resumes the
 * generator by calling `go` (or refuses first, by throwing). Generated code's generators check that their dispatch
 * is live there; the generators a model expression defines resume under its mark when the caller has none. A
 * generator delegates to it with `yield*`, or hands it out in its place. Async refusals arrive as rejected
 * promises, as every async-iterator result does.
 */
export function resumingIterator(inner: Generator | AsyncGenerator, isAsync: boolean, resume: (go: () => unknown) => unknown): object {
  type Method = 'next' | 'throw' | 'return';
  const step = (method: Method, value: unknown): unknown => {
    const go = (): unknown => (inner as Generator)[method](value as never);
    if (!isAsync) return resume(go);
    try {
      return resume(go);
    } catch (refusal) {
      return Promise.reject(refusal);
    }
  };
  const iterator = {
    next: (value?: unknown) => step('next', value),
    throw: (error?: unknown) => step('throw', error),
    return: (value?: unknown) => step('return', value),
  };
  Object.defineProperty(iterator, isAsync ? Symbol.asyncIterator : Symbol.iterator, { value: () => iterator });
  Object.defineProperty(iterator, Symbol.toStringTag, { value: isAsync ? 'AsyncGenerator' : 'Generator' });
  return Object.freeze(iterator);
}
