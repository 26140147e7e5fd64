/**
 * Grants: the capabilities and references a run (or a nested scope) holds. Authority is admitted
 * once at run entry; nested scopes can only attenuate it, and returning restores the enclosing one.
 */
import { admitCapability, type Capability } from './capability.js';
import { GrantWideningError } from './run-errors.js';
import { intersectPolicies, outsidePolicy, perimeterPolicy, type PerimeterPolicy } from './perimeter.js';
import type { PerimeterClass } from './audit-store.js';
import { FrozenMap } from '../core/index.js';
import { append, objectFreeze, objectHasOwn, objectKeys, put } from './intrinsics.js';

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
  for (const given of (grant.capabilities ?? []) as readonly Capability[]) {
    const c = admitCapability(given);
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
  // Index loops and captured built-ins: narrowing can happen while interior code runs (see perimeter.ts), and
  // a replaced `filter` answering "nothing missing" would be a widening.
  const missing: string[] = [];
  if (request.capabilities) for (let i = 0; i < request.capabilities.length; i++) if (!parent.capabilities.has(request.capabilities[i]!)) append(missing, request.capabilities[i]!);
  const wider = request.policy ? outsidePolicy(request.policy, parent.policy) : [];
  if (missing.length || wider.length) throw new GrantWideningError({ capabilities: missing, perimeterClasses: wider });
  let capabilities = parent.capabilities;
  if (request.capabilities) {
    const kept: (readonly [string, Capability])[] = [];
    for (let i = 0; i < request.capabilities.length; i++) append(kept, [request.capabilities[i]!, parent.capabilities.get(request.capabilities[i]!)!] as const);
    capabilities = new FrozenMap(kept);
  }
  const refNames = request.references ?? objectKeys(parent.references);
  const missingRefs: string[] = [];
  for (let i = 0; i < refNames.length; i++) if (!objectHasOwn(parent.references, refNames[i]!)) append(missingRefs, `reference:${refNames[i]!}`);
  if (missingRefs.length) throw new GrantWideningError({ capabilities: missingRefs, perimeterClasses: [] });
  const references: Record<string, unknown> = {};
  for (let i = 0; i < refNames.length; i++) put(references, refNames[i]!, parent.references[refNames[i]!]);
  const policy = request.policy ? intersectPolicies(parent.policy, perimeterPolicy(request.policy)) : parent.policy;
  return objectFreeze({ capabilities, references: objectFreeze(references), policy });
}
