/**
 * Capabilities: typed, host-mediated operations with a declared footprint. The shared perimeter
 * check reads the footprint property; no policy code branches on a capability's name.
 */
import type { ZodType } from 'zod';
import { UsageError } from '../core/index.js';
import type { PerimeterClass } from './audit-store.js';
import { ALL_PERIMETER_CLASSES } from './perimeter.js';
import { pristineValidator } from './request-validator.js';
import { isArray, weakMapGet, weakMapSet } from './intrinsics.js';

export interface CapabilityContext {
  readonly runId: string;
  readonly executionId: string | undefined;
  readonly signal: AbortSignal;
}

export interface Capability<A = unknown, R = unknown> {
  readonly name: string;
  readonly description: string;
  /** Request type; the gateway validates requests with it before anything else. */
  readonly request: ZodType<A>;
  /** Irreversible effect classes this capability can cause (empty for reversible ones). */
  readonly footprint: readonly PerimeterClass[];
  /** Signature text dependencies are checked against (generated code declares it). */
  readonly signature: string;
  run(args: A, context: CapabilityContext): R | Promise<R>;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

interface CapabilitySpec<A, R> {
  name: string;
  description: string;
  request: ZodType<A>;
  footprint?: readonly PerimeterClass[];
  signature?: string;
  run(args: A, context: CapabilityContext): R | Promise<R>;
}

/** Defines a capability; name, footprint, request type and body are checked at definition time. */
export function defineCapability<A, R>(spec: CapabilitySpec<A, R>): Capability<A, R> {
  if (typeof spec.name !== 'string' || !NAME.test(spec.name) || spec.name.startsWith('nh_')) {
    throw new UsageError(`Capability name '${String(spec.name)}' must be an identifier (max 64 chars) not starting with nh_.`);
  }
  const footprint = [...(spec.footprint ?? [])];
  for (const c of footprint) {
    if (!ALL_PERIMETER_CLASSES.includes(c)) throw new UsageError(`Capability '${spec.name}' declares unknown footprint class '${String(c)}'.`);
  }
  if (typeof spec.request?.safeParse !== 'function') throw new UsageError(`Capability '${spec.name}' needs a zod request schema.`);
  if (typeof spec.run !== 'function') throw new UsageError(`Capability '${spec.name}' needs a run function.`);
  const validate = pristineValidator(spec.request);
  const capability: Capability<A, R> = Object.freeze({
    name: spec.name,
    description: String(spec.description ?? ''),
    request: spec.request,
    footprint: Object.freeze(footprint),
    signature: typeof spec.signature === 'string' ? spec.signature : `(${spec.name}Request) => unknown`,
    run: spec.run,
  });
  weakMapSet(validators, capability as Capability, validate);
  return capability;
}

/** Hand-built capabilities, by the operator's object, as the host first admitted them. */
const admitted = new WeakMap<object, Capability>();

/**
 * The capability the host holds for `capability`: itself when defineCapability made it (frozen, with the
 * gateway's request-type copy), else a frozen copy of the operator's object as it is now, taken the first time
 * the host sees that object (a Session's construction, a run's grant) and kept. A capability written as an
 * object literal is mutable and as reachable as any operator value; without this, an edit to it (an emptied
 * footprint, a replaced body or validator) would change what the gateway checks and runs. Fields are read once,
 * and a malformed one is refused here with defineCapability's errors.
 */
export function admitCapability(capability: Capability): Capability {
  if (weakMapGet(validators, capability) !== undefined) return capability;
  if (capability === null || typeof capability !== 'object') throw new UsageError(`A grant's capability must be an object (defineCapability makes one), got ${capability === null ? 'null' : typeof capability}.`);
  const known = weakMapGet(admitted, capability);
  if (known) return known;
  const { name, description, request, footprint, signature, run } = capability;
  if (footprint !== undefined && !isArray(footprint)) throw new UsageError(`Capability '${String(name)}' declares a footprint that is not an array.`);
  const copy = defineCapability({ name, description, request, footprint, signature, run: run as Capability['run'] });
  weakMapSet(admitted, capability, copy);
  return copy;
}

/** The gateway's validators, by the capability defineCapability made (see request-validator.ts). */
const validators = new WeakMap<Capability, ReturnType<typeof pristineValidator>>();

/** Validates a request as the gateway does: with the copy taken at definition, or the request type itself. */
export function validateCapabilityRequest(capability: Capability, value: unknown): ReturnType<ReturnType<typeof pristineValidator>> {
  // Captured WeakMap methods: interior code may have replaced WeakMap.prototype.get to hand back its own validator.
  const validate = weakMapGet(validators, capability);
  // Every capability a grant holds was admitted (admitCapability): one without the gateway's copy is not host authority.
  if (!validate) throw new UsageError(`Capability '${String(capability.name)}' was not admitted by the host (grants admit capabilities through admitCapability).`);
  return validate(value);
}
