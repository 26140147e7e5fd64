/**
 * The gateway's own copy of each capability's request type. A zod schema is a mutable object graph, and the
 * operator's one is reachable (a tool's `input`, the capability object itself): a model that edited it (replaced
 * `safeParse`, or only a check's data, say a URL prefix) would otherwise change which requests the gateway admits,
 * for this run and every later one. The copy is taken when the capability is defined, before any model code
 * runs, is never handed out, and is run through zod's functional parse (not a prototype method anyone can
 * replace). A request type that is not a zod 4 schema is validated as it is.
 */
import { z, type ZodType } from 'zod';
import { ObjectPrototype, dateGetTime, defineProperty, getOwnPropertyDescriptor, getPrototypeOf, isArray, objectCreate, objectKeys } from './intrinsics.js';
import { isDate, isRegExp, regexpParts } from './snapshot-reflect.js';
import { describeError, UsageError } from '../core/index.js';

const RegExpCtor = RegExp;
const DateCtor = Date;

type Parse = (value: unknown) => { success: true; data: unknown } | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };

const safeParseWith = z.safeParse;

interface Internals {
  readonly constr?: unknown;
  readonly def?: object;
}

interface Copying {
  readonly seen: Map<object, unknown>;
  /** Getters copied lazily (a cycle may name a schema whose copy is not built yet), forced before the copy is used. */
  readonly pending: (() => unknown)[];
}

function copyEntries(source: object, target: Record<string, unknown>, copying: Copying): void {
  for (const key of objectKeys(source)) {
    const descriptor = getOwnPropertyDescriptor(source, key)!;
    if ('value' in descriptor) {
      target[key] = copySchemaValue(descriptor.value, copying);
      continue;
    }
    // A getter (zod's lazy shape, a recursive type's own getter): read once the graph around it is copied, so
    // the cycle it closes resolves to the copy of the schema it names, but still now (before any model code
    // can edit what it returns), never at a later first use.
    const read = descriptor.get;
    let copied = false;
    let value: unknown;
    const force = (): unknown => {
      if (!copied) {
        copied = true;
        value = copySchemaValue(read?.call(source), copying);
      }
      return value;
    };
    copying.pending.push(force);
    defineProperty(target, key, { enumerable: descriptor.enumerable ?? true, configurable: true, get: force });
  }
}

/** A deep copy of a zod 4 schema's definition graph; other values (functions, RegExps, dates) are kept as they are. */
function copySchemaValue(value: unknown, copying: Copying): unknown {
  if (value === null || typeof value !== 'object') return value;
  const seen = copying.seen;
  if (seen.has(value)) return seen.get(value);
  const internals = (value as { _zod?: Internals })._zod;
  if (internals && typeof internals.constr === 'function' && internals.def && typeof internals.def === 'object') {
    const def: Record<string, unknown> = {};
    copyEntries(internals.def, def, copying);
    const copy: unknown = new (internals.constr as new (def: object) => unknown)(def);
    seen.set(value, copy);
    return copy;
  }
  if (isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (let i = 0; i < value.length; i++) out[i] = copySchemaValue(value[i], copying);
    return out;
  }
  // Objects a check holds by reference and that model code could still reach through the operator's schema:
  // own copies, so a RegExp recompiled or given an own `exec`, or a Date moved, changes only the original.
  if (isRegExp(value)) {
    const { source, flags } = regexpParts(value);
    const copy = new RegExpCtor(source, flags);
    seen.set(value, copy);
    return copy;
  }
  if (isDate(value)) {
    const copy = new DateCtor(dateGetTime(value as Date));
    seen.set(value, copy);
    return copy;
  }
  const proto = getPrototypeOf(value);
  if (proto === ObjectPrototype || proto === null) {
    const out = objectCreate(proto) as Record<string, unknown>;
    seen.set(value, out);
    copyEntries(value, out, copying);
    return out;
  }
  return value;
}

/** The gateway's validator for `schema`, taken now (see the module comment). */
export function pristineValidator(schema: ZodType): Parse {
  let copy: unknown;
  try {
    const copying: Copying = { seen: new Map(), pending: [] };
    copy = copySchemaValue(schema, copying);
    for (let i = 0; i < copying.pending.length; i++) copying.pending[i]!();
  } catch (thrown) {
    // Fail closed: a zod 4 type the gateway cannot hold a copy of would be checked through an object any code can edit.
    throw new UsageError(`The request type could not be copied for the capability gateway (${describeError(thrown, 200)}); build it from plain zod schemas.`);
  }
  if (copy !== schema && (copy as { _zod?: Internals } | undefined)?._zod) {
    const own = copy as ZodType;
    return (value) => safeParseWith(own, value) as ReturnType<Parse>;
  }
  // Not a zod 4 schema (a validator object of another kind): its own safeParse, bound now.
  const parse = schema.safeParse.bind(schema);
  return (value) => parse(value) as ReturnType<Parse>;
}
