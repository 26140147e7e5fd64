/**
 * parseArgs for the project's two commands (`nighthawk-ts` and `npm start`), with Node's refusals (an unknown
 * option, a missing value, a stray argument) reworded as one line that names the culprit; the caller prints it
 * with its usage and exits 2.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export class CommandLineError extends Error {
  override readonly name = 'CommandLineError';
}

type Options = NonNullable<ParseArgsConfig['options']>;
export type ParsedCommandLine<T extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: T; strict: true }>>;

export function parseCommandLine<T extends Options>(args: string[], options: T): ParsedCommandLine<T> {
  try {
    return parseArgs({ args, options, strict: true });
  } catch (error) {
    throw new CommandLineError(describeRefusal(error));
  }
}

function describeRefusal(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const option = /'(-[^']*)'/.exec(message)?.[1]?.split(/[ ,]/)[0];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option '${option ?? message}'`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) {
    // "argument missing": it ended the line; "ambiguous": another option followed it, read as no value.
    if (/argument missing/.test(message)) return `option '${option}' needs a value`;
    if (/ambiguous/.test(message)) return `option '${option}' needs a value (one that starts with a dash is written ${option}=VALUE)`;
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return `unexpected argument '${/'([^']*)'/.exec(message)?.[1] ?? message}'`;
  return message;
}
