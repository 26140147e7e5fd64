/**
 * Perimeter policy: which irreversible effect classes a run may cause. The platform fixes its policy
 * at run entry; a composition may only narrow it, and the effective policy is the intersection.
 */
import { PerimeterClass } from './audit-store.js';
import { FrozenSet } from '../core/index.js';
import { append, listOf } from './intrinsics.js';

export { PerimeterClass };

export const ALL_PERIMETER_CLASSES: readonly PerimeterClass[] = Object.freeze(Object.values(PerimeterClass));
const KNOWN: ReadonlySet<PerimeterClass> = new FrozenSet(ALL_PERIMETER_CLASSES);

export type PerimeterPolicy = ReadonlySet<PerimeterClass>;

/**
 * A frozen policy from a list of classes (unknown names are a TypeError at definition time).
 * Policies are computed and checked while interior code runs (a capability called from generated code, a
 * scope narrowed around it), so these functions loop by index and ask only captured built-ins: a replaced
 * `Array.prototype.filter` or `Set.prototype.add` must not widen a policy or pass a footprint.
 */
export function perimeterPolicy(classes: Iterable<PerimeterClass>): PerimeterPolicy {
  const items = listOf(classes);
  const list: PerimeterClass[] = [];
  for (let i = 0; i < items.length; i++) {
    const c = items[i]!;
    if (!KNOWN.has(c)) throw new TypeError(`Unknown perimeter class '${String(c)}'; use ${ALL_PERIMETER_CLASSES.join(', ')}.`);
    append(list, c);
  }
  // A private-field set: neither `add` nor `Set.prototype.add.call` can widen a policy later.
  return new FrozenSet(list);
}

/** The intersection of two policies (narrowing never widens). */
export function intersectPolicies(a: PerimeterPolicy, b: PerimeterPolicy): PerimeterPolicy {
  const both: PerimeterClass[] = [];
  for (let i = 0; i < ALL_PERIMETER_CLASSES.length; i++) {
    const c = ALL_PERIMETER_CLASSES[i]!;
    if (a.has(c) && b.has(c)) append(both, c);
  }
  return new FrozenSet(both);
}

/** Classes of `footprint` the policy does not permit. */
export function outsidePolicy(footprint: readonly PerimeterClass[], policy: PerimeterPolicy): PerimeterClass[] {
  const outside: PerimeterClass[] = [];
  for (let i = 0; i < footprint.length; i++) if (!policy.has(footprint[i]!)) append(outside, footprint[i]!);
  return outside;
}
