/**
 * Write-binding schema resolution. Precedence: an explicit zod schema (wrapper option or runtime
 * `writes`) wins, then a schema the transform derived from a TypeScript annotation (also passed in
 * `writes`), then inference from the initial value, else `unknown`.
 */
import { z, type ZodType } from 'zod';

const inferred = {
  string: z.string(),
  number: z.number(),
  boolean: z.boolean(),
  bigint: z.bigint(),
  array: z.array(z.unknown()),
  record: z.record(z.string(), z.unknown()),
  unknown: z.unknown(),
} as const;

/** Infers a schema from a binding's current value (`let label = ""` gives string). */
export function inferSchema(value: unknown): ZodType {
  switch (typeof value) {
    case 'string':
      return inferred.string;
    case 'number':
      return inferred.number;
    case 'boolean':
      return inferred.boolean;
    case 'bigint':
      return inferred.bigint;
    case 'object': {
      if (value === null) return inferred.unknown;
      if (Array.isArray(value)) return inferred.array;
      const proto = Object.getPrototypeOf(value) as object | null;
      if (proto === Object.prototype || proto === null) return inferred.record;
      const ctor = (proto as { constructor?: unknown }).constructor;
      return typeof ctor === 'function' ? z.instanceof(ctor as new (...args: never[]) => object) : inferred.unknown;
    }
    default:
      return inferred.unknown;
  }
}

const jsonSchemas = new WeakMap<ZodType, Record<string, unknown>>();

/** JSON Schema for a zod schema (cached); schemas zod cannot express become `{}`. */
export function toJsonSchema(schema: ZodType): Record<string, unknown> {
  let out = jsonSchemas.get(schema);
  if (!out) {
    try {
      out = z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }) as Record<string, unknown>;
      delete out.$schema;
    } catch {
      out = {};
    }
    jsonSchemas.set(schema, out);
  }
  return out;
}

/** A short type label for prompts (`string`, `number[]`, `object`). */
export function typeLabel(schema: ZodType | undefined): string {
  if (!schema) return 'unknown';
  const js = toJsonSchema(schema);
  const t = js.type;
  if (typeof t === 'string') {
    if (t === 'array') {
      const items = js.items as { type?: unknown } | undefined;
      return typeof items?.type === 'string' ? `${items.type}[]` : 'array';
    }
    return t;
  }
  if (Array.isArray(js.enum)) return js.enum.map((v) => JSON.stringify(v)).join(' | ');
  return 'unknown';
}
