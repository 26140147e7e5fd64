/**
 * Natural functions. Runtime form: `naturalFunction({ name, program, input, returns, then })`, no
 * build step. Block form: `naturalFunction(async function f() { `execute …`; … })` compiled by the
 * block transform, which rewrites each block into a `runBlock` call.
 */
import type { z, ZodType } from 'zod';
import { describeIssues } from './tool.js';
import type { BlockResult, BlockSpec } from './block-spec.js';
import { ExecutionError, UnassignedWriteBindingError, UsageError } from './errors.js';
import { parseProgram } from './program.js';
import { runBlock } from './step-runner.js';
import { issueText } from './step-context.js';

const NATURAL = Symbol.for('nighthawk.natural-function');

/** Metadata the block transform attaches to a wrapped function. */
export interface TransformMeta {
  readonly transformed: true;
  readonly blocks: number;
  /** Explicit write-binding schemas given to the wrapper, by name (they win over annotations). */
  readonly bindings?: Readonly<Record<string, ZodType>>;
}

export interface NaturalFunctionOptions<I extends z.ZodObject, R extends ZodType> {
  /** Function name, used as the step id. */
  readonly name: string;
  /** Program text beginning with `execute` or `decide` on its own first line. */
  readonly program: string;
  /** Arguments schema; each property becomes a local of the block (usable as `<name>`). */
  readonly input: I;
  /** Return schema: a `return` outcome is validated against it. */
  readonly returns: R;
  /** Write-binding schemas (missing ones are inferred from `initial`). */
  readonly writes?: Readonly<Record<string, ZodType>>;
  /** Initial values of write bindings and other block locals. */
  readonly initial?: Readonly<Record<string, unknown>>;
  /**
   * The deterministic code after the block, for non-return outcomes: receives the arguments and
   * the committed write bindings and returns the function's value. Default: the block must return.
   */
  readonly then?: (context: { args: z.output<I>; bindings: Readonly<Record<string, unknown>>; result: BlockResult }) => z.input<R> | Promise<z.input<R>>;
  /** Extra references visible only to this function's block. */
  readonly references?: Readonly<Record<string, unknown>>;
}

export type NaturalFunction<I extends z.ZodObject, R extends ZodType> = ((args: z.input<I>) => Promise<z.output<R>>) & {
  readonly naturalName: string;
};

type AsyncFn = (...args: never[]) => Promise<unknown>;

/** Defines a Natural function from a program and zod schemas (runtime form). */
export function naturalFunction<I extends z.ZodObject, R extends ZodType>(options: NaturalFunctionOptions<I, R>): NaturalFunction<I, R>;
/** Wraps an async function whose body contains Natural blocks (block form, needs the transform). */
export function naturalFunction<F extends AsyncFn>(fn: F, meta?: TransformMeta | { bindings?: Record<string, ZodType> }): F;
export function naturalFunction(arg: unknown, meta?: unknown): unknown {
  if (typeof arg === 'function') return wrapBlockFunction(arg as AsyncFn, meta as TransformMeta | undefined);
  return defineRuntimeFunction(arg as NaturalFunctionOptions<z.ZodObject, ZodType>);
}

function defineRuntimeFunction(options: NaturalFunctionOptions<z.ZodObject, ZodType>): unknown {
  if (!options || typeof options !== 'object') throw new UsageError('naturalFunction() needs options or an async function.');
  const { name, program, input, returns } = options;
  if (typeof name !== 'string' || !name) throw new UsageError('naturalFunction(): `name` must be a non-empty string.');
  if (typeof input?.safeParse !== 'function' || typeof returns?.safeParse !== 'function') {
    throw new UsageError(`naturalFunction('${name}'): \`input\` and \`returns\` must be zod schemas.`);
  }
  parseProgram(program); // parse errors surface at definition time
  const fn = async (args: unknown) => {
    const parsedArgs = input.safeParse(args ?? {});
    if (!parsedArgs.success) {
      throw new UsageError(`Arguments to ${name} are invalid: ${describeIssues(parsedArgs.error.issues)}`);
    }
    const spec: BlockSpec = {
      program,
      stepId: name,
      values: { ...(options.initial ?? {}), ...(parsedArgs.data as Record<string, unknown>) },
      writes: options.writes,
      returnAllowed: true,
      returns,
      references: options.references,
    };
    const result = await runBlock(spec);
    if (result.kind === 'return') return result.value;
    if (!options.then) {
      throw new ExecutionError(`${name}: the block ended with '${result.kind}' but the function has no \`then\` to produce a value.`, {
        stepId: name,
      });
    }
    const value = await options.then({ args: parsedArgs.data, bindings: result.bindings, result });
    const checked = returns.safeParse(value);
    if (!checked.success) {
      const detail = checked.error.issues.slice(0, 3).map(issueText).join('; ');
      const unassigned = parseProgram(program).writeBindingNames.filter((n) => !(n in result.bindings));
      // The commonest cause is a write binding the model never assigned: say which, not what zod saw.
      if (unassigned.length) throw new UnassignedWriteBindingError({ bindingNames: unassigned, stepId: name, detail, prefix: `${name}: the return value failed validation` });
      throw new ExecutionError(`${name}: the return value failed validation: ${detail}`, { stepId: name });
    }
    return checked.data;
  };
  Object.defineProperty(fn, 'name', { value: name });
  Object.defineProperty(fn, 'naturalName', { value: name });
  Object.defineProperty(fn, NATURAL, { value: true });
  madeFromSpec.add(fn);
  return fn;
}

// Identity-keyed and module-private, like transformedByCore: a marker written onto a function cannot forge it.
const madeFromSpec = new WeakSet<object>();

/**
 * True for a function naturalFunction(options) built from a spec (the runtime form). The Session approves a
 * cell's `const f = x({ ... })` only when the value is one of these (observed-definitions.ts).
 */
export function isSpecNaturalFunction(value: unknown): boolean {
  return typeof value === 'function' && madeFromSpec.has(value);
}

// A statement-level string or template literal that starts with a sentinel: the transform's input.
const UNTRANSFORMED_BLOCK = /(?:^|[;{}\n])\s*[`'"](?:execute|decide)\\?n?\n?/;

function wrapBlockFunction(fn: AsyncFn, meta: TransformMeta | { bindings?: Record<string, ZodType> } | undefined): AsyncFn {
  if (Object.prototype.toString.call(fn) !== '[object AsyncFunction]') {
    throw new UsageError(`Natural function ${fn.name || '(anonymous)'} must be async: every Natural function is async.`);
  }
  const transformed = (meta as TransformMeta | undefined)?.transformed === true;
  if (!transformed && UNTRANSFORMED_BLOCK.test(Function.prototype.toString.call(fn))) {
    throw new UsageError(
      `Natural function ${fn.name || '(anonymous)'} contains a Natural block but was not compiled by the Nighthawk transform. ` +
        'Build it with the esbuild/Vite plugin (or run it in the notebook), or use the runtime form naturalFunction({ program, input, returns }).',
    );
  }
  Object.defineProperty(fn, NATURAL, { value: true });
  if (transformed) transformedByCore.add(fn);
  return fn;
}

// Identity-keyed and module-private: nothing written onto a function can put it here.
const transformedByCore = new WeakSet<object>();

/**
 * True for a Natural function whose definition the block transform compiled (the wrapper call the
 * transform emitted). The Session records such functions under the `core-transformation` route.
 */
export function isTransformedNaturalFunction(value: unknown): boolean {
  return typeof value === 'function' && transformedByCore.has(value);
}

/** True for functions created or wrapped by naturalFunction. */
export function isNaturalFunction(value: unknown): boolean {
  return typeof value === 'function' && (value as unknown as Record<symbol, unknown>)[NATURAL] === true;
}

/** Runtime form of a single block: runs `program` with the given locals and write schemas. */
export function step(spec: Omit<BlockSpec, 'scope'> & { values?: Readonly<Record<string, unknown>> }): Promise<BlockResult> {
  // A program without its sentinel line fails in runBlock's parse (NaturalParseError), which records the step's
  // failure (seed 001) instead of throwing here with no record.
  return runBlock(spec);
}
