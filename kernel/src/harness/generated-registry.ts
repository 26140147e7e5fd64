/**
 * Which callables are generated source. Host wrappers of generated exports are registered here at
 * materialization, so the Session never approves them and the ledger records them by definition
 * identity rather than by name.
 */
export interface GeneratedIdentity {
  readonly definitionId: string;
  readonly materializationId: string;
  readonly exportName: string;
  /** For re-materialized retained functions: the definition originally observed. */
  readonly originalDefinitionId: string;
}

const registry = new WeakMap<object, GeneratedIdentity>();

export function markGenerated(fn: object, identity: GeneratedIdentity): void {
  registry.set(fn, Object.freeze({ ...identity }));
}

/** True for host wrappers of generated exports (renaming or rewrapping metadata changes nothing). */
export function isGeneratedCallable(fn: unknown): boolean {
  return typeof fn === 'function' && registry.has(fn);
}

export function generatedIdentityOf(fn: unknown): GeneratedIdentity | undefined {
  return typeof fn === 'function' ? registry.get(fn) : undefined;
}
