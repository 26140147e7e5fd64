/**
 * Perimeter policy: which irreversible effect classes a run may cause. The platform fixes its policy
 * at run entry; a composition may only narrow it, and the effective policy is the intersection.
 */
import { PerimeterClass } from './audit-store.js';
import { FrozenSet } from './frozen-collections.js';

export { PerimeterClass };

export const ALL_PERIMETER_CLASSES: readonly PerimeterClass[] = Object.freeze(Object.values(PerimeterClass));

export type PerimeterPolicy = ReadonlySet<PerimeterClass>;

/** A frozen policy from a list of classes (unknown names are a TypeError at definition time). */
export function perimeterPolicy(classes: Iterable<PerimeterClass>): PerimeterPolicy {
  const list: PerimeterClass[] = [];
  for (const c of classes) {
    if (!ALL_PERIMETER_CLASSES.includes(c)) throw new TypeError(`Unknown perimeter class '${String(c)}'; use ${ALL_PERIMETER_CLASSES.join(', ')}.`);
    list.push(c);
  }
  // A private-field set: neither `add` nor `Set.prototype.add.call` can widen a policy later.
  return new FrozenSet(list);
}

/** The intersection of two policies (narrowing never widens). */
export function intersectPolicies(a: PerimeterPolicy, b: PerimeterPolicy): PerimeterPolicy {
  return perimeterPolicy([...a].filter((c) => b.has(c)));
}

/** Classes of `footprint` the policy does not permit. */
export function outsidePolicy(footprint: readonly PerimeterClass[], policy: PerimeterPolicy): PerimeterClass[] {
  return footprint.filter((c) => !policy.has(c));
}
