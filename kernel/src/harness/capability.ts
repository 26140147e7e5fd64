/**
 * Capabilities: typed, host-mediated operations with a declared footprint. The shared perimeter
 * check reads the footprint property; no policy code branches on a capability's name.
 */
import type { ZodType } from 'zod';
import { UsageError } from '../core/index.js';
import type { PerimeterClass } from './audit-store.js';
import { ALL_PERIMETER_CLASSES } from './perimeter.js';
import { pristineValidator } from './request-validator.js';
import { weakMapGet, weakMapSet } from './intrinsics.js';

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

/** Defines a capability; name and footprint are checked at definition time. */
export function defineCapability<A, R>(spec: {
  name: string;
  description: string;
  request: ZodType<A>;
  footprint?: readonly PerimeterClass[];
  signature?: string;
  run(args: A, context: CapabilityContext): R | Promise<R>;
}): Capability<A, R> {
  if (!NAME.test(spec.name) || spec.name.startsWith('nh_')) {
    throw new UsageError(`Capability name '${spec.name}' must be an identifier (max 64 chars) not starting with nh_.`);
  }
  for (const c of spec.footprint ?? []) {
    if (!ALL_PERIMETER_CLASSES.includes(c)) throw new UsageError(`Capability '${spec.name}' declares unknown footprint class '${String(c)}'.`);
  }
  if (typeof spec.request?.safeParse !== 'function') throw new UsageError(`Capability '${spec.name}' needs a zod request schema.`);
  const validate = pristineValidator(spec.request);
  const capability: Capability<A, R> = Object.freeze({
    name: spec.name,
    description: spec.description,
    request: spec.request,
    footprint: Object.freeze([...(spec.footprint ?? [])]),
    signature: spec.signature ?? `(${spec.name}Request) => unknown`,
    run: spec.run,
  });
  weakMapSet(validators, capability as Capability, validate);
  return capability;
}

/** The gateway's validators, by the capability defineCapability made (see request-validator.ts). */
const validators = new WeakMap<Capability, ReturnType<typeof pristineValidator>>();

/** Validates a request as the gateway does: with the copy taken at definition, or the request type itself. */
export function validateCapabilityRequest(capability: Capability, value: unknown): ReturnType<ReturnType<typeof pristineValidator>> {
  // Captured WeakMap methods: interior code may have replaced WeakMap.prototype.get to hand back its own validator.
  const validate = weakMapGet(validators, capability);
  return validate ? validate(value) : (capability.request.safeParse(value) as ReturnType<ReturnType<typeof pristineValidator>>);
}
