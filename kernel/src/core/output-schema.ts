/**
 * The output tool's argument schema, built per step from the allowed outcome kinds. The envelope
 * `{ result: {...} }` exists because some providers reject a root-level anyOf.
 */
import { z, type ZodType } from 'zod';
import { toJsonSchema } from './binding-types.js';
import type { OutcomeKind } from './program.js';

export const OUTPUT_TOOL_NAME = 'nh_output';

export type OutputProposal =
  | { kind: 'pass' | 'break' | 'continue' }
  | { kind: 'return'; return_expression: string }
  | { kind: 'raise'; raise_message?: string | undefined; raise_error_type?: string | undefined; raise_operation_id?: string | undefined };

const variants = {
  pass: z.strictObject({ kind: z.literal('pass') }),
  break: z.strictObject({ kind: z.literal('break') }),
  continue: z.strictObject({ kind: z.literal('continue') }),
  return: z.strictObject({ kind: z.literal('return'), return_expression: z.string().min(1) }),
} as const;

function raiseVariant(errorTypes: readonly string[]) {
  return z
    .strictObject({
      kind: z.literal('raise'),
      raise_message: z.string().min(1).optional(),
      raise_error_type: (errorTypes.length ? z.enum(errorTypes as [string, ...string[]]) : z.never()).optional(),
      raise_operation_id: z.string().min(1).optional(),
    })
    .refine((v) => v.raise_message !== undefined || v.raise_operation_id !== undefined, {
      message: 'raise needs raise_message or raise_operation_id',
    });
}

const cache = new Map<string, { schema: ZodType; json: Record<string, unknown> }>();

/** Zod schema and JSON schema of the output tool for these outcome kinds and error type names. */
export function outputToolSchema(allowed: readonly OutcomeKind[], errorTypes: readonly string[]): { schema: ZodType; json: Record<string, unknown> } {
  const key = allowed.join(',') + '|' + errorTypes.join(',');
  let entry = cache.get(key);
  if (!entry) {
    const options: ZodType[] = allowed.map((k) => (k === 'raise' ? raiseVariant(errorTypes) : variants[k]));
    const result = options.length === 1 ? options[0]! : z.union(options as [ZodType, ZodType, ...ZodType[]]);
    const schema = z.strictObject({ result });
    entry = { schema, json: toJsonSchema(schema) };
    cache.set(key, entry);
  }
  return entry;
}

/** The decide block's output tool schema: exactly one value for its write binding. */
export function decideToolSchema(bindingSchema: ZodType): { schema: ZodType; json: Record<string, unknown> } {
  const schema = z.strictObject({ value: bindingSchema });
  return { schema, json: toJsonSchema(schema) };
}
