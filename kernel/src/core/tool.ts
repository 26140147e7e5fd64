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
   * sent, once the core has checked them against `input` for the operation record, so the request is parsed (and
   * transformed) once, by the tool, not twice.
   */
  readonly validatesRequest?: boolean;
  run(args: A, stepContext: StepContext): R | Promise<R>;
}

const TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** Defines a tool; the name is checked here so mistakes surface at definition time. */
export function defineTool<A, R>(spec: ToolSpec<A, R>): ToolSpec<A, R> {
  if (!TOOL_NAME.test(spec.name) || spec.name.startsWith('nh_')) {
    throw new UsageError(`Tool name '${spec.name}' must be an ASCII identifier (max 64 chars) not starting with nh_.`);
  }
  return Object.freeze({ ...spec });
}
