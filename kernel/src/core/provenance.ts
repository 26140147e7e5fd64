/**
 * Which records the core itself created. The host's oversight object is reachable from interior
 * code (it is the run's oversight), so its seams check that a request, commit or terminal record
 * they receive came from the core's operation engine and step runner, not from a caller forging one.
 */
const created = new WeakSet<object>();
// Captured at load: model code may replace WeakSet.prototype.has (answering "created" for any forgery) or add.
const add = WeakSet.prototype.add;
const has = WeakSet.prototype.has;
const apply = Reflect.apply;

/** Core-internal: marks a record the operation engine or step runner created. */
export function markCoreRecord<T extends object>(record: T): T {
  apply(add, created, [record]);
  return record;
}

/** True only for requests, commits and records created by the core itself. */
export function isCoreRecord(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (apply(has, created, [value]) as boolean);
}
