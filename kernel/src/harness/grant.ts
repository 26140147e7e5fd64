/**
 * Grants: the capabilities and references a run (or a nested scope) holds. Authority is admitted
 * once at run entry; nested scopes can only attenuate it, and returning restores the enclosing one.
 */
import type { Capability } from './capability.js';
import { GrantWideningError } from './run-errors.js';
import { intersectPolicies, outsidePolicy, perimeterPolicy, type PerimeterPolicy } from './perimeter.js';
import type { PerimeterClass } from './audit-store.js';
import { FrozenMap } from './frozen-collections.js';

export interface Grant {
  readonly capabilities?: readonly Capability<never, unknown>[] | readonly Capability[];
  readonly references?: Readonly<Record<string, unknown>>;
}

/** The authority in force at some point of a run: capabilities by name, references, policy. */
export interface Authority {
  readonly capabilities: ReadonlyMap<string, Capability>;
  readonly references: Readonly<Record<string, unknown>>;
  readonly policy: PerimeterPolicy;
}

export function authorityFromGrant(grant: Grant, policy: PerimeterPolicy): Authority {
  const capabilities = new Map<string, Capability>();
  for (const c of (grant.capabilities ?? []) as readonly Capability[]) {
    if (capabilities.has(c.name) && capabilities.get(c.name) !== c) throw new TypeError(`Two different capabilities are named '${c.name}'.`);
    capabilities.set(c.name, c);
  }
  return Object.freeze({ capabilities: new FrozenMap(capabilities), references: Object.freeze({ ...(grant.references ?? {}) }), policy });
}

/**
 * Narrows `parent` to the named capabilities (and optionally a narrower policy). Asking for a
 * capability the parent lacks, or a policy class it does not permit, throws GrantWideningError.
 */
export function attenuate(parent: Authority, request: { capabilities?: readonly string[]; policy?: readonly PerimeterClass[]; references?: readonly string[] }): Authority {
  const names = request.capabilities ?? [...parent.capabilities.keys()];
  const missing = names.filter((n) => !parent.capabilities.has(n));
  const wider = request.policy ? outsidePolicy(request.policy, parent.policy) : [];
  if (missing.length || wider.length) throw new GrantWideningError({ capabilities: missing, perimeterClasses: wider });
  const capabilities = new FrozenMap(names.map((n) => [n, parent.capabilities.get(n)!] as const));
  const refNames = request.references ?? Object.keys(parent.references);
  const missingRefs = refNames.filter((n) => !(n in parent.references));
  if (missingRefs.length) throw new GrantWideningError({ capabilities: missingRefs.map((r) => `reference:${r}`), perimeterClasses: [] });
  const references = Object.freeze(Object.fromEntries(refNames.map((n) => [n, parent.references[n]])));
  const policy = request.policy ? intersectPolicies(parent.policy, perimeterPolicy(request.policy)) : parent.policy;
  return Object.freeze({ capabilities, references, policy });
}
