/**
 * Tools an agent executor may offer besides the built-ins. Each call is an inspected operation of
 * kind `tool`: arguments are validated with zod first, then oversight decides, then `run` executes.
 */
import type { ZodType } from 'zod';
import { UsageError } from './errors.js';
import type { StepContext } from './step-context.js';

export interface ToolSpec<A = unknown, R = unknown> {
  /** ASCII identifier; `nh_` is reserved for built-ins. */
  readonly name: string;
  readonly description: string;
  readonly input: ZodType<A>;
  /**
   * The tool validates its request itself (a host's capability gateway): `run` receives the model's arguments as
   * sent, once the core has checked them (with `parseArguments` when given, else `input`) for the operation
   * record, so the request is parsed (and transformed) for the body once, by the tool, not twice.
   */
  readonly validatesRequest?: boolean;
  /**
   * Checks the model's arguments in place of `input.safeParse`, for the operation record: a validator its owner
   * keeps privately (the capability gateway's copy of the request type). `input` names a schema object any code
   * holding the tool can edit; with this, an edit there cannot show oversight one request while the tool, which
   * parses the arguments with its own copy, runs another.
   */
  readonly parseArguments?: (value: unknown) => ArgumentsParse;
  run(args: A, stepContext: StepContext): R | Promise<R>;
}

/** What `ToolSpec.parseArguments` returns: zod's safeParse result shape. */
export type ArgumentsParse =
  | { readonly success: true; readonly data: unknown }
  | { readonly success: false; readonly error: { readonly issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[] } };

/** Zod-style issues as one line: `path: message` each (`(root)` for the value itself), `; `-separated. */
export function describeIssues(issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[]): string {
  return issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
}

const TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** Argument objects the agent executor parsed from a model's tool call (JSON data), as handed to a tool's run. */
const parsedToolArguments = new WeakSet<object>();
const weakSetAdd = WeakSet.prototype.add;
const weakSetHas = WeakSet.prototype.has;
const apply = Reflect.apply;

/** Internal to the core (not exported from its index): marks arguments the agent executor parsed. */
export function markParsedToolArguments(args: object): void {
  apply(weakSetAdd, parsedToolArguments, [args]);
}

/**
 * Whether `args` are a model tool call's arguments as the agent executor parsed them: plain JSON data, so reading
 * them runs no code. Anything else handed to a tool's `run` (code calling it directly) is not.
 */
export function isParsedToolArguments(args: unknown): boolean {
  return args !== null && typeof args === 'object' && (apply(weakSetHas, parsedToolArguments, [args]) as boolean);
}

/** Defines a tool; the name is checked here so mistakes surface at definition time. */
export function defineTool<A, R>(spec: ToolSpec<A, R>): ToolSpec<A, R> {
  if (!TOOL_NAME.test(spec.name) || spec.name.startsWith('nh_')) {
    throw new UsageError(`Tool name '${spec.name}' must be an ASCII identifier (max 64 chars) not starting with nh_.`);
  }
  return Object.freeze({ ...spec });
}
