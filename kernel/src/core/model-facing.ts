/**
 * What model code sees of a value the operator handed it. A value may carry, as an own non-configurable data
 * property under MODEL_FACING, the function model code gets in its place: a SessionFunction adapter carries one
 * that works only inside a run (session.ts), so whatever model code builds around it (a function bound with the
 * intrinsic `bind`, `Reflect.apply` bound to it, a proxy) cannot start a run with the Session's grant when
 * operator code calls it later. Read by descriptor: no getter of the operator's value runs here.
 */
export const MODEL_FACING: unique symbol = Symbol('nighthawk.modelFacing');

const ownDescriptor = Reflect.getOwnPropertyDescriptor;

/** `value`'s model-facing function when it carries one, else `value` itself. */
export function modelFacing(value: unknown): unknown {
  if (typeof value !== 'function') return value;
  const d = ownDescriptor(value, MODEL_FACING);
  return d !== undefined && !d.configurable && typeof d.value === 'function' ? d.value : value;
}
